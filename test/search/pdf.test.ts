// PDFs in the tree are read page by page: a question a page answers finds that page, with its number; locked,
// broken and oversized PDFs are skipped with a reason and never stop a run. Real git, the real model, LanceDB.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makePdf } from '../../fixtures/pdf.js';
import { git, runCli, runJson, tempDir } from '../helpers.js';

interface Result {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  language: string;
  text: string;
}

describe('PDF documents', () => {
  let repo: string;
  before(() => {
    repo = path.join(tempDir('pdf'), 'pdf');
    const write = (file: string, bytes: Buffer | string) => {
      fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      fs.writeFileSync(path.join(repo, file), bytes);
    };
    write('src/session.ts', 'export function openSession(user: string): string {\n  return `session for ${user}`;\n}\n');
    write('docs/security-spec.pdf', makePdf([
      ['Security specification', 'Version 3, for the platform team.'],
      ['Access tokens', 'An access token expires after fifteen minutes.', 'The refresh token rotates on every use and is revoked after thirty days idle.'],
      ['Appendix: glossary of terms used in this document.'],
    ]));
    write('docs/locked.pdf', makePdf([['Quarterly numbers']], { encrypted: true }));
    write('docs/broken.pdf', '%PDF-1.7\nthis file was cut off in transit\n');
    write('docs/dump.pdf', makePdf(Array.from({ length: 2_001 }, (_, i) => [`record ${i}`])));
    // A PDF is told by its header, not its name.
    write('docs/ledger-export', makePdf([['Exported ledger summary for the audit.']]));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'docs');
  });

  test('the page that answers is returned with its page number and the run skips the rest with reasons', async () => {
    const index = await runCli(['index', '--json'], repo);
    assert.equal(index.code, 0, index.stderr);
    const results = await runJson<Result[]>(['search', 'how long until an access token expires', '-k', '3'], repo);
    const page = results.find((r) => r.path === 'docs/security-spec.pdf');
    assert.ok(page, JSON.stringify(results.map((r) => r.path)));
    assert.deepEqual([page.startLine, page.endLine, page.symbol, page.language], [2, 2, 'page 2', 'pdf']);
    assert.match(page.text, /expires after fifteen minutes/);
    const status = await runJson<{ skipped: Record<string, { examples: string[] }> }>(['status'], repo);
    assert.deepEqual(status.skipped.encrypted?.examples, ['docs/locked.pdf']);
    assert.deepEqual(status.skipped.unreadable?.examples, ['docs/broken.pdf']);
    assert.deepEqual(status.skipped['too many pages']?.examples, ['docs/dump.pdf']);
    const [ledger] = await runJson<Result[]>(['search', 'ledger summary for the audit', '-k', '1'], repo);
    assert.equal(ledger.path, 'docs/ledger-export');
  });
});

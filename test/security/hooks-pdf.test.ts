import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makePdf } from '../../fixtures/pdf.js';
import { chunkerVersion } from '../../src/chunk/version.js';
import { readMeta } from '../../src/store/meta.js';
import { openStore } from '../../src/store/open-store.js';
import { committedRepo, git, PROJECT_ROOT, runCli, runJson, tempDir } from '../helpers.js';
import { layoutOf } from '../robustness/robustness-helpers.js';
import { seamEnv } from '../support/seams.js';

/*
 * `%PDF-` is a PDF only where a real PDF has it. Code that detects PDFs (this project's own src/chunk/pdf.ts, a
 * Python sniffer) and a README quoting the header were skipped as unreadable PDFs; a store an older ocrag made
 * remembers them so (a mark keyed by blob), and must read them again.
 */

interface Hit {
  path: string;
  startLine: number;
  language: string;
  text: string;
}

const OLD_PDF = seamEnv({ chunkerRevisions: { pdf: 2 } });

describe('%PDF- is a PDF only where a real PDF has it', () => {
  let repo: string;
  let sniffer: string;
  before(async () => {
    repo = committedRepo(
      path.join(tempDir('hooks-pdf'), 'repo'),
      {
        'src/chunk/pdf.ts': fs.readFileSync(path.join(PROJECT_ROOT, 'src', 'chunk', 'pdf.ts'), 'utf8'),
        'tools/sniff.py': 'PDF_MAGIC = b"%PDF-"\n\n\ndef sniff_uploaded_document(data: bytes) -> str:\n    """Tell an uploaded invoice PDF from a scanned image by its first bytes."""\n    return "pdf" if data[:5] == PDF_MAGIC else "image"\n',
        'docs/format.md': '# Upload formats\n\nA PDF starts with its header line:\n\n```\n%PDF-1.7\n```\n\nUploads without it are rejected as damaged invoices.\n',
      },
      'code that handles PDFs',
    );
    fs.writeFileSync(path.join(repo, 'docs', 'quota.pdf'), makePdf([['Platform spec'], ['Quotas', 'Each tenant may store at most 500 gigabytes of backups.']]));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'a real PDF');
    sniffer = git(repo, 'rev-parse', 'HEAD:tools/sniff.py');
    // The store an older ocrag left: made by the PDF reader's revision 2, the sniffer marked an unreadable PDF.
    const old = await runCli(['index'], repo, OLD_PDF);
    assert.equal(old.code, 0, old.stderr);
    const meta = readMeta(layoutOf(repo).meta)!;
    assert.match(meta.chunkerVersion, /\+pdf\.2\+/);
    const store = await openStore(layoutOf(repo), meta.dim, { create: false });
    try {
      await store.deleteBlobs([sniffer]);
      await store.addMarks([{ blob: sniffer, reason: 'unreadable' }]);
    } finally {
      store.close();
    }
    fs.rmSync(layoutOf(repo).resident, { recursive: true, force: true });
    const before = await runJson<Hit[]>(['search', 'tell an uploaded invoice pdf from a scanned image', '-k', '3', '--no-update'], repo, OLD_PDF);
    assert.ok(!before.some((h) => h.path === 'tools/sniff.py'), 'the older store does not have it');
  });

  test('a store made before the change reads again the code it skipped as an unreadable PDF', async () => {
    const r = await runCli(['index', '--json'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /how a PDF is told changed \(.*pdf\.2.* → .*pdf\.3.*\); reading 1 file\(s\) skipped as unreadable PDFs again/);
    assert.equal(readMeta(layoutOf(repo).meta)!.chunkerVersion, chunkerVersion());
    const listed = await runJson<{ path: string; chunks: number }[]>(['list'], repo);
    assert.ok(listed.find((f) => f.path === 'tools/sniff.py')!.chunks > 0, JSON.stringify(listed));
  });

  test('code that writes %PDF- (this project\'s own pdf.ts, a sniffer) and a README quoting it are indexed as text and found', async () => {
    assert.equal((await runCli(['index'], repo)).code, 0);
    const listed = await runJson<{ path: string; chunks: number }[]>(['list'], repo);
    for (const file of ['src/chunk/pdf.ts', 'tools/sniff.py', 'docs/format.md']) assert.ok(listed.find((f) => f.path === file)!.chunks > 0, file);
    const sniff = await runJson<Hit[]>(['search', 'tell an uploaded invoice pdf from a scanned image', '-k', '3'], repo);
    assert.equal(sniff[0].path, 'tools/sniff.py');
    assert.match(sniff[0].text, /PDF_MAGIC/);
    const own = await runJson<Hit[]>(['search', 'how is a PDF told by its header bytes', '-k', '5'], repo);
    assert.ok(own.some((h) => h.path === 'src/chunk/pdf.ts' && h.language === 'typescript'), JSON.stringify(own.map((h) => h.path)));
  });

  test('a real PDF is still read page by page', async () => {
    const hits = await runJson<Hit[]>(['search', 'how much backup storage may a tenant keep', '-k', '3'], repo);
    assert.deepEqual([hits[0].path, hits[0].startLine, hits[0].language], ['docs/quota.pdf', 2, 'pdf']);
  });
});

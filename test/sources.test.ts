// Sources beyond the tree (`ocrag add`): a folder outside the repository with Markdown, a PDF and a CSV is searched
// beside the code, as it is now on disk; removing it removes it; content is embedded once, wherever it appears.
// Real git, the real model, LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makePdf } from '../fixtures/pdf.js';
import { git, runCli, runJson, tempDir, twoLanguageRepo } from './helpers.js';

interface Result {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  text: string;
  source?: string;
  absolutePath?: string;
}

const search = (repo: string, q: string, ...more: string[]) => runJson<Result[]>(['search', q, '-k', '5', ...more], repo);

describe('sources', () => {
  let repo: string;
  let kb: string;
  before(async () => {
    repo = twoLanguageRepo();
    kb = path.join(tempDir('kb'), 'design-docs');
    fs.mkdirSync(path.join(kb, 'auth'), { recursive: true });
    fs.writeFileSync(path.join(kb, 'auth', 'tokens.md'), '# Tokens\n\n## Refresh\n\nA refresh token rotates on every use; the old one is revoked at once.\n');
    fs.writeFileSync(path.join(kb, 'spec.pdf'), makePdf([['Platform spec, version 2'], ['Quotas', 'Each tenant may store at most 500 gigabytes of backups.'], ['Appendix']]));
    fs.writeFileSync(path.join(kb, 'regions.csv'), 'region,datacenter,latency_ms\n' + Array.from({ length: 60 }, (_, i) => `r${i},dc-${i}-north,${10 + i}`).join('\n') + '\n');
    await runJson(['index'], repo);
  });

  test('an added folder is searched beside the code, its results named by the source with their place on disk', async () => {
    const added = await runJson<{ name: string; files: number }[]>(['add', kb], repo);
    assert.deepEqual(added.map((a) => [a.name, a.files]), [['design-docs', 3]]);
    const [page] = (await search(repo, 'how much backup storage may a tenant keep')).filter((r) => r.path === 'design-docs:spec.pdf');
    assert.ok(page, 'the PDF page answers');
    assert.deepEqual([page.startLine, page.symbol, page.source, page.absolutePath], [2, 'page 2', 'design-docs', path.join(kb, 'spec.pdf')]);
    const rows = (await search(repo, 'which datacenter serves region r47')).filter((r) => r.path === 'design-docs:regions.csv');
    assert.ok(rows.length && rows[0]!.text.startsWith('region,datacenter,latency_ms\n'), 'the header row comes with the rows');
    assert.ok(rows.some((r) => r.text.includes('r47,dc-47-north')));
    const listed = await runJson<{ path: string; state: string }[]>(['list', 'design-docs:**'], repo);
    assert.deepEqual(listed.map((r) => [r.path, r.state]), [['design-docs:auth/tokens.md', 'source'], ['design-docs:regions.csv', 'source'], ['design-docs:spec.pdf', 'source']]);
    assert.ok((await search(repo, 'refresh token rotation', '--no-sources')).every((r) => !r.source));
    assert.deepEqual((await search(repo, 'refresh token rotation', '--path', 'design-docs:auth/**')).map((r) => r.path), ['design-docs:auth/tokens.md']);
    assert.ok((await search(repo, 'refresh token rotation', '--path', 'design-docs:**')).every((r) => r.source === 'design-docs'));
    // The PDF is about storage, not tokens: the filters are asked to show it whatever it matches.
    assert.deepEqual([...new Set((await search(repo, 'refresh token rotation', '--source', 'design-docs', '--path', '*.pdf', '--min-match', '0')).map((r) => r.path))], ['design-docs:spec.pdf']);
  });

  test('an edited file is searched as it is now, a deleted one is gone', async () => {
    fs.writeFileSync(path.join(kb, 'auth', 'tokens.md'), '# Tokens\n\n## Refresh\n\nRefresh tokens now expire after ninety days of disuse.\n');
    const [hit] = (await search(repo, 'when do refresh tokens expire')).filter((r) => r.path === 'design-docs:auth/tokens.md');
    assert.match(hit!.text, /ninety days/);
    // An index run (as a hook's) embeds a source's new file ahead of the next search.
    const stored = (await runJson<{ chunksStored: number }>(['status'], repo)).chunksStored;
    fs.writeFileSync(path.join(kb, 'auth', 'sessions.md'), '# Sessions\n\nA session cookie lasts twelve hours.\n');
    await runJson(['index'], repo);
    assert.ok((await runJson<{ chunksStored: number }>(['status'], repo)).chunksStored > stored, 'the index run embedded the new source file');
    fs.rmSync(path.join(kb, 'regions.csv'));
    assert.ok((await search(repo, 'which datacenter serves region r47')).every((r) => r.path !== 'design-docs:regions.csv'));
  });

  test('the same file in a second source is embedded once; removing a source removes it from search', async () => {
    const twin = path.join(tempDir('twin'), 'twin');
    fs.mkdirSync(twin);
    fs.copyFileSync(path.join(kb, 'spec.pdf'), path.join(twin, 'spec-copy.pdf'));
    const before = await runJson<{ chunksStored: number }>(['status'], repo);
    await runJson(['add', twin, '--name', 'mirror'], repo);
    const after = await runJson<{ chunksStored: number }>(['status'], repo);
    assert.equal(after.chunksStored, before.chunksStored, 'no new chunk: the content was stored already');
    const both = (await search(repo, 'how much backup storage may a tenant keep')).map((r) => r.path);
    assert.ok(both.includes('mirror:spec-copy.pdf') && both.includes('design-docs:spec.pdf'), both.join(', '));
    const removed = await runCli(['remove', 'design-docs'], repo);
    assert.equal(removed.code, 0, removed.stderr);
    assert.ok((await search(repo, 'how much backup storage may a tenant keep')).every((r) => !r.path.startsWith('design-docs:')));
    await runJson(['gc'], repo);
    const [kept] = (await search(repo, 'how much backup storage may a tenant keep')).filter((r) => r.path === 'mirror:spec-copy.pdf');
    assert.ok(kept, 'gc keeps what a remaining source holds');
  });

  test('another repository as a source follows the branch checked out there', async () => {
    const sibling = path.join(tempDir('sibling'), 'billing');
    fs.mkdirSync(sibling, { recursive: true });
    fs.writeFileSync(path.join(sibling, 'invoice.py'), 'def late_fee(days):\n    """A late invoice costs one percent per week overdue."""\n    return days // 7\n');
    git(sibling, 'init', '-q', '-b', 'main');
    git(sibling, 'add', '-A');
    git(sibling, 'commit', '-qm', 'fees');
    git(sibling, 'checkout', '-q', '-b', 'new-fees');
    fs.writeFileSync(path.join(sibling, 'invoice.py'), 'def late_fee(days):\n    """A late invoice costs a flat twenty euros once overdue."""\n    return 20\n');
    git(sibling, 'commit', '-qam', 'flat fee');
    git(sibling, 'checkout', '-q', 'main');
    await runJson(['add', sibling], repo);
    const fee = async () => (await search(repo, 'how much does a late invoice cost', '--source', 'billing'))[0]!;
    assert.match((await fee()).text, /one percent per week/);
    git(sibling, 'checkout', '-q', 'new-fees');
    assert.match((await fee()).text, /flat twenty euros/);
    await runJson(['remove', 'billing'], repo);
  });

  test('bad input is one line and a non-zero exit', async () => {
    const missing = await runCli(['add', path.join(kb, 'nope')], repo);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^ocrag: cannot add ".*nope": no such file or folder\n$/);
    const unknown = await runCli(['remove', 'nothing-like-it'], repo);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no source "nothing-like-it" \(sources: mirror\)/);
    const badName = await runCli(['add', kb, '--name', 'a:b'], repo);
    assert.equal(badName.code, 2);
    assert.match(badName.stderr, /invalid source name "a:b"/);
  });
});

// Hostile and odd input in one repository (fixtures/hostile-repo.ts), indexed once: each test checks what
// became of one kind of input. The README's "Limits" table states the same behaviour.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CRLF_MARKER_LINE, DEEP_DEPTH, GIANT_LINES, makeHostileRepo, ODD_PATHS, SECRET_PATHS, SECRET_TOKEN } from '../../fixtures/hostile-repo.js';
import { pathKey } from '../../src/git/path-key.js';
import type { SearchResult } from '../../src/search/search.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { readFields } from '../../src/store/chunk-batch.js';
import { openStore } from '../../src/store/open-store.js';
import type { Manifest } from '../../src/store/manifest.js';
import { tempDir } from '../helpers.js';
import { cli, layoutOf, manifestsOf } from './robustness-helpers.js';

describe('hostile and odd input', () => {
  let repo: string;
  let outside: string;
  let manifest: Omit<Manifest, 'indexedAt'>;
  let index: CodeIndex;
  const search = (query: string, k = 5): Promise<SearchResult[]> => index.search(query, { k });
  const top = async (query: string) => (await search(query, 1))[0];
  /** The committed file's lines start..end, as a chunk shows them (CR removed). */
  const linesOf = (rel: string, start: number, end: number, encoding: BufferEncoding = 'utf8') =>
    fs.readFileSync(path.join(repo, rel), encoding).replace(/^\uFEFF/, '').split('\n').slice(start - 1, end).map((l) => l.replace(/\r$/, '')).join('\n');

  before(async () => {
    const dir = tempDir('hostile');
    repo = path.join(dir, 'repo');
    outside = path.join(dir, 'outside');
    makeHostileRepo(repo, outside);
    index = await CodeIndex.open(repo);
    const summary = await index.index();
    assert.equal(summary.upToDate, false);
    manifest = manifestsOf(repo)['branch-main'];
  });

  after(() => index?.close());

  test('binary content behind a text extension is skipped as binary', () => {
    assert.equal(manifest.skipped['bin/image.ts'], 'binary');
  });

  test('a NUL byte in the middle of a text file marks it binary', () => {
    assert.equal(manifest.skipped['enc/nul-in-middle.py'], 'binary');
  });

  test('invalid UTF-8 is indexed with replacement characters; the rest of the file stays searchable', async () => {
    const r = await top('markerLatin1');
    assert.equal(r.path, 'enc/latin1.py');
    assert.match(r.text, /caf\uFFFD cr\uFFFDme/);
  });

  test('UTF-16 with a byte order mark is decoded (both byte orders); without one it is binary', async () => {
    for (const [word, rel, encoding] of [['markerUtf16le', 'enc/utf16le.ts', 'utf16le'], ['markerUtf16be', 'enc/utf16be.ts', null]] as const) {
      const r = await top(word);
      assert.equal(r.path, rel);
      assert.match(r.text, new RegExp(`export function ${word}\\(\\)`));
      if (encoding) assert.equal(r.text, linesOf(rel, r.startLine, r.endLine, encoding));
    }
    assert.equal(manifest.skipped['enc/utf16-no-bom.ts'], 'binary');
  });

  test('CRLF files: line numbers are those of the file, text without CR', async () => {
    const r = await top('markerCrlf');
    assert.equal(r.path, 'crlf/windows.ts');
    assert.equal(r.text, linesOf('crlf/windows.ts', r.startLine, r.endLine));
    assert.ok(r.startLine <= CRLF_MARKER_LINE && r.endLine >= CRLF_MARKER_LINE + 3, `${r.startLine}-${r.endLine}`);
    assert.doesNotMatch(r.text, /\r/);
  });

  test('a 10,000-line function is cut into bounded, ordered chunks that cover every line', async () => {
    const store = await openStore(layoutOf(repo), 512, { create: false });
    const spans: [number, number][] = [];
    try {
      for await (const batch of store.chunkColumns([manifest.files['long/giant.ts']], ['startLine', 'endLine'])) {
        const { startLine, endLine } = readFields(batch, ['startLine', 'endLine']);
        for (let i = 0; i < batch.numRows; i++) spans.push([startLine(i), endLine(i)]);
      }
    } finally {
      store.close();
    }
    spans.sort((a, b) => a[0] - b[0]);
    assert.ok(spans.length >= GIANT_LINES / 60, `${spans.length} chunks`);
    assert.ok(spans.every(([s, e]) => s <= e && e - s + 1 <= 83), 'every chunk within maxLines (+3 for a closing line)');
    assert.equal(spans[0][0], 1);
    assert.equal(spans.at(-1)![1], GIANT_LINES);
    for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] <= spans[i - 1][1] + 1, `gap before line ${spans[i][0]}`);
    const r = await top('markerGiant step 5000 of the giant function');
    assert.equal(r.path, 'long/giant.ts');
  });

  test(`a file ${DEEP_DEPTH} folders deep is indexed at its full path`, async () => {
    const r = await top('markerDeep');
    assert.equal(r.path.split('/').length, DEEP_DEPTH + 1);
    assert.ok(r.path.endsWith('/deep.ts'));
  });

  test('paths with spaces, quotes, newlines, tabs, non-ASCII, leading dashes and shell syntax are indexed and named exactly', async () => {
    for (const [rel, word] of Object.entries(ODD_PATHS)) {
      // A name with a control character is keyed, and named exactly, by git's quoted form; its path shows U+FFFD there.
      const key = pathKey(Buffer.from(rel));
      assert.ok(key in manifest.files, `${JSON.stringify(rel)} is indexed`);
      const r = await top(word);
      assert.equal(r.quotedPath ?? r.path, key, word);
      assert.equal(r.path, rel.replace(/[\t\n]/g, '\uFFFD'), word);
    }
    // The CLI prints them exactly too (JSON), and nothing in them ran.
    const r = await cli(['search', 'markerDollarParen', '--json', '-k', '1'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout)[0].path, 'odd/$(touch PWNED).ts');
    assert.equal(fs.existsSync(path.join(repo, 'PWNED')) || fs.existsSync(path.join(repo, 'odd', 'PWNED')), false);
  });

  test('symlinks are never followed, committed or not, to a file or a folder outside the repository', async () => {
    for (const rel of ['links-absolute.ts', 'links/relative.ts', 'links/outside-dir', 'links/passwd.txt']) assert.equal(manifest.skipped[rel], 'symlink', rel);
    // Untracked links are left out of the working-tree overlay too.
    fs.symlinkSync(path.join(outside, 'outside.ts'), path.join(repo, 'untracked-link.ts'));
    fs.symlinkSync(outside, path.join(repo, 'untracked-dir-link'));
    try {
      const results = await search('markerOutsideRepo returns the marker word', 20);
      assert.ok(results.every((r) => !/markerOutsideRepo/.test(r.text)), results.map((r) => r.path).join(', '));
    } finally {
      fs.rmSync(path.join(repo, 'untracked-link.ts'));
      fs.rmSync(path.join(repo, 'untracked-dir-link'));
    }
  });

  test('a checked-out submodule is skipped: its files belong to another repository', async () => {
    assert.equal(manifest.skipped['vendor/sub'], 'submodule');
    assert.ok(fs.existsSync(path.join(repo, 'vendor/sub/lib.ts')), 'the submodule is checked out');
    assert.ok((await search('markerSubmodule', 20)).every((r) => !r.path.startsWith('vendor/')));
  });

  test('a Git LFS pointer is skipped as such, whatever its extension', () => {
    assert.equal(manifest.skipped['assets/weights.bin.ts'], 'lfs pointer');
  });

  test('likely secrets are never embedded, committed or untracked, and status lists them', async () => {
    for (const rel of SECRET_PATHS) assert.equal(manifest.skipped[rel], 'secret', rel);
    fs.writeFileSync(path.join(repo, '.env.local'), `${SECRET_TOKEN}_untracked=1\n`);
    try {
      const results = await search(`${SECRET_TOKEN} markerSecret`, 50);
      assert.ok(results.every((r) => !r.text.includes(SECRET_TOKEN)), results.map((r) => r.path).join(', '));
      const status = await cli(['status', '--json'], repo);
      const secret = (JSON.parse(status.stdout) as { skipped: Record<string, { count: number; examples: string[] }> }).skipped.secret;
      assert.equal(secret.count, SECRET_PATHS.length);
      assert.ok(secret.examples.every((p) => SECRET_PATHS.includes(p)));
    } finally {
      fs.rmSync(path.join(repo, '.env.local'));
    }
    const store = await openStore(layoutOf(repo), 512, { create: false });
    try {
      const texts: string[] = [];
      for await (const batch of store.chunkColumns(null, ['text'])) {
        const { text } = readFields(batch, ['text']);
        for (let i = 0; i < batch.numRows; i++) texts.push(text(i));
      }
      assert.ok(texts.length > 100 && texts.every((t) => !t.includes(SECRET_TOKEN)), 'no stored chunk holds a secret');
    } finally {
      store.close();
    }
  });
});

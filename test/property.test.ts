// Property tests (fast-check) on random input: the chunker, the lexical tokenizer, the embedder's tokenization
// and chunk ids never throw and keep their invariants, whatever the bytes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { chunkFile, chunkerVersionOf, type Chunk } from '../src/chunk/index.js';
import { loadEmbedder, type Embedder } from '../src/embed/index.js';
import { chunkId } from '../src/index/chunk-id.js';
import { codeTerms } from '../src/text/terms.js';
import { TEST_CACHE } from './helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** Fixed seed unless FC_SEED is set: a failure is reproducible, and CI explores new cases when asked to. */
const RUNS = { seed: Number(process.env.FC_SEED ?? 20260101), numRuns: Number(process.env.FC_RUNS ?? 150) };

const PATHS = ['a.ts', 'b.tsx', 'c.js', 'd.py', 'e.go', 'f.rs', 'g.java', 'h.rb', 'i.c', 'j.cpp', 'k.cs', 'l.php', 'm.sh', 'n.md', 'o.json', 'p.yaml', 'q.txt', 'Makefile', 'Dockerfile', 'r.unknown', 'noext'];
/** Lines that open, close and nest definitions in the supported languages, mixed with noise. */
const CODE_LINES = [
  'function f(a, b) {', 'export class A extends B {', '  method(x: number): void {', 'def g(x):', '    return x', 'class C:', '    def m(self):',
  'fn main() -> Result<(), E> {', 'impl Foo for Bar {', 'func (s *S) M() error {', 'public static void main(String[] a) {', 'module M', 'end',
  '}', '};', ')', '])', '/**', ' * doc comment', ' */', '#', '//', '"""', "'''", '`${', '`', '#include <stdio.h>', 'if (x) {', '} else {', '  ',
  '', '\t', '<?php', '---', '- item', '{"k": [1, 2', 'SELECT * FROM t;', '@decorator', 'async def h():', 'let x = () => {',
];
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...CODE_LINES) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 900, max: 2500 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom('\uD83D', '\uDE00', '\uD83D\uDE00'.repeat(600), '\0', '\uFEFF', '\u2028', '\r') },
);
/** A file: lines of code-like units, with \n or \r\n endings, maybe an indent per line. */
const sourceText = fc
  .array(fc.tuple(fc.constantFrom('', '  ', '    ', '\t'), unit, fc.constantFrom('\n', '\n', '\n', '\r\n')), { maxLength: 160 })
  .map((lines) => lines.map(([indent, text, end]) => indent + text + end).join(''));

/** Lines as chunks see them: CR removed, overlong lines cut without splitting a surrogate pair. */
function expectedLines(text: string, maxLineChars: number): string[] {
  return text.split('\n').map((line) => {
    const l = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (l.length <= maxLineChars) return l;
    const code = l.charCodeAt(maxLineChars - 1);
    return l.slice(0, code >= 0xd800 && code <= 0xdbff ? maxLineChars - 1 : maxLineChars);
  });
}

function checkChunks(text: string, chunks: Chunk[], maxLines: number, maxLineChars: number): void {
  const lines = expectedLines(text, maxLineChars);
  const covered = new Uint8Array(lines.length + 2);
  chunks.forEach((c, i) => {
    assert.ok(Number.isInteger(c.startLine) && c.startLine >= 1 && c.startLine <= c.endLine && c.endLine <= lines.length, `range ${c.startLine}-${c.endLine} of ${lines.length}`);
    assert.ok(c.endLine - c.startLine + 1 <= maxLines + 3, `${c.startLine}-${c.endLine} is longer than ${maxLines} + 3 lines`);
    assert.equal(c.text, lines.slice(c.startLine - 1, c.endLine).join('\n'));
    if (i > 0) {
      const p = chunks[i - 1];
      assert.ok(p.startLine < c.startLine || (p.startLine === c.startLine && p.endLine <= c.endLine), 'ordered by start, then end');
    }
    covered.fill(1, c.startLine, c.endLine + 1);
  });
  lines.forEach((line, i) => assert.ok(line.trim() === '' || covered[i + 1] === 1, `line ${i + 1} not covered: ${JSON.stringify(line.slice(0, 60))}`));
}

describe('chunker (chunkFile) on random input', () => {
  test('never throws; chunks are in bounds, ordered, exactly their lines, and cover every non-blank line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), sourceText, async (path, text) => {
        checkChunks(text, await chunkFile(path, text), 80, 1000);
      }),
      RUNS,
    );
  });

  test('the same holds for any option values, and output is deterministic', async () => {
    const options = fc.record({ maxLines: fc.integer({ min: -5, max: 120 }), windowLines: fc.integer({ min: -5, max: 90 }), windowOverlap: fc.integer({ min: -5, max: 100 }), maxLineChars: fc.integer({ min: -5, max: 300 }) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), sourceText, options, async (path, text, opts) => {
        const chunks = await chunkFile(path, text, opts);
        const maxLineChars = opts.maxLineChars === undefined ? 1000 : Math.max(1, opts.maxLineChars);
        const windowLines = opts.windowLines === undefined ? 60 : Math.max(1, opts.windowLines);
        const maxLines = Math.max(opts.maxLines === undefined ? 80 : Math.max(1, opts.maxLines), windowLines);
        checkChunks(text, chunks, maxLines, maxLineChars);
        assert.deepEqual(await chunkFile(path, text, opts), chunks);
      }),
      { ...RUNS, numRuns: Math.ceil(RUNS.numRuns / 2) },
    );
  });
});

describe('chunk ids (chunkId)', () => {
  const hex = fc.stringMatching(/^[0-9a-f]{40}$/);
  const line = fc.integer({ min: 1, max: 1_000_000 });

  test('deterministic, 40 hex digits, and distinct whenever blob, chunker, model or span differ', () => {
    fc.assert(
      fc.property(fc.tuple(hex, fc.string(), fc.string(), line, line), fc.tuple(hex, fc.string(), fc.string(), line, line), (a, b) => {
        const id = chunkId(...a);
        assert.match(id, /^[0-9a-f]{40}$/);
        assert.equal(chunkId(...a), id);
        assert.equal(chunkId(...b) === id, JSON.stringify(a) === JSON.stringify(b));
      }),
      { ...RUNS, numRuns: 500 },
    );
  });

  test('the chunks of one file have pairwise distinct ids', async () => {
    await fc.assert(
      fc.asyncProperty(hex, fc.constantFrom(...PATHS), sourceText, async (blob, path, text) => {
        const ids = (await chunkFile(path, text)).map((c) => chunkId(blob, chunkerVersionOf(c.language), 'model', c.startLine, c.endLine));
        assert.equal(new Set(ids).size, ids.length);
      }),
      { ...RUNS, numRuns: 50 },
    );
  });
});

describe('lexical tokenizer (codeTerms)', () => {
  test('never throws on any string; terms are lower-case words of 2+ characters or CJK bigrams; deterministic', () => {
    const cjk = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\u30fc\u3005]';
    const term = new RegExp(`^(?:[a-z0-9_]{2,}|${cjk}{1,2})$`, 'u');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 }), sourceText), (text) => {
        const terms = codeTerms(text);
        for (const t of terms) assert.match(t, term);
        assert.deepEqual(codeTerms(text), terms);
      }),
      { ...RUNS, numRuns: 300 },
    );
  });

  test('an identifier is found whole (lower-cased) and by each of its camelCase / snake_case parts', () => {
    const word = fc.stringMatching(/^[a-z]{2,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.boolean(), (parts, snake) => {
        const ident = snake ? parts.join('_') : parts.map((p, i) => (i ? p[0].toUpperCase() + p.slice(1) : p)).join('');
        const terms = codeTerms(`x = ${ident}(y)`);
        assert.ok(terms.includes(ident.toLowerCase()), `${ident} → ${terms.join(' ')}`);
        for (const p of parts) assert.ok(terms.includes(p), `${p} of ${ident}`);
      }),
      { ...RUNS, numRuns: 300 },
    );
  });
});

describe("the default model's tokenization and embedding (loadEmbedder)", () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await loadEmbedder('default', { onNotice: () => undefined });
  });
  after(() => embedder?.close());

  const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), sourceText, fc.constantFrom('', ' ', '\0', '\uD800', 'a'.repeat(100_000)));

  function checkVector(v: Float32Array): void {
    assert.equal(v.length, embedder.dim);
    let norm = 0;
    for (const x of v) {
      assert.ok(Number.isFinite(x));
      norm += x * x;
    }
    assert.ok(Math.abs(norm - 1) < 1e-3 || norm === 0, `norm² ${norm}`);
  }

  test('documents: never throws; one finite unit (or zero) vector per text, in order, the same for the same text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), async (texts) => {
        const vectors = await embedder.embed(texts);
        assert.equal(vectors.length, texts.length);
        vectors.forEach(checkVector);
        const again = await embedder.embed([texts[0]]);
        assert.deepEqual(Array.from(again[0]), Array.from(vectors[0]));
      }),
      { ...RUNS, numRuns: 60 },
    );
  });

  test('queries: never throws; a finite unit (or zero) vector', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (query) => checkVector(await embedder.embedQuery(query))),
      { ...RUNS, numRuns: 60 },
    );
  });
});

// The fused tokenizer path must give exactly the library's ids: on every text file of this repository and of
// several installed packages, on Chinese text, on hand-written edge cases and on random strings of the characters
// where tokenizers go wrong; and through the encoder seam, so embeddings stay bit-identical.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import { tokenizerFrom } from '../../src/embed/runtime/fast-unigram.js';
import { fusedTokenIds, type TokenIds } from '../../src/embed/runtime/fused-tokenizer.js';
import { StaticEncoder } from '../../src/embed/runtime/static-encoder.js';
import { clipText, MAX_CHARS } from '../../src/embed/runtime/text-limits.js';
import { sharedDefaultModel } from './helpers.js';
import { EDGE_CASES, packageTexts, repositoryTexts } from './token-corpus.js';
import { randomTexts } from './token-fuzz.js';

type Json = Record<string, unknown>;

/**
 * The library as tokenizer.json configures it, its Unigram model's `tokenize` (a pure function of the word)
 * remembered so that the reference runs in seconds: everything else — the added-token splitter, normaliser,
 * pre-tokenizer sequence, trie, lattice, `fuse_unk`, id look-up — is the library's own code.
 */
function libraryIds(json: Json, config: Json): (text: string) => number[] {
  const tokenizer = new Tokenizer(json, config);
  const model = tokenizer.model as unknown as { tokenize(word: string): string[] };
  const tokenize = model.tokenize.bind(model);
  const memo = new Map<string, string[]>();
  model.tokenize = (word) => {
    let tokens = memo.get(word);
    if (!tokens) memo.set(word, (tokens = tokenize(word)));
    return [...tokens];
  };
  return (text) => tokenizer.encode(text, { add_special_tokens: true }).ids;
}

function fusedFor(json: Json, config: Json): TokenIds {
  const fused = fusedTokenIds(tokenizerFrom(structuredClone(json), config), json);
  assert.ok(fused, 'the fused path takes this tokenizer');
  return fused;
}

/** Texts whose ids differ, at most a few shown: [label, first differing index, library ids there, fused ids there]. */
function differences(texts: Iterable<[string, string]>, library: (t: string) => number[], fused: TokenIds): string[] {
  const out: string[] = [];
  for (const [label, text] of texts) {
    const a = library(text);
    const b = fused(text, Infinity);
    if (a.length === b.length && a.every((id, i) => id === b[i])) continue;
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    out.push(`${label} at ${i}: library ${JSON.stringify(a.slice(i, i + 5))}, fused ${JSON.stringify(b.slice(i, i + 5))}`);
  }
  return out;
}

const labelled = (texts: string[], prefix: string): [string, string][] => texts.map((t, i) => [`${prefix} ${i} ${JSON.stringify(t.slice(0, 40))}`, t]);

describe('the fused tokenizer path on the default model', () => {
  let dir: string;
  let json: Json;
  let config: Json;
  let library: (text: string) => number[];
  let fused: TokenIds;

  before(async () => {
    dir = await sharedDefaultModel();
    json = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as Json;
    config = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Json;
    library = libraryIds(json, config);
    fused = fusedFor(json, config);
  });

  test('gives the library ids on hand-written edge cases', () => {
    assert.deepEqual(differences(labelled(EDGE_CASES, 'edge case'), library, fused), []);
    // Unknown characters make one unknown token per run, the unknown token's own character one per occurrence.
    assert.deepEqual(fused('☃☃☃', Infinity), library('☃☃☃'));
    assert.equal(fused('☃☃☃', Infinity).length, 2, '▁ then one unknown token for the run');
    assert.equal(fused('\uFFFD\uFFFD', Infinity).length, 2);
  });

  test('gives the library ids on every text file of this repository (sources, tests, docs, fixtures with Chinese)', () => {
    const texts = repositoryTexts();
    assert.ok(texts.size > 300, `${texts.size} files`);
    assert.ok([...texts.values()].filter((t) => /[\u4e00-\u9fff]{4}/.test(t)).length >= 10, 'Chinese text among them');
    assert.deepEqual(differences(texts, library, fused), []);
  });

  // Every fourth file (by path) of the packages: 1,885 files and 10 M characters tokenized twice were the suite's
  // slowest minute under load; the whole corpus is compared by bench/tokenize.ts.
  test('gives the library ids on text files of several installed packages (JS, TS, JSON, markdown, source maps)', () => {
    const texts = new Map([...packageTexts()].sort(([a], [b]) => (a < b ? -1 : 1)).filter((_, i) => i % 4 === 0));
    assert.ok(texts.size > 250, `${texts.size} files`);
    for (const ext of ['.js', '.ts', '.json', '.md']) assert.ok([...texts.keys()].some((f) => f.endsWith(ext)), `some ${ext} file`);
    assert.deepEqual(differences(texts, library, fused), []);
  });

  test('gives the library ids on random strings of troublesome characters', () => {
    assert.deepEqual(differences(labelled(randomTexts(3000, 1), 'random'), library, fused), []);
  });

  test('stops at the limit with the library ids cut there', () => {
    const text = [...repositoryTexts().values()].find((t) => t.length > 20_000)!;
    const all = library(text);
    for (const limit of [0, 1, 2, 7, 100, 1000, all.length - 1, all.length, all.length + 1]) assert.deepEqual(fused(text, limit), all.slice(0, limit), `limit ${limit}`);
    const snow = '☃☃ x '.repeat(50);
    for (let limit = 0; limit < 20; limit++) assert.deepEqual(fused(snow, limit), library(snow).slice(0, limit), `unknown runs, limit ${limit}`);
  });

  test('the encoder takes it, and its ids (all that its vectors depend on) are the library ids, clipped and cut', () => {
    const encoder = new StaticEncoder({ modelDir: dir, dim: 1, table: new Float32Array(38_224) });
    assert.ok((encoder as unknown as { fused: unknown }).fused, 'the encoder uses the fused path');
    const long = 'word '.repeat(9000) + '☃'.repeat(40);
    const huge = 'x'.repeat(MAX_CHARS + 10);
    for (const text of [...EDGE_CASES, long, huge, ...[...repositoryTexts().values()].slice(0, 50)]) {
      assert.deepEqual(encoder.tokenIds(text), library(clipText(text)).slice(0, 8192), JSON.stringify(text.slice(0, 40)));
    }
  });
});

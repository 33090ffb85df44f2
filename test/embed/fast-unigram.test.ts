// The Unigram tokenizer set up without the library's character trie must give exactly the library's ids.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import { tokenizerFrom } from '../../src/embed/runtime/fast-unigram.js';
import { readTokenizerFile } from '../../src/embed/runtime/tokenizer-sidecar.js';
import { PROJECT_ROOT } from '../helpers.js';
import { CODE_SNIPPETS, sharedDefaultModel } from './helpers.js';
import { EDGE_CASES } from './token-corpus.js';

function sourceTexts(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(ts|sh|md)$/.test(e.name)) out.push(fs.readFileSync(full, 'utf8'));
    }
  };
  for (const dir of ['src', 'fixtures', 'docs']) walk(path.join(PROJECT_ROOT, dir));
  return out;
}

test('the fast Unigram set-up tokenizes exactly as the library: code, prose, odd characters', async () => {
  const dir = await sharedDefaultModel();
  const json = () => JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const library = new Tokenizer(json(), config);
  const fast = tokenizerFrom(json(), config);
  assert.ok(!('root' in (fast.model as unknown as { trie: object }).trie), 'the fast set-up was taken, not the fallback');
  const odd = ['', ' ', 'naïve café', '数据库连接池', 'emoji 🎉🚀 done', 'e\u0301 combining', 'tab\tnew\nline', '\u0000nul', 'ＦＵＬＬ ｗｉｄｔｈ', 'snake_case_and_CamelCase HTTPServer x86_64'];
  const texts = [...odd, ...EDGE_CASES, ...Object.values(CODE_SNIPPETS), ...sourceTexts()];
  assert.ok(texts.length > 100);
  for (const text of texts) {
    assert.deepEqual(fast.encode(text, { add_special_tokens: true }).ids, library.encode(text, { add_special_tokens: true }).ids, text.slice(0, 80));
  }
});

test('set up from the vocabulary sidecar, before and after its CJK tail is split: the library ids, pieces and decoding', async () => {
  const dir = await sharedDefaultModel();
  const file = path.join(dir, 'tokenizer.json');
  const config = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const library = new Tokenizer(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, config);
  readTokenizerFile(file);
  const { json, columns } = readTokenizerFile(file);
  assert.ok(columns && columns.head.length < columns.scores.length, 'read from the sidecar, the CJK tail left whole');
  let splits = 0;
  const lazy = tokenizerFrom(json, config, { ...columns, all: () => (splits++, columns.all()) });
  const ascii = 'snake_case_and_CamelCase HTTPServer x86_64';
  assert.deepEqual(lazy.encode(ascii, { add_special_tokens: true }).ids, library.encode(ascii, { add_special_tokens: true }).ids);
  assert.equal(splits, 0, 'set up and text without a CJK character: the tail is never split');
  const fast = tokenizerFrom(json, config, columns);
  const texts = ['snake_case_and_CamelCase HTTPServer x86_64', ...Object.values(CODE_SNIPPETS), '数据库连接池 pool', 'emoji 🎉🚀 done', ...EDGE_CASES];
  for (const text of texts) {
    const ids = library.encode(text, { add_special_tokens: true }).ids;
    assert.deepEqual(fast.encode(text, { add_special_tokens: true }).ids, ids, text.slice(0, 80));
    if (ids.length) assert.equal(fast.decode(ids), library.decode(ids), text.slice(0, 80));
  }
  const fresh = tokenizerFrom(json, config, columns);
  const cjk: number[] = library.encode("数据库连接池", { add_special_tokens: false }).ids;
  assert.deepEqual(cjk.map((id) => fresh.id_to_token(id)), cjk.map((id) => library.id_to_token(id)), 'a CJK piece by id before any CJK text was tokenized');
});

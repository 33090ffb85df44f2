// The fused tokenizer path's parts, and its exactness where the default model never goes: a vocabulary without the
// word-boundary piece (unknown runs then fuse across words, as the library's `fuse_unk` fuses them), a normaliser
// that makes the unknown token's character, and tokenizers it must leave to the library.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import { unigramTokenizerJson, type ScoredPiece } from '../../src/embed/runtime/code-tokenizer.js';
import { tokenizerFrom } from '../../src/embed/runtime/fast-unigram.js';
import { fusedTokenIds } from '../../src/embed/runtime/fused-tokenizer.js';
import { PieceTable } from '../../src/embed/runtime/unigram-lattice.js';
import { OTHER, SPACE, UNIT_CLASS, WORD } from '../../src/embed/runtime/word-split.js';
import { WordMemo, wordHash } from '../../src/embed/runtime/word-memo.js';
import { EDGE_CASES } from './token-corpus.js';
import { randomTexts } from './token-fuzz.js';

type Json = Record<string, unknown>;

/** A small Unigram vocabulary in the default model's pipeline: no `▁` alone, and pieces that only fusion can reach. */
function smallJson(extra: ScoredPiece[] = []): Json {
  const pieces: ScoredPiece[] = [
    ['\uFFFD', 0], ['▁parse', -3], ['▁http', -4], ['▁server', -4], ['▁get', -3], ['▁x', -5], ['parse', -6], ['a', -5], ['z', -5],
    ['9', -5], ['.', -4], ['(', -5], ['-', -5], ['▁a', -4], ['▁z', -4], ['s', -6], ['e', -6], ['r', -6], ['数据', -5], ['库', -6],
    ['▁☃▁☃', -2], // unknown "▁", "☃", "▁", "☃" fuse into this piece's text: the library then gives its id
    ...extra,
  ];
  return unigramTokenizerJson(pieces, 0) as Json;
}

function assertSame(json: Json, texts: string[], config: Json = {}): void {
  const library = new Tokenizer(structuredClone(json), config);
  const fused = fusedTokenIds(tokenizerFrom(structuredClone(json), config), json);
  assert.ok(fused, 'the fused path takes this tokenizer');
  for (const text of texts) assert.deepEqual(fused(text, Infinity), library.encode(text, { add_special_tokens: true }).ids, JSON.stringify(text));
}

describe('the fused tokenizer path where the default model never goes', () => {
  test('unknown runs fuse across words as the library fuses them, into a vocabulary piece when they spell one', () => {
    const texts = ['☃ ☃', '☃☃ ☃ x ☃', 'parse ☃ ☃ parse', 'a☃ ☃z', '▁☃ ☃', '☃\uFFFD☃', ...EDGE_CASES, ...randomTexts(2000, 2)];
    assertSame(smallJson(), texts);
    const library = new Tokenizer(smallJson(), {});
    assert.deepEqual(library.encode('☃ ☃').ids, [20], 'the library fuses four unknown tokens over two words into ▁☃▁☃');
  });

  test('a run that starts with the unknown token itself takes no more tokens, as in the library', () => {
    const json = smallJson([['▁', -8]]);
    json.normalizer = { type: 'Replace', pattern: { String: 'Q' }, content: '\uFFFD' };
    assertSame(json, ['Q☃☃', 'aQ☃ Q', 'Q', 'QQ', '☃Q☃', ...randomTexts(1000, 3).map((t) => t.replaceAll('a', 'Q'))]);
    const library = new Tokenizer(structuredClone(json), {});
    assert.deepEqual(library.encode('Q☃☃').ids, [21, 0], '▁ then the unknown token; the snowmen after it vanish');
  });

  test('a second added token cuts the text too, and a section the normaliser turns into one gives its id', () => {
    const json = smallJson();
    (json.added_tokens as Json[]).push({ id: 21, content: '§', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
    json.normalizer = { type: 'Replace', pattern: { String: 'Q' }, content: '§' };
    assertSame(json, ['Q', 'Q§Q', 'xQx', '§', '§§ a§z ☃§☃', ...randomTexts(500, 5).map((t) => t.replaceAll('a', '§').replaceAll('z', 'Q'))]);
    assert.deepEqual(new Tokenizer(structuredClone(json), {}).encode('Q').ids, [21]);
  });

  test('is not taken for tokenizers of another shape, which keep the library', () => {
    const variants: [string, (json: Json) => void][] = [
      ['another pre-tokenizer', (j) => (j.pre_tokenizer = { type: 'Whitespace' })],
      ['Metaspace prepending only first', (j) => (j.pre_tokenizer = { type: 'Sequence', pretokenizers: [{ type: 'Whitespace' }, { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first' }] })],
      ['a post-processor', (j) => (j.post_processor = { type: 'BertProcessing', sep: ['[SEP]', 1], cls: ['[CLS]', 2] })],
      ['an added token that strips', (j) => ((j.added_tokens as Json[])[0].lstrip = true)],
      ['a normalised added token', (j) => ((j.added_tokens as Json[])[0].normalized = true)],
      ['an added token of two characters', (j) => (j.added_tokens as Json[]).push({ id: 1, content: '▁parse', special: true, normalized: false })],
      ['a WordPiece model', (j) => (j.model = { type: 'WordPiece', vocab: { '[UNK]': 0, a: 1 }, unk_token: '[UNK]' })],
    ];
    for (const [what, change] of variants) {
      const json = smallJson();
      change(json);
      assert.equal(fusedTokenIds(tokenizerFrom(structuredClone(json), {}), json), null, what);
    }
    const json = smallJson();
    assert.equal(fusedTokenIds(tokenizerFrom(structuredClone(json), { remove_space: true }), json), null, 'remove_space');
  });
});

describe('word-split', () => {
  test('classes every UTF-16 unit as the Whitespace pre-tokenizer regex does', () => {
    for (let unit = 0; unit < 0x10000; unit++) {
      const ch = String.fromCharCode(unit);
      const expected = /\w/.test(ch) ? WORD : /\s/.test(ch) ? SPACE : OTHER;
      assert.equal(UNIT_CLASS[unit], expected, `U+${unit.toString(16)}`);
    }
  });
});

describe('WordMemo', () => {
  test('finds words in place, through collisions, growth and a restart at its limit', () => {
    const memo = new WordMemo<number>(5000);
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const text = ` ${words.join(' ')} `;
    const at = (i: number) => text.indexOf(` ${words[i]} `) + 1;
    words.forEach((w, i) => {
      assert.equal(memo.find(text, at(i), at(i) + w.length, wordHash(w)), undefined);
      memo.add(w, wordHash(w), i);
    });
    words.forEach((w, i) => assert.equal(memo.find(text, at(i), at(i) + w.length, wordHash(w)), i, w));
    assert.equal(memo.find('zz w12 zz', 3, 6, wordHash('w12')), 12, 'in any text');
    assert.equal(memo.find(text, at(12), at(12) + 2, wordHash('w1')), 1, 'a prefix is found as the word it spells');
    assert.equal(memo.find(text, at(12), at(12) + 3, wordHash('w1')), undefined, 'a slice under another word\'s hash is not that word');
    assert.equal(memo.find('w3000', 0, 5, wordHash('w3000')), undefined);
    // The same hash for different words: each still finds its own.
    const same = new WordMemo<string>(10);
    for (const w of ['ab', 'cd', 'ef']) same.add(w, 7, w.toUpperCase());
    assert.deepEqual(['ab', 'cd', 'ef', 'gh'].map((w) => same.find(`x${w}`, 1, 3, 7)), ['AB', 'CD', 'EF', undefined]);
    const small = new WordMemo<number>(3);
    for (const [i, w] of ['a', 'b', 'c', 'd'].entries()) small.add(w, wordHash(w), i);
    assert.deepEqual(['a', 'b', 'c', 'd'].map((w) => small.find(w, 0, 1, wordHash(w))), [undefined, undefined, undefined, 3], 'full: starts again');
  });
});

describe('PieceTable', () => {
  test('finds each piece where a word holds it, and nothing else', () => {
    const pieces = ['▁a', '▁ab', '▁abc', 'b', 'bc', 'x', '😀', '😀x', '\ud83d', '数据', '数据库', 'bc', 'abcdef', 'abcxef', 'abcdxf'];
    const table = new PieceTable(pieces);
    for (const word of ['▁abc😀x数据库', 'zabcdefabcxefabcdxf']) {
      for (let start = 0; start < word.length; start++) {
        for (let end = start + 1; end <= word.length; end++) {
          const slice = word.slice(start, end);
          assert.equal(table.find(word, start, end), pieces.includes(slice) ? slice : null, `${start}..${end} ${JSON.stringify(slice)}`);
        }
      }
    }
    assert.equal(table.longest['▁'.charCodeAt(0)], 4);
    assert.equal(table.longest['\ud83d'.charCodeAt(0)], 3, 'by first unit: a surrogate pair counts its high half');
  });

  test('finds pieces added later, past any number of growths', () => {
    const table = new PieceTable(['▁a']);
    const many = Array.from({ length: 5000 }, (_, i) => `▁w${i}`);
    table.add(['数据']);
    table.add(many);
    assert.equal(table.find('数据', 0, 2), '数据');
    many.forEach((piece) => assert.equal(table.find(`${piece}!`, 0, piece.length), piece));
    assert.equal(table.find('▁w5000', 0, 6), null);
  });
});

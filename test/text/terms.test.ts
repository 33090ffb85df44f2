// Words are scanned by hand: exactly the matches of the regular expression they were taken with before, in order.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { codeTerms, codeTermsLine, forEachWordSpan } from '../../src/text/terms.js';

const WORD = /[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g;

function scanned(text: string): string[] {
  const words: string[] = [];
  forEachWordSpan(text, (start, end) => words.push(text.slice(start, end)));
  return words;
}

function randomTexts(): string[] {
  const alphabet = ['a', 'Z', 'q', '_', '0', '9', '5', ' ', '.', '-', '\n', 'é', 'ß', '解', '析', '😀', '\uD800', '\uDC00', '`', '{', '[', '@', 'À', '\u0000', '\u007f', '\u0080'];
  let seed = 11;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const cases = ['', '_', '__', '123abc', 'abc123', 'a_1_b', '9_x', 'x9_9', 'parseHTTPRequest_v2', '  lead', 'trail  ', 'é_x', 'x\u00e9y'];
  for (let n = 0; n < 3000; n++) cases.push(Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
  for (const file of ['src/text/terms.ts', 'src/search/resident-index.ts', 'README.md']) cases.push(fs.readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8'));
  return cases;
}

test('forEachWordSpan gives the spans of the matches of /[A-Za-z_][A-Za-z0-9_]*|[0-9]+/g', () => {
  for (const text of randomTexts()) assert.deepEqual(scanned(text), [...text.matchAll(WORD)].map((m) => m[0]), JSON.stringify(text.slice(0, 60)));
});

test('codeTerms splits identifiers and keeps every occurrence, in order', () => {
  assert.deepEqual(codeTerms('parseHTTPRequest_v2(x, 42) parse'), ['parsehttprequest_v2', 'parse', 'http', 'request', '42', 'parse']);
  assert.deepEqual(codeTerms('解析参数 a_b'), ['解析', '析参', '参数', 'a_b']);
});

test('codeTermsLine is codeTerms joined by single spaces', () => {
  const cases = [...randomTexts(), '解析参数 a_b', '解 x', 'a 解析', '_ x', 'ab ab AB_ab'];
  for (const text of cases) assert.equal(codeTermsLine(text), codeTerms(text).join(' '), JSON.stringify(text.slice(0, 60)));
});

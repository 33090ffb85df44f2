import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commentWords, isCommentLine } from '../../src/text/comments.js';
import { cjkTerms, hasCjk } from '../../src/text/scripts.js';

describe('comments', () => {
  test('comment and docstring lines, not Rust attributes or code', () => {
    for (const line of ['// note', '  # note', '/* note', ' * note', '"""Docstring.', "'''Docstring."]) assert.ok(isCommentLine(line), line);
    for (const line of ['#[derive(Debug)]', 'let a = 1; // trailing', 'x = "#"']) assert.ok(!isCommentLine(line), line);
  });

  test('English comment words are plain lower-case words; Chinese comments give their bigrams', () => {
    assert.deepEqual(commentWords('// Parses the HTTP_request\nparse(x);\n# a b'), ['parses', 'the', 'http_request']);
    assert.deepEqual(commentWords('// 解析参数 into Args'), ['into', 'args', '解析', '析参', '参数']);
    assert.deepEqual(commentWords('let s = "解析";'), []);
  });
});

test('commentWords reads the comment lines a split into lines finds', () => {
  const bySplit = (text: string) => {
    const out: string[] = [];
    for (const line of text.split('\n')) {
      if (!isCommentLine(line)) continue;
      for (const word of line.toLowerCase().split(/[^a-z0-9_]+/)) if (word.length > 1) out.push(word);
      if (hasCjk(line)) out.push(...cjkTerms(line));
    }
    return out;
  };
  const pieces = ['//', '#', '#[', '[', '/*', '*', '"""', "'''", ' ', '\t', '\r', '\n', '\n', 'word', 'Two_W', '解析', '\u2028', 'x9', '"', "'"];
  let seed = 5;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let n = 0; n < 3000; n++) {
    const text = Array.from({ length: Math.floor(random() * 25) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    assert.deepEqual(commentWords(text), bySplit(text), JSON.stringify(text));
  }
});

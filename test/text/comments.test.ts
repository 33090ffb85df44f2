import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { commentWords, isCommentLine } from '../../src/text/comments.js';

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

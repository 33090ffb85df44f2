// Which chunks are members (search/members.ts): inside another chunk of their blob whose breadcrumb they extend.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memberIndices } from '../../src/search/members.js';
import type { ChunkInfo } from '../../src/store/contract.js';

function chunk(startLine: number, endLine: number, symbol: string): ChunkInfo {
  return { id: `${startLine}-${endLine}`, blob: 'b', startLine, endLine, language: 'java', symbol, text: '' };
}

test('members of a class kept whole, at any depth, whatever order the rows come in', () => {
  const info = [
    chunk(8, 10, 'class Engine > constructor Engine'),
    chunk(3, 26, 'class Engine'),
    chunk(22, 25, 'class Engine > class Stats'),
    chunk(24, 24, 'class Engine > class Stats > method record'),
    chunk(1, 1, ''),
    chunk(28, 30, 'function helper'),
  ];
  assert.deepEqual(memberIndices(info, [0, 1, 2, 3, 4, 5]).sort(), [0, 2, 3]);
});

test('windows, a split class\'s pieces and code without a breadcrumb are never members', () => {
  const windows = [chunk(1, 60, 'function long'), chunk(51, 110, 'function long'), chunk(101, 130, 'function long')];
  assert.deepEqual(memberIndices(windows, [0, 1, 2]), []);
  const split = [chunk(1, 2, 'class Big'), chunk(3, 40, 'class Big > method a'), chunk(41, 90, 'class Big > method b')];
  assert.deepEqual(memberIndices(split, [0, 1, 2]), [], 'side by side, not inside');
  const plain = [chunk(1, 20, ''), chunk(5, 6, 'function inner')];
  assert.deepEqual(memberIndices(plain, [0, 1]), [], 'a chunk without a breadcrumb holds no members');
  const unrelated = [chunk(1, 20, 'class A'), chunk(5, 6, 'class B > method m')];
  assert.deepEqual(memberIndices(unrelated, [0, 1]), [], 'inside by lines but not by breadcrumb');
});

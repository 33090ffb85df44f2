import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStatus } from '../../src/git/status.js';

test('an untracked file in any node_modules folder is no change; every other record is, node_modules or not', () => {
  const records = [
    '?? node_modules/pkg/index.js',
    '?? web/node_modules/pkg/index.js',
    '?? src/new.ts',
    '?? node_modules_old/keep.js',
    '?? mynode_modules/keep.js',
    '?? docs/node_modules',
    ' M vendor/node_modules/kept/index.js',
    'A  node_modules/staged.js',
    ' D node_modules/gone.js',
  ];
  const out = parseStatus(Buffer.from(records.map((r) => `${r}\0`).join(''), 'latin1'));
  assert.deepEqual(out, [
    { path: 'src/new.ts', deleted: false },
    { path: 'node_modules_old/keep.js', deleted: false },
    { path: 'mynode_modules/keep.js', deleted: false },
    { path: 'docs/node_modules', deleted: false },
    { path: 'vendor/node_modules/kept/index.js', deleted: false },
    { path: 'node_modules/staged.js', deleted: false },
    { path: 'node_modules/gone.js', deleted: true },
  ]);
});

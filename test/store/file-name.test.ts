import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileNameFor } from '../../src/store/file-name.js';
import { manifestKey } from '../../src/store/manifest.js';

test('a short name is kept as it always was; a long one is cut, ends in its hash, and stays its own', () => {
  assert.equal(manifestKey('feature/x', 'c0ffee'), 'branch-feature%2Fx');
  assert.equal(manifestKey(null, 'c0ffee'), 'detached-c0ffee');
  const deep = Array(12).fill('feature-branch-part').join('/');
  const chinese = '修复用户登录时密码校验失败并且会话过期后无法重新连接的问题以及日志';
  for (const name of [deep, chinese, 'ü'.repeat(120)]) {
    const key = manifestKey(name, 'c0ffee');
    assert.ok(Buffer.byteLength(`${key}.json.4194304.1796635859935.tmp`) <= 255, key);
    assert.match(key, /^branch-[^+]*\+[0-9a-f]{16}$/);
    assert.doesNotMatch(key, /%[0-9A-F]?\+/, 'no escape cut in half');
    assert.equal(manifestKey(name, 'other'), key, 'the same name, the same file');
    assert.notEqual(manifestKey(`${name}2`, 'c0ffee'), key);
  }
  assert.equal(fileNameFor('', 'notes'), 'notes');
  // Every name that fit before names were cut still names the same file (its index is not lost).
  const longest = `${'a'.repeat(200)}/${'b'.repeat(14)}`;
  assert.equal(manifestKey(longest, 'c0ffee'), `branch-${encodeURIComponent(longest)}`);
  assert.equal(Buffer.byteLength(`${manifestKey(longest, 'c0ffee')}.json.4194304.1796635859935.tmp`), 255);
  assert.match(manifestKey(`${longest}b`, 'c0ffee'), /\+[0-9a-f]{16}$/, 'one byte more is cut');
});

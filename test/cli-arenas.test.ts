import assert from 'node:assert/strict';
import { test } from 'node:test';
import { restartsWithArenas } from '../src/cli/arenas.js';

// That the restarted run reports its end the way its child ended (exit code, or SIGKILL) is what the crash tests
// (test/robustness/crash.test.ts) see: every `ocrag index` there is the restarted one.
test('only an index run on Linux without a MALLOC_ARENA_MAX of its own starts again with two arenas', () => {
  assert.equal(restartsWithArenas('index', {}, 'linux'), true);
  assert.equal(restartsWithArenas('index', { MALLOC_ARENA_MAX: '8' }, 'linux'), false, "the user's value is kept, and the restarted run does not restart");
  assert.equal(restartsWithArenas('index', {}, 'darwin'), false, 'other allocators ignore it');
  assert.equal(restartsWithArenas('search', {}, 'linux'), false, 'short commands start once');
  assert.equal(restartsWithArenas(null, {}, 'linux'), false);
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { restartsWithArenas } from '../src/cli/arenas.js';
import { CLI, runCommand, tempDir } from './helpers.js';

// That the restarted run reports its end the way its child ended (exit code, or SIGKILL) is what the crash tests
// (test/robustness/crash.test.ts) see: every `ocrag index` there is the restarted one.
test('only an index run on Linux without a MALLOC_ARENA_MAX of its own starts again with two arenas', () => {
  assert.equal(restartsWithArenas('index', {}, 'linux'), true);
  assert.equal(restartsWithArenas('index', { MALLOC_ARENA_MAX: '8' }, 'linux'), false, "the user's value is kept, and the restarted run does not restart");
  assert.equal(restartsWithArenas('index', {}, 'darwin'), false, 'other allocators ignore it');
  assert.equal(restartsWithArenas('search', {}, 'linux'), false, 'short commands start once');
  assert.equal(restartsWithArenas(null, {}, 'linux'), false);
});

/**
 * Each process of an `ocrag` run, as it starts: its MALLOC_ARENA_MAX. A module Node preloads (`--import`, which the
 * restart passes on as it passes every Node flag) writes one line per process, so the restart is seen from outside.
 */
async function arenasOfEachProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; processes: string[] }> {
  const dir = tempDir('arenas');
  const log = path.join(dir, 'arenas.log');
  const preload = path.join(dir, 'log-arenas.mjs');
  fs.writeFileSync(preload, `import fs from 'node:fs';\nfs.appendFileSync(${JSON.stringify(log)}, (process.env.MALLOC_ARENA_MAX ?? 'unset') + '\\n');\n`);
  const r = await runCommand(process.execPath, ['--import', pathToFileURL(preload).href, CLI, ...args], dir, env);
  return { code: r.code, stdout: r.stdout, processes: fs.readFileSync(log, 'utf8').trim().split('\n') };
}

test('ocrag index on Linux runs in a child with MALLOC_ARENA_MAX=2, whose output and exit code are the run\'s', { skip: process.platform !== 'linux', timeout: 60_000 }, async () => {
  const help = await arenasOfEachProcess(['index', '--help'], { MALLOC_ARENA_MAX: undefined });
  assert.deepEqual(help.processes, ['unset', '2'], 'the program, then its restart with two arenas');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: ocrag index/, "the child's output goes straight to the caller's");
  const usage = await arenasOfEachProcess(['index', '--no-such-option'], { MALLOC_ARENA_MAX: undefined });
  assert.deepEqual(usage.processes, ['unset', '2']);
  assert.equal(usage.code, 2, "the child's exit code (bad usage) is the run's");
  assert.deepEqual((await arenasOfEachProcess(['index', '--help'], { MALLOC_ARENA_MAX: '8' })).processes, ['8'], "the user's own value: one process");
  assert.deepEqual((await arenasOfEachProcess(['search', '--help'], { MALLOC_ARENA_MAX: undefined })).processes, ['unset'], 'other commands: one process');
});

import { spawn } from 'node:child_process';
import { environment, ownChildEnv } from '../workspace/environment.js';
import { commandOf } from './command-table.js';

/**
 * glibc gives each thread that frees memory a pool (arena) of its own and keeps what was freed in it. LanceDB's
 * compaction and index builds run on many threads, so their peaks stack: a 50,000-file index peaked at 1,042 MiB,
 * and at 780 MiB with two pools (`MALLOC_ARENA_MAX=2`; 106 s instead of 87 s on that run). glibc reads the setting
 * only when a process starts, so an `index` run on Linux starts itself again with it. A value the user set is kept.
 */
const ARENAS = '2';
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function restartsWithArenas(command: string | null, env: NodeJS.ProcessEnv = environment(), platform: string = process.platform): boolean {
  return platform === 'linux' && command === 'index' && env.MALLOC_ARENA_MAX === undefined;
}

/**
 * The exit code of this command line run again with the setting, when it is one to restart (`restartsWithArenas`);
 * null: run it here. Asked before the program loads (commander, the command's modules): the process that only
 * waits for its child stays small and starts fast.
 */
export async function runAgainWithArenas(argv: string[]): Promise<number | null> {
  return restartsWithArenas(commandOf(argv.slice(2))) ? runWithArenas() : null;
}

/**
 * Runs this same command line in a child with the setting, its output straight to this process's streams.
 * Resolves with the child's exit code; when the child died of a signal, this process dies of the same one (a run
 * killed by SIGKILL looks killed to whoever started it). Null when the child could not be started: run here.
 */
export function runWithArenas(): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: 'inherit',
      env: ownChildEnv({ MALLOC_ARENA_MAX: ARENAS }),
    });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of FORWARDED) process.on(signal, forward);
    const done = () => {
      for (const signal of FORWARDED) process.off(signal, forward);
    };
    child.once('error', () => {
      done();
      resolve(null);
    });
    child.once('exit', (code, signal) => {
      done();
      if (signal) process.kill(process.pid, signal);
      else resolve(code ?? 1);
    });
  });
}

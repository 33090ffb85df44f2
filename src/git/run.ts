import type * as ChildProcesses from 'node:child_process';
import { createRequire } from 'node:module';
import { childEnv } from '../config/environment.js';
import { OcragError } from '../util/errors.js';

/**
 * Node's child_process module, loaded when git first runs: a search a running server answers finds its repository
 * without git (session/warm/client.ts), and loading the module was ~3 ms of its start (issue 31).
 */
let childProcesses: typeof ChildProcesses | undefined;

function spawnGit(args: string[], cwd: string): ChildProcesses.ChildProcessWithoutNullStreams {
  childProcesses ??= createRequire(import.meta.url)('node:child_process') as typeof ChildProcesses;
  return childProcesses.spawn('git', args, { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: gitEnv() });
}

/** A git command that failed; `stderr` keeps git's own words for the one-line error. */
export class GitError extends Error {
  constructor(readonly args: string[], readonly code: number | null, readonly stderr: string) {
    super(stderr.trim().split('\n')[0] || `git ${args[0]} failed (exit ${code})`);
  }
}

/**
 * Git needed an object a partial clone never fetched (`--filter=tree:0` cloned with `--no-checkout`): it would
 * download it, and ocrag never does (see gitEnv).
 */
export class NotFetchedError extends OcragError {
  constructor() {
    super('git needs objects this partial clone never fetched, and ocrag reads only what the clone holds: run "git checkout" to fetch the checked-out commit, then run ocrag again', 'no-workspace');
  }
}

/** Git's words when it would have fetched a missing object and was not allowed to. */
export const LAZY_FETCH_REFUSED = /could not fetch ([0-9a-f]+) from promisor remote/;

export interface GitRunOptions {
  cwd: string;
  /** Bytes written to git's stdin. */
  input?: string | Buffer;
  /** Exit codes that are answers, not failures (e.g. 1 for `rev-parse --verify -q`). */
  okCodes?: number[];
  /** Reads at most about this many bytes of stdout, then stops git and answers with what it read. */
  maxBytes?: number;
}

/** Runs git without a shell (arguments are never interpreted) and returns stdout as bytes. */
export function gitBuffer(args: string[], opts: GitRunOptions): Promise<{ stdout: Buffer; code: number }> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, opts.cwd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let cut = false;
    child.stdout.on('data', (b: Buffer) => {
      if (cut) return;
      out.push(b);
      size += b.length;
      if (opts.maxBytes === undefined || size < opts.maxBytes) return;
      cut = true;
      child.kill();
    });
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new GitError(args, null, `could not run git: ${e.message}`)));
    child.on('close', (code) => {
      const ok = cut || code === 0 || (code !== null && opts.okCodes?.includes(code));
      if (ok) resolve({ stdout: Buffer.concat(out), code: code ?? 0 });
      else {
        const stderr = Buffer.concat(err).toString('utf8');
        reject(LAZY_FETCH_REFUSED.test(stderr) ? new NotFetchedError() : new GitError(args, code, stderr));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs git and returns stdout as text with the final newline removed. */
export async function git(args: string[], opts: GitRunOptions): Promise<string> {
  const { stdout } = await gitBuffer(args, opts);
  return stdout.toString('utf8').replace(/\n$/, '');
}

/**
 * Environment for child gits: never page, never prompt, stable output, and never the network. A partial clone
 * fetches an object it lacks from its remote as soon as any command reads it (a `git grep` over a sparse clone's
 * tree once downloaded every blob outside the cone, one fetch each); ocrag reads only what the clone holds. Git
 * 2.44 has a switch for it (GIT_NO_LAZY_FETCH); before it, an empty protocol allow-list makes any fetch fail at
 * once ("transport 'file' not allowed"), and ocrag runs no git command that needs the network.
 */
export function gitEnv(): NodeJS.ProcessEnv {
  return childEnv({ GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_NO_LAZY_FETCH: '1', GIT_ALLOW_PROTOCOL: '' });
}

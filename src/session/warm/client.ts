import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../../config/config.js';
import { gitDiscoveryOverridden, searchEnvironment, warmPathRefused } from '../../config/environment.js';
import { NotInRepositoryError, openRepo } from '../../git/repo.js';
import type { SearchResult } from '../../search/search.js';
import type { SearchQuery } from '../../service/asked-search.js';
import { findIndexedFolder, folderLayout, indexLayout } from '../../store/layout.js';
import { testSeams } from '../../util/test-seams.js';
import { MAX_REQUEST_BYTES, seamsKey, type WarmReply, type WarmRequest } from './protocol.js';
import { warmPossible, warmServers, warmVersion, type WarmServer } from './place.js';

/** A live server answers its socket at once; one that does not within this is taken as gone (~200 ms, issue 31). */
const CONNECT_TIMEOUT_MS = 200;
/**
 * How long an answer may take once asked: a search that first brings the index up to HEAD takes as long as that
 * run. Past this the CLI answers itself rather than wait on a server that hangs.
 */
const ANSWER_TIMEOUT_MS = 120_000;

export interface WarmAsk {
  cwd: string;
  query: string;
  options: SearchQuery;
  flags: Partial<Config>;
}

/**
 * A running server's answer to a one-shot search, or null: no server, not ours, another build, settings or flags,
 * a stale socket, a timeout, or any failure at all. Null is silent: the caller answers in its own process.
 */
export async function askWarmServer(ask: WarmAsk): Promise<{ results: SearchResult[]; notices: string[]; pid: number } | null> {
  const answer = await askFirst(ask).catch((e: unknown) => ({ cold: `failed: ${(e as Error)?.message ?? String(e)}` }));
  trace('cold' in answer ? `cold ${answer.cold}` : `warm ${answer.pid}`);
  return 'cold' in answer ? null : answer;
}

async function askFirst(ask: WarmAsk): Promise<{ results: SearchResult[]; notices: string[]; pid: number } | { cold: string }> {
  if (warmPathRefused()) return { cold: 'refused by OCRAG_WARM' };
  if (!warmPossible()) return { cold: 'no unix sockets' };
  const place = await placeOf(ask.cwd);
  if (!place) return { cold: 'no index folder' };
  const servers = warmServers(place.indexDir, place.root);
  if (!servers.length) return { cold: 'no server' };
  const request: WarmRequest = { root: place.root, version: warmVersion(), environment: searchEnvironment(), seams: seamsKey(), flags: ask.flags, query: ask.query, options: ask.options };
  const line = `${JSON.stringify(request)}\n`;
  if (Buffer.byteLength(line) > MAX_REQUEST_BYTES) return { cold: 'question too long' };
  let why = 'no server';
  for (const server of servers) {
    const reply = await exchange(server, line);
    if (!reply) why = 'no answer';
    else if (reply.root !== place.root || reply.version !== request.version || reply.pid !== server.pid) why = 'a server of something else';
    else if ('declined' in reply) why = `declined: ${reply.declined}`;
    else if (Array.isArray(reply.results) && Array.isArray(reply.notices)) return { results: reply.results, notices: reply.notices, pid: server.pid };
    else why = 'a malformed answer';
  }
  return { cold: why };
}

/** The root a fresh search here would answer for, and its index folder; null when there is none. */
async function placeOf(cwd: string): Promise<{ root: string; indexDir: string } | null> {
  const found = plainCloneAbove(cwd);
  if (found) return found;
  try {
    const repo = await openRepo(cwd);
    return { root: repo.root, indexDir: indexLayout(repo).dir };
  } catch (e) {
    if (!(e instanceof NotInRepositoryError)) return null;
    const root = findIndexedFolder(cwd);
    return root ? { root, indexDir: folderLayout(root).dir } : null;
  }
}

/**
 * The common case found without starting git (a process start was a fifth of a warm search): the nearest folder up
 * from `cwd` holding a `.git` folder of ours with a HEAD, on the same file system, is the work tree git would name.
 * Anything else (a worktree's or submodule's `.git` file, another owner, a mount crossed, GIT_DIR and the like):
 * null, and git is asked. A root found wrongly could only miss: a server answers only for the root git gave it.
 */
function plainCloneAbove(cwd: string): { root: string; indexDir: string } | null {
  if (gitDiscoveryOverridden()) return null;
  const uid = process.geteuid!();
  let dir: string;
  try {
    dir = fs.realpathSync(cwd);
  } catch {
    return null;
  }
  // The walk stays on the device it starts on (cwd's real path, so its lstat is its stat).
  let device: number | undefined;
  for (;;) {
    const here = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!here || here.dev !== (device ??= here.dev)) return null;
    const dotGit = fs.lstatSync(path.join(dir, '.git'), { throwIfNoEntry: false });
    if (dotGit) {
      const ours = dotGit.isDirectory() && dotGit.uid === uid && here.uid === uid && fs.lstatSync(path.join(dir, '.git', 'HEAD'), { throwIfNoEntry: false })?.isFile();
      return ours ? { root: dir, indexDir: indexLayout({ root: dir, commonDir: path.join(dir, '.git'), mainWorkTree: dir }).dir } : null;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** One question, one answer line; null on any failure. */
function exchange(server: WarmServer, line: string): Promise<WarmReply | null> {
  return new Promise((resolve) => {
    let received = '';
    let settled = false;
    const conn = net.createConnection(server.socket);
    const finish = (reply: WarmReply | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(reply);
    };
    let timer = setTimeout(() => finish(null), CONNECT_TIMEOUT_MS);
    conn.setEncoding('utf8');
    conn.on('error', () => finish(null));
    conn.on('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(null), ANSWER_TIMEOUT_MS);
      conn.write(line);
    });
    conn.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\n');
      if (end >= 0) finish(parseReply(received.slice(0, end)));
    });
    conn.on('end', () => finish(null));
  });
}

function parseReply(line: string): WarmReply | null {
  try {
    const reply = JSON.parse(line) as WarmReply;
    return reply && typeof reply === 'object' ? reply : null;
  } catch {
    return null;
  }
}

/** Tests see which path answered (test-seams.ts `warmTrace`). */
function trace(line: string): void {
  const file = testSeams().warmTrace;
  if (file) fs.appendFileSync(file, `${line}\n`);
}

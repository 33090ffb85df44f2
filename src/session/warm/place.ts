import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processState } from '../../util/process-state.js';
import { readRegularFile } from '../../util/read-regular.js';
import { VERSION } from '../../util/version.js';

/**
 * Where a running server of a repository says it listens: `<index folder>/warm/`, a folder of ours alone (0700),
 * holding `<pid>.sock` and `<pid>.json` per server. The work tree is hostile (a tracked `.ocrag/warm/` or a link
 * planted there), so nothing in it is trusted that this user could not have made: every part is lstat'ed (no link
 * is followed), must be owned by us, the folder closed to others, and the socket's path is never read from a record.
 */
export const WARM_FOLDER = 'warm';

/** A Unix socket's path must fit sun_path (108 bytes on Linux, 104 on macOS, with its NUL): longer, no warm path. */
const MAX_SOCKET_PATH = 103;

/** What a server records beside its socket. */
export interface WarmRecord {
  pid: number;
  socket: string;
  version: string;
  root: string;
  /** The model the server's index answers with (its settings' `model`). */
  model: string;
}

/** A server found for a root, to be asked. */
export interface WarmServer {
  pid: number;
  socket: string;
}

let stamp: string | null = null;

/** The bundle's build, which scripts/bundle-cli.mjs writes into every file of it (its two bundles hold this code twice). */
declare const OCRAG_BUNDLE_BUILD: string | undefined;

/**
 * ocrag's version and this build's: the package version alone is the same across every build of a branch, whose
 * search may answer differently. The bundle says its build; else the file holding this code (dist/) tells it.
 */
export function warmVersion(): string {
  if (stamp === null) {
    let build = '';
    try {
      if (typeof OCRAG_BUNDLE_BUILD === 'string') build = `+${OCRAG_BUNDLE_BUILD}`;
      else {
        const stat = fs.statSync(fileURLToPath(import.meta.url));
        build = `+${stat.size}.${Math.floor(stat.mtimeMs)}`;
      }
    } catch {
      // A module not loaded from a file: the version alone.
    }
    stamp = `${VERSION}${build}`;
  }
  return stamp;
}

/** Whether this platform has what the warm path needs: Unix sockets and owners (not Windows). */
export function warmPossible(): boolean {
  return process.platform !== 'win32' && typeof process.geteuid === 'function';
}

/** The warm folder of an index folder, made (0700) when `create`; null when either is not ours as it must be. */
export function ownWarmFolder(indexDir: string, create: boolean): string | null {
  if (!warmPossible() || !isOurs(lstat(indexDir), 'dir')) return null;
  const folder = path.join(indexDir, WARM_FOLDER);
  if (create) {
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return null;
    }
  }
  const stat = lstat(folder);
  return isOurs(stat, 'dir') && (stat!.mode & 0o077) === 0 ? folder : null;
}

export function socketPath(folder: string, pid: number): string | null {
  const socket = path.join(folder, `${pid}.sock`);
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH ? socket : null;
}

export function recordPath(folder: string, pid: number): string {
  return path.join(folder, `${pid}.json`);
}

/** The servers that say they answer for `root` in this build, alive, newest first; none when anything is off. */
export function warmServers(indexDir: string, root: string): WarmServer[] {
  const folder = ownWarmFolder(indexDir, false);
  if (!folder) return [];
  const found: (WarmServer & { at: number })[] = [];
  for (const name of fs.readdirSync(folder)) {
    const pid = Number(/^(\d+)\.json$/.exec(name)?.[1]);
    if (!pid) continue;
    const record = readRecord(recordPath(folder, pid));
    if (!record || record.value.pid !== pid || record.value.root !== root || record.value.version !== warmVersion() || processState(pid) !== 'ours') continue;
    const socket = socketPath(folder, pid);
    if (socket && isOurs(lstat(socket), 'socket')) found.push({ pid, socket, at: record.at });
  }
  return found.sort((a, b) => b.at - a.at).map(({ pid, socket }) => ({ pid, socket }));
}

/** Files in the warm folder left by servers no longer running (a kill -9): a server sweeps them as it starts. */
export function sweepDeadServers(folder: string): void {
  for (const name of fs.readdirSync(folder)) {
    const pid = Number(/^(\d+)\.(json|sock)$/.exec(name)?.[1]);
    if (!pid || pid === process.pid || processState(pid) === 'ours') continue;
    const file = path.join(folder, name);
    if (isOurs(lstat(file), 'any')) fs.rmSync(file, { force: true });
  }
}

/** A record read without following a link, small, ours; null for anything else. */
function readRecord(file: string): { value: WarmRecord; at: number } | null {
  const read = readRegularFile(file, RECORD_BYTES);
  if (!read || !isOurs(read.stat, 'file') || read.bytes.length !== read.size) return null;
  try {
    const value = JSON.parse(read.bytes.toString('utf8')) as WarmRecord;
    return value && typeof value === 'object' ? { value, at: read.stat.mtimeMs } : null;
  } catch {
    return null;
  }
}

/** A server's record is a few hundred bytes: anything past this is not one. */
const RECORD_BYTES = 4096;

function lstat(file: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(file);
  } catch {
    return undefined;
  }
}

function isOurs(stat: fs.Stats | undefined, kind: 'dir' | 'file' | 'socket' | 'any'): boolean {
  if (!stat || stat.uid !== process.geteuid!()) return false;
  if (kind === 'dir') return stat.isDirectory();
  if (kind === 'file') return stat.isFile();
  if (kind === 'socket') return stat.isSocket();
  return stat.isFile() || stat.isSocket();
}

import fs from 'node:fs';
import net from 'node:net';
import type { Config } from '../../config/config.js';
import { searchEnvironment } from '../../config/environment.js';
import type { SearchResult } from '../../search/search.js';
import type { SearchQuery } from '../../service/asked-search.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { flagsKey, MAX_REQUEST_BYTES, parseRequest, seamsKey, type WarmReply } from './protocol.js';
import { ownWarmFolder, recordPath, socketPath, sweepDeadServers, warmVersion, type WarmRecord } from './place.js';

/** A search answered for the CLI, with the notices a fresh run would have printed; null: let the CLI answer itself. */
export type WarmAnswer = (query: string, options: SearchQuery) => Promise<{ results: SearchResult[]; notices: string[] } | null>;

export interface WarmListenOptions {
  /** The folder answered for, exactly as the CLI computes it there (the work tree's top, or the plain folder). */
  root: string;
  /** Its index folder, where the socket goes. */
  indexDir: string;
  /** The flags the server was started with: only a CLI given the same is answered. */
  flags: Partial<Config>;
  model: string;
  answer: WarmAnswer;
  log?: (message: string) => void;
}

export interface WarmListener {
  close(): Promise<void>;
}

/**
 * Lets a one-shot `ocrag search` of this root ask this long-lived process (MCP server, `ocrag watch`, the panel),
 * whose index and model are loaded, instead of loading them again (client.ts). Null when it cannot listen safely
 * (index folder not ours, socket path too long, Windows): the CLI then simply answers itself.
 */
export async function listenWarm(opts: WarmListenOptions): Promise<WarmListener | null> {
  const folder = ownWarmFolder(opts.indexDir, true);
  const socket = folder && socketPath(folder, process.pid);
  if (!folder || !socket) return null;
  sweepDeadServers(folder);
  const record = recordPath(folder, process.pid);
  const remove = () => {
    fs.rmSync(record, { force: true });
    fs.rmSync(socket, { force: true });
  };
  remove();
  const server = net.createServer((conn) => serve(conn, opts));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socket, () => resolve());
    });
  } catch (e) {
    opts.log?.(`ocrag: one-shot searches will not use this process: ${(e as Error).message}`);
    return null;
  }
  // The socket stays private even under a loose umask; the folder (0700) already keeps others out.
  fs.chmodSync(socket, 0o600);
  // A server that lives on only for its clients must not be kept alive by this.
  server.unref();
  const value: WarmRecord = { pid: process.pid, socket, version: warmVersion(), root: opts.root, model: opts.model };
  writeFileAtomic(record, `${JSON.stringify(value)}\n`, { durable: false });
  fs.chmodSync(record, 0o600);
  process.once('exit', remove);
  return {
    close: async () => {
      process.removeListener('exit', remove);
      remove();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function serve(conn: net.Socket, opts: WarmListenOptions): void {
  let buffered = '';
  conn.setEncoding('utf8');
  conn.on('error', () => undefined);
  const onData = (chunk: string) => {
    buffered += chunk;
    const end = buffered.indexOf('\n');
    if (end < 0) {
      if (buffered.length > MAX_REQUEST_BYTES) conn.destroy();
      return;
    }
    conn.off('data', onData);
    void reply(buffered.slice(0, end), opts).then((answer) => conn.end(`${JSON.stringify(answer)}\n`));
  };
  conn.on('data', onData);
}

async function reply(line: string, opts: WarmListenOptions): Promise<WarmReply> {
  const own = { root: opts.root, version: warmVersion(), pid: process.pid };
  const request = parseRequest(line);
  if (!request) return { ...own, declined: 'not a search request' };
  if (request.root !== opts.root) return { ...own, declined: 'another root' };
  if (request.version !== own.version) return { ...own, declined: 'another build' };
  if (request.environment !== searchEnvironment() || request.seams !== seamsKey()) return { ...own, declined: 'another environment' };
  if (flagsKey(request.flags) !== flagsKey(opts.flags)) return { ...own, declined: 'other flags' };
  try {
    const answered = await opts.answer(request.query, request.options);
    return answered ? { ...own, ...answered } : { ...own, declined: 'busy' };
  } catch (e) {
    // The CLI answers itself, and says the failure its own way.
    return { ...own, declined: (e as Error)?.message ?? String(e) };
  }
}

import fs from 'node:fs';
import { deferredCaFile } from './deferred-ca.js';
import { RemoteUnavailableError, OcragError } from './errors.js';

/**
 * How long ocrag waits on a remote (a team store, an artifact's URL), from the environment (README "Remote stores"):
 * - `OCRAG_REMOTE_TIMEOUT_MS` (default 5,000): the longest wait for an answer, and the window in which a download
 *   must bring 16 KiB. 5 s is LanceDB's own connect timeout (object_store's default); a small S3 object answers in
 *   well under a second, so a remote that has said nothing for 5 s is taken for down and a search indexes locally.
 * - `OCRAG_REMOTE_DEADLINE_MS` (default 1,800,000: 30 min): the longest a whole download may take, however it
 *   trickles (a 1 GB artifact takes 100 s at 10 MB/s).
 */
export interface RemoteLimits {
  answerMs: number;
  deadlineMs: number;
  /** The certificates an https request trusts besides Node's own, which the installed command deferred (deferred-ca.ts). */
  caFile?: string | null;
}

/** Less than this in one answer window is a stall: 3.2 KB/s at the default window, slower than any working link. */
const STALL_BYTES = 16 * 1024;
/** A remote that did not answer is not asked again in this process for this long (a long-lived server retries after). */
const DOWN_FOR_MS = 60_000;

export function remoteLimits(env: NodeJS.ProcessEnv): RemoteLimits {
  return { answerMs: limit(env, 'OCRAG_REMOTE_TIMEOUT_MS', 5_000), deadlineMs: limit(env, 'OCRAG_REMOTE_DEADLINE_MS', 1_800_000), caFile: deferredCaFile(env) };
}

function limit(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 86_400_000) throw new OcragError(`${name} must be a whole number of milliseconds from 1 to 86400000, not "${text.slice(0, 40)}"`);
  return value;
}

/** Origins that gave no answer, and when: asked again only after DOWN_FOR_MS. */
const down = new Map<string, { at: number; why: string }>();

const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;

/**
 * fetch with an answer deadline; a failure to connect or to answer in time becomes one RemoteUnavailableError
 * (exit 6) that names `shown`, the place as messages may show it (never the URL itself, which may carry a
 * signature), and the cause. The body is then read with readBody or saveBody, which bound it too.
 */
export async function fetchRemote(url: URL, init: RequestInit, shown: string, limits: RemoteLimits): Promise<Response> {
  const known = down.get(url.origin);
  if (known && Date.now() - known.at < DOWN_FOR_MS) throw new RemoteUnavailableError(`${shown}: unreachable (${known.why}, ${seconds(Date.now() - known.at)} ago)`, true);
  // An upload is answered once it is sent: its wait grows by a window per 16 KiB, the pace a download must keep.
  const sent = init.body instanceof Uint8Array ? init.body.byteLength : 0;
  const answerMs = Math.min(limits.deadlineMs, limits.answerMs * (1 + Math.ceil(sent / STALL_BYTES)));
  // Bounds the wait for the answer only: the body has its own bounds (streamBody), and this signal would cut it.
  const answered = new AbortController();
  const timer = setTimeout(() => answered.abort(), answerMs);
  try {
    return await trustedFetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, answered.signal]) : answered.signal }, limits.caFile ?? null);
  } catch (e) {
    const why = answered.signal.aborted ? `no answer within ${seconds(answerMs)}` : ((e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name);
    down.set(url.origin, { at: Date.now(), why });
    throw new RemoteUnavailableError(`${shown}: unreachable (${why})`, true);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The one door of every https request ocrag makes (a remote store, an artifact's URL, a model pull): Node's fetch,
 * unless the installed command deferred NODE_EXTRA_CA_CERTS to `caFile`; then an https URL is asked through
 * https-request.ts, trusting what Node would have trusted with the variable set (its own roots and the file's).
 * Node 20's fetch takes no certificates of its own. A plain http URL goes that way too: a redirect it follows to
 * https must trust the file as well.
 */
export async function trustedFetch(url: URL, init: RequestInit, caFile: string | null): Promise<Response> {
  if (caFile === null) return fetch(url, init);
  return (await import('./https-request.js')).fetchTrusting(url, init, caFile);
}

/**
 * Reads a response's body chunk by chunk into `sink`, within the limits: at least 16 KiB in every answer window
 * until it ends, and all of it within the deadline. A trickle, a stall or a body that never ends is cut and
 * becomes a RemoteUnavailableError; returns the bytes read.
 */
export async function streamBody(res: Response, shown: string, sink: (chunk: Uint8Array) => Promise<void>, limits: RemoteLimits): Promise<number> {
  if (!res.body) return 0;
  const reader = res.body.getReader();
  let failure: string | null = null;
  let bytes = 0;
  let recent = 0;
  const stop = (why: string) => {
    failure ??= why;
    reader.cancel().catch(() => undefined);
  };
  const window = setInterval(() => {
    if (recent < STALL_BYTES) stop(`stalled: less than 16 KiB in ${seconds(limits.answerMs)}`);
    recent = 0;
  }, limits.answerMs);
  const deadline = setTimeout(() => stop(`not done within ${seconds(limits.deadlineMs)}`), limits.deadlineMs);
  try {
    for (;;) {
      let step: ReadableStreamReadResult<Uint8Array>;
      try {
        step = await reader.read();
      } catch (e) {
        failure ??= (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message;
        break;
      }
      if (failure || step.done) break;
      bytes += step.value.byteLength;
      recent += step.value.byteLength;
      // A failure of the sink (a full disk) is not the remote's: it goes up as it is.
      await sink(step.value).catch((e: unknown) => {
        stop('cancelled');
        throw e;
      });
    }
  } finally {
    clearInterval(window);
    clearTimeout(deadline);
  }
  if (failure) throw new RemoteUnavailableError(`${shown}: ${failure}`, true);
  return bytes;
}

/** A response's whole body, within the limits (identities, manifests, a search set); `maxBytes` cuts it there. */
export async function readBody(res: Response, shown: string, opts: { maxBytes?: number; limits: RemoteLimits }): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  await streamBody(
    res,
    shown,
    async (chunk) => {
      parts.push(chunk);
      size += chunk.byteLength;
      if (size > (opts.maxBytes ?? Infinity)) throw new RemoteUnavailableError(`${shown}: answered more than ${opts.maxBytes} bytes`, false);
    },
    opts.limits,
  );
  return Buffer.concat(parts);
}

/**
 * Streams a response's body into a file, within the limits; returns its size. A download is saved as it is stored:
 * a body the server compressed in transit (`Content-Encoding: gzip`, which fetch unpacks unasked) is refused before
 * a byte is read, since 1 MB of gzip can unpack to 1 GB on the disk.
 */
export async function saveBody(res: Response, file: string, shown: string, limits: RemoteLimits): Promise<number> {
  const encoding = res.headers.get('content-encoding');
  if (encoding && encoding.trim().toLowerCase() !== 'identity') {
    await res.body?.cancel().catch(() => undefined);
    throw new RemoteUnavailableError(`${shown}: answered with Content-Encoding ${encoding.slice(0, 40)}, but a download is taken only as it is stored (ask the server not to compress it)`, false);
  }
  const out = fs.createWriteStream(file);
  let writeError: Error | null = null;
  out.on('error', (e) => (writeError = e));
  const written = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (writeError) return reject(writeError);
      const failed = (e: Error) => (out.off('drain', drained), reject(e));
      const drained = () => (out.off('error', failed), resolve());
      out.once('drain', drained);
      out.once('error', failed);
    });
  try {
    const bytes = await streamBody(
      res,
      shown,
      async (chunk) => {
        if (writeError) throw writeError;
        if (!out.write(chunk)) await written();
      },
      limits,
    );
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    if (writeError) throw writeError;
    return bytes;
  } finally {
    out.destroy();
  }
}

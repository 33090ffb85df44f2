import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RemoteUnavailableError } from './errors.js';

/**
 * fetch, a failure to connect becoming one RemoteUnavailableError (exit 6) that names `shown`, the place as
 * messages may show it (never the URL itself, which may carry a signature), and the cause.
 */
export async function fetchRemote(url: URL, init: RequestInit, shown: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
    throw new RemoteUnavailableError(`${shown}: unreachable (${cause})`, true);
  }
}

/** Streams a response's body into a file. */
export async function saveBody(res: Response, file: string): Promise<void> {
  await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(file));
}

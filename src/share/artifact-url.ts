import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isObjectUrl, openObjectStore } from '../store/object-stores.js';
import { RemoteUnavailableError, OcragError } from '../util/errors.js';
import { environment } from '../config/environment.js';
import { fetchRemote, remoteLimits, saveBody } from '../util/fetch-remote.js';
import { tempFile } from '../util/temp-file.js';

/** `https://…`, an object's URL (`s3://…`, object-stores.ts), and plain `http://` to this machine: an artifact to download before importing. */
export function isArtifactUrl(arg: string): boolean {
  return /^https?:\/\//i.test(arg) || isObjectUrl(arg);
}

/**
 * The URL as messages and summaries show it: no user name or password, no query string (a presigned URL's
 * signature is a credential) and no fragment.
 */
export function shownUrl(url: string): string {
  if (isObjectUrl(url)) return url;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

/** Plain HTTP carries the artifact unauthenticated: only from this machine (a local cache, a test server). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Downloads an artifact to a temporary file, which the caller imports exactly as a file given by path (verified
 * completely before anything is written) and then removes. An object's URL is read as a remote store's objects
 * are (an S3 object with the AWS settings of the environment, signed); an https URL may be presigned. The download
 * is bounded (util/fetch-remote.ts: an answer within OCRAG_REMOTE_TIMEOUT_MS, 16 KiB per such window, all of it
 * within OCRAG_REMOTE_DEADLINE_MS), and the file is removed on every exit, Ctrl-C and SIGTERM included
 * (util/temp-file.ts).
 */
export async function downloadArtifact(url: string): Promise<{ file: string; bytes: number; remove(): void }> {
  const { file, remove } = tempFile(path.join(os.tmpdir(), `ocrag-import-${process.pid}-${randomBytes(4).toString('hex')}.tar`));
  try {
    if (isObjectUrl(url)) await fromObjectStore(url, file);
    else await overHttp(url, file);
  } catch (e) {
    remove();
    throw e;
  }
  return { file, bytes: fs.statSync(file).size, remove };
}

/** The object at the URL's last `/`-separated name, in the store rooted at the rest (`s3://bucket/dir` + `index.tar`). */
async function fromObjectStore(url: string, file: string): Promise<void> {
  const named = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)\/(?:(.*)\/)?([^/]+)$/i.exec(url);
  if (!named) throw new OcragError(`${url} names a bucket or folder, not an artifact: give its path, e.g. s3://bucket/path/to/index.tar`);
  const [, root, dir = '', key] = named;
  if (!(await openObjectStore(`${root}/${dir}`).download(key, file))) throw new RemoteUnavailableError(`no such artifact: ${url}`, false);
}

/** Redirects followed, each checked as the URL given was: an https artifact is never fetched over plain http. */
const MAX_REDIRECTS = 5;

async function overHttp(url: string, file: string): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OcragError(`invalid artifact URL ${shownUrl(url)}`);
  }
  for (let hop = 0; ; hop++) {
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new OcragError(`${shownUrl(url)} leads to ${u.protocol} URL: only https (and http from this machine) is fetched`);
    if (u.protocol === 'http:' && !LOOPBACK.has(u.hostname)) throw new OcragError(`${shownUrl(u.href)}: plain http is accepted only from this machine (127.0.0.1, localhost); use https`);
    const limits = remoteLimits(environment());
    const res = await fetchRemote(u, { redirect: 'manual', headers: { 'accept-encoding': 'identity' } }, shownUrl(url), limits);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location && hop < MAX_REDIRECTS) {
      await res.body?.cancel().catch(() => undefined);
      u = new URL(location, u);
      continue;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new RemoteUnavailableError(`${shownUrl(url)}: answered HTTP ${res.status}${location ? ` after ${MAX_REDIRECTS} redirects` : ''}`, false);
    }
    await saveBody(res, file, shownUrl(url), limits);
    return;
  }
}

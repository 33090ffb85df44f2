import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { OcragError } from '../util/errors.js';
import { testSeams } from '../util/test-seams.js';
import type { ObjectStore } from './object-store.js';

/**
 * One writer at a time on a remote store, by a lease object. LanceDB 0.31 on an S3-compatible server without
 * conditional writes loses commits when two processes append at once: measured against s3rver 3.7, two writers
 * of 20 one-row appends each left 28 rows of 41 (each overwrote the other's version files). So publishers take
 * turns: write the lease with a random token (a conditional put where the store honours it: If-None-Match: * on
 * AWS S3, link() in a folder), wait SETTLE_MS, read it back; the token still there means this writer holds it. A
 * second writer that read no lease before the first wrote it would have to take longer than SETTLE_MS between its
 * read and its write to break this, where the two follow each other within milliseconds. A lease whose holder
 * died expires after TTL_MS; the holder renews it every RENEW_MS.
 */
// The test seam `leaseSettleMs` shortens it where every publisher runs on one machine, one after another (the scale bench).
const SETTLE_MS = 1500;
const TTL_MS = 10 * 60_000;
const RENEW_MS = 60_000;
const LEASE_KEY = 'publish.lease';

interface LeaseBody {
  token: string;
  holder: string;
  expiresAt: string;
}

export interface Lease {
  release(): Promise<void>;
}

export async function acquireLease(objects: ObjectStore, opts: { waitMs?: number; settleMs?: number; onWait?: (holder: string) => void } = {}): Promise<Lease> {
  const token = randomBytes(16).toString('hex');
  const deadline = Date.now() + (opts.waitMs ?? 15 * 60_000);
  const settle = opts.settleMs ?? (testSeams().leaseSettleMs || SETTLE_MS);
  let told = false;
  for (;;) {
    const current = await readLease(objects);
    if (current && Date.parse(current.expiresAt) > Date.now()) {
      if (!told) opts.onWait?.(current.holder);
      told = true;
      if (Date.now() > deadline) throw new OcragError(`the remote store ${objects.shown()} is being published by ${current.holder}; gave up waiting`);
      await sleep(300 + Math.random() * 700);
      continue;
    }
    if (current) await objects.delete(LEASE_KEY);
    if (!(await objects.put(LEASE_KEY, body(token), { ifAbsent: true }))) continue;
    await sleep(settle);
    if ((await readLease(objects))?.token !== token) continue;
    return held(objects, token);
  }
}

function held(objects: ObjectStore, token: string): Lease {
  const renew = setInterval(() => void objects.put(LEASE_KEY, body(token)).catch(() => undefined), RENEW_MS);
  renew.unref();
  return {
    async release() {
      clearInterval(renew);
      if ((await readLease(objects))?.token === token) await objects.delete(LEASE_KEY);
    },
  };
}

function body(token: string): string {
  const lease: LeaseBody = { token, holder: `${os.hostname()} pid ${process.pid}`, expiresAt: new Date(Date.now() + TTL_MS).toISOString() };
  return JSON.stringify(lease);
}

async function readLease(objects: ObjectStore): Promise<LeaseBody | null> {
  const bytes = await objects.get(LEASE_KEY);
  if (!bytes) return null;
  try {
    const lease = JSON.parse(bytes.toString('utf8')) as LeaseBody;
    return typeof lease.token === 'string' && typeof lease.expiresAt === 'string' ? lease : null;
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

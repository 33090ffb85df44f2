import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { isObjectId } from './object-id.js';
import { gitEnv, GitError, LAZY_FETCH_REFUSED } from './run.js';

interface Pending {
  sha: string;
  resolve: (b: Buffer | null) => void;
  reject: (e: Error) => void;
}

/**
 * Reads blobs through one long-lived `git cat-file --batch` process: one spawn for
 * thousands of blobs (measured far faster than a process or a pack lookup per blob).
 */
export class BlobReader {
  private child!: ChildProcessWithoutNullStreams;
  private queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  /** Data received but not yet joined to `buffer`, and how many bytes `buffer` must hold before parsing can go on. */
  private arrived: Buffer[] = [];
  private arrivedBytes = 0;
  private wanted = 0;
  private failed: Error | null = null;
  /** Settles once the current git has exited and its pipes are closed. */
  private closed!: Promise<void>;

  constructor(private readonly root: string) {
    this.start();
  }

  private start(): void {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.root, env: gitEnv() });
    this.child = child;
    // A git that never started ('error') has nothing to close.
    this.closed = new Promise((resolve) => {
      child.once('close', () => resolve());
      child.once('error', () => resolve());
    });
    child.stdout.on('data', (b: Buffer) => this.onData(b));
    const stderr: Buffer[] = [];
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    child.on('error', (e) => this.fail(new GitError(['cat-file'], null, `could not run git: ${e.message}`)));
    child.on('close', (code) => {
      const text = Buffer.concat(stderr).toString();
      // Only the blob first in line: any other object would mean the answers so far were not what was asked.
      if (this.queue.length && LAZY_FETCH_REFUSED.exec(text)?.[1] === this.queue[0].sha) this.restartPast();
      else this.fail(new GitError(['cat-file'], code, text || 'git cat-file exited early'));
    });
    child.stdin.on('error', () => undefined);
  }

  /**
   * A blob a partial clone never fetched: git 2.39 dies on it rather than answer "missing" (it may not fetch it,
   * see gitEnv). It was the first one unanswered: it is missing, and a new git is asked the rest.
   */
  private restartPast(): void {
    this.queue.shift()!.resolve(null);
    this.buffer = Buffer.alloc(0);
    this.arrived = [];
    this.arrivedBytes = 0;
    this.wanted = 0;
    // Ids still in `asked` were never written; the rest of the queue was, to the git that died.
    const written = this.queue.slice(0, this.queue.length - this.asked.length).map((p) => p.sha);
    this.start();
    if (written.length) this.child.stdin.write(written.join('\n') + '\n');
    if (this.ending) this.child.stdin.end();
  }

  /** The blob's bytes, or null when the object does not exist. */
  read(sha: string): Promise<Buffer | null> {
    if (this.failed) return Promise.reject(this.failed);
    if (!isObjectId(sha)) return Promise.reject(new Error(`not an object id: ${sha}`));
    return new Promise((resolve, reject) => {
      this.queue.push({ sha, resolve, reject });
      if (this.asked.length === 0) queueMicrotask(() => this.ask());
      this.asked.push(sha);
    });
  }

  /**
   * Ids asked for in one turn go to git in one write: a write per id was a system call each, and 40 ms of a tokio
   * import's main thread for its 861 blobs.
   */
  private asked: string[] = [];

  private ask(): void {
    if (this.asked.length === 0) return;
    const ids = this.asked;
    this.asked = [];
    if (!this.failed) this.child.stdin.write(ids.join('\n') + '\n');
  }

  private ending = false;

  async close(): Promise<void> {
    this.ask();
    this.ending = true;
    this.child.stdin.end();
    // A git started again past a blob never fetched replaces `closed`: wait for the last one.
    for (let seen: Promise<void> | undefined; seen !== this.closed; ) await (seen = this.closed);
  }

  private onData(chunk: Buffer): void {
    // Joining every 64 KiB piece as it comes would copy a big blob over and over (minutes for 50 MB).
    this.arrived.push(chunk);
    this.arrivedBytes += chunk.length;
    if (this.buffer.length + this.arrivedBytes < this.wanted) return;
    this.buffer = Buffer.concat([this.buffer, ...this.arrived]);
    this.arrived = [];
    this.arrivedBytes = 0;
    this.wanted = 0;
    while (this.queue.length) {
      const eol = this.buffer.indexOf(10);
      if (eol < 0) return;
      const header = this.buffer.subarray(0, eol).toString('utf8');
      if (header.endsWith(' missing')) {
        this.buffer = this.buffer.subarray(eol + 1);
        this.queue.shift()!.resolve(null);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (this.buffer.length < eol + 1 + size + 1) {
        this.wanted = eol + 1 + size + 1;
        return;
      }
      const body = Buffer.from(this.buffer.subarray(eol + 1, eol + 1 + size));
      this.buffer = this.buffer.subarray(eol + 1 + size + 1);
      this.queue.shift()!.resolve(body);
    }
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const p of this.queue.splice(0)) p.reject(e);
  }
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { isObjectId } from './object-id.js';
import { gitEnv, GitError } from './run.js';

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
  private child: ChildProcessWithoutNullStreams;
  private queue: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  /** Data received but not yet joined to `buffer`, and how many bytes `buffer` must hold before parsing can go on. */
  private arrived: Buffer[] = [];
  private arrivedBytes = 0;
  private wanted = 0;
  private failed: Error | null = null;
  /** Settles once git has exited and its pipes are closed. */
  private readonly closed: Promise<void>;

  constructor(root: string) {
    this.child = spawn('git', ['cat-file', '--batch'], { cwd: root, env: gitEnv() });
    // A git that never started ('error') has nothing to close.
    this.closed = new Promise((resolve) => {
      this.child.once('close', () => resolve());
      this.child.once('error', () => resolve());
    });
    this.child.stdout.on('data', (b: Buffer) => this.onData(b));
    const stderr: Buffer[] = [];
    this.child.stderr.on('data', (b: Buffer) => stderr.push(b));
    this.child.on('error', (e) => this.fail(new GitError(['cat-file'], null, `could not run git: ${e.message}`)));
    this.child.on('close', (code) => this.fail(new GitError(['cat-file'], code, Buffer.concat(stderr).toString() || 'git cat-file exited early')));
    this.child.stdin.on('error', () => undefined);
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

  async close(): Promise<void> {
    this.ask();
    this.child.stdin.end();
    await this.closed;
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

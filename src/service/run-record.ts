import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IndexPhase, IndexProgress } from '../index/indexer.js';
import { progressPercent } from '../index/progress.js';
import type { IndexLayout } from '../store/layout.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { lockHolder } from '../util/file-lock.js';
import { readJson } from '../util/json-file.js';

/**
 * The index run going on now, as the process doing it reports it in `.ocrag/run.json`: whichever surface started
 * it (the CLI, a hook, an MCP server, a panel), every other process of the repository shows it and joins it
 * rather than starting a second.
 */
export interface RunRecord {
  id: string;
  pid: number;
  kind: 'incremental' | 'full';
  startedAt: string;
  updatedAt: string;
  phase: IndexPhase | null;
  percent: number;
  files: { done: number; total: number };
  chunks: number;
  chunksPerSecond: number | null;
  secondsLeft: number | null;
}

/** A record is rewritten at most this often: 4 writes a second keep a bar moving and cost nothing next to a run. */
const WRITE_EVERY_MS = 250;

/** Writes this process's run into the record while it holds the index lock; `end` takes it out. Never fails the run. */
export class RunRecorder {
  private record: RunRecord;
  private lastWrite = 0;

  constructor(private readonly layout: IndexLayout, kind: RunRecord['kind'], id = newRunId()) {
    const now = new Date().toISOString();
    this.record = { id, pid: process.pid, kind, startedAt: now, updatedAt: now, phase: null, percent: 0, files: { done: 0, total: 0 }, chunks: 0, chunksPerSecond: null, secondsLeft: null };
    this.write();
  }

  readonly progress = (p: IndexProgress): void => {
    const files = { done: p.blobsDone, total: p.blobsTotal };
    this.record = { ...this.record, phase: p.phase, percent: progressPercent(p), files, chunks: p.chunks, chunksPerSecond: p.chunksPerSecond === null ? null : Math.round(p.chunksPerSecond), secondsLeft: p.secondsLeft ?? null };
    if (Date.now() - this.lastWrite >= WRITE_EVERY_MS) this.write();
  };

  end(): void {
    try {
      if (readJson<RunRecord>(this.layout.run)?.id === this.record.id) fs.rmSync(this.layout.run, { force: true });
    } catch {
      // A record left behind is ignored by readers once its process no longer holds the index lock.
    }
  }

  private write(): void {
    this.lastWrite = Date.now();
    try {
      // Not flushed to disk: a report of the moment, worthless after a power cut.
      writeFileAtomic(this.layout.run, JSON.stringify({ ...this.record, updatedAt: new Date().toISOString() }), { durable: false });
    } catch {
      // A full disk must not stop the run over its progress report.
    }
  }
}

/**
 * Runs `run` with the record every other process of this repository shows while it goes on, each progress report
 * passed to `onProgress` too; the caller holds the index lock.
 */
export async function recordedRun<T>(layout: IndexLayout, kind: RunRecord['kind'], runId: string | undefined, onProgress: ((p: IndexProgress) => void) | undefined, run: (onProgress: (p: IndexProgress) => void) => Promise<T>): Promise<T> {
  const record = new RunRecorder(layout, kind, runId);
  try {
    return await run((p) => (onProgress?.(p), record.progress(p)));
  } finally {
    record.end();
  }
}

/**
 * The run another process of this machine is doing on this index now, or null: a record counts only while the
 * process that wrote it holds the index lock, so a killed run's record is never shown as running.
 */
export function runningElsewhere(layout: IndexLayout): RunRecord | null {
  const record = readJson<RunRecord>(layout.run);
  if (!record || typeof record.pid !== 'number' || record.pid === process.pid) return null;
  return lockHolder(layout.lock) === record.pid ? record : null;
}

export function newRunId(): string {
  return randomBytes(6).toString('hex');
}

import fs from 'node:fs';
import path from 'node:path';
import { testSeams } from './test-seams.js';

/**
 * Test-only: with the seam `crashAt` = <point>:<n>[+<ms>][@<SIGNAL>|@THROW] (test-seams.ts) the n-th arrival at
 * <point> kills this process with SIGKILL, or the signal named (SIGINT: a Ctrl-C at exactly that moment), after <ms>
 * milliseconds if given, so the kill can land inside the write that follows; @THROW fails the run there instead.
 * That lets the crash tests stop an index run at exact moments. Without the seam it costs one property lookup.
 */
export function crashPoint(point: string): void {
  const spec = testSeams().crashAt;
  if (!spec) return;
  const match = /^([\w.-]+)(?::(\d+))?(?:\+(\d+))?(?:@(SIG[A-Z]+|THROW))?$/.exec(spec);
  if (!match || match[1] !== point) return;
  const arrivals = (reached.get(point) ?? 0) + 1;
  reached.set(point, arrivals);
  if (arrivals !== Number(match[2] ?? 1)) return;
  if (match[4] === 'THROW') throw new Error(`injected failure at ${point}`);
  const kill = () => process.kill(process.pid, (match[4] ?? 'SIGKILL') as NodeJS.Signals);
  if (match[3] === undefined) kill();
  else setTimeout(kill, Number(match[3]));
}

const reached = new Map<string, number>();

/**
 * A phase boundary of an index run: a crash point, then (test-only) a gate, then the run's cancellation. A test
 * holds runs at <point> by creating the file <point> in the folder of the seam `pauseDir`: the run writes
 * `<point>.reached` and waits until the file is gone, so a cancel (MCP's index_cancel, a signal) lands at exactly
 * that phase.
 */
export async function checkpoint(point: string, signal?: AbortSignal): Promise<void> {
  crashPoint(point);
  const gates = testSeams().pauseDir;
  if (gates) await heldAt(path.join(gates, point));
  signal?.throwIfAborted();
}

async function heldAt(gate: string): Promise<void> {
  if (!fs.existsSync(gate)) return;
  fs.writeFileSync(`${gate}.reached`, String(process.pid));
  while (fs.existsSync(gate)) await new Promise((resolve) => setTimeout(resolve, 20));
}

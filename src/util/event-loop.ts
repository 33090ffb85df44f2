import { monotonicMs } from './clock.js';

/** Awaited between items of long synchronous work: a promise when it is time to let the event loop run, else nothing. */
export type Pause = () => Promise<void> | undefined;

/** Never pauses: the work runs in one go (a one-shot command has nothing else to answer). */
export const noPause: Pause = () => undefined;

/**
 * For a long loop of synchronous work (chunking with tree-sitter, splitting words): call the returned function
 * after each item and await it; once `sliceMs` of work have passed it yields to the event loop, so the process
 * still answers its I/O meanwhile (an MCP status poll waits at most a slice, not a whole run's chunking).
 * 10 ms keeps a poll's wait well under its 50 ms budget and costs a few hundred yields a minute. Timed by
 * monotonicMs, not `performance`, whose module Node loads on first use (a one-shot search loads a set: issue 31).
 */
export function eventLoopYielder(sliceMs = 10): Pause {
  let since = monotonicMs();
  return () => {
    if (monotonicMs() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      nextTurn(() => {
        since = monotonicMs();
        resolve();
      }),
    );
  };
}

/**
 * Loops that paused, in the order they did: one resumes per turn of the event loop. Each waiting on its own
 * setImmediate, every loop of a run that paused (chunking, splitting words, loading a set) resumed in the same turn,
 * one after another, and a poll waited for all their slices together.
 */
const waiting: (() => void)[] = [];
let turnScheduled = false;

function nextTurn(resume: () => void): void {
  waiting.push(resume);
  if (!turnScheduled) {
    turnScheduled = true;
    setImmediate(resumeOne);
  }
}

function resumeOne(): void {
  const resume = waiting.shift();
  turnScheduled = waiting.length > 0;
  if (turnScheduled) setImmediate(resumeOne);
  resume?.();
}

/**
 * Work written once as a generator that yields wherever it may stop, run to the end at once (`runAll`) or with the
 * event loop let in at each `pause` (`runPausing`): the same steps for a one-shot command and a long-lived server.
 */
export type Steps<T> = Generator<void, T, void>;

export function runAll<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export async function runPausing<T>(steps: Steps<T>, pause: Pause): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    const paused = pause();
    if (paused) await paused;
  }
}

// Loaded into a server under measure (node --import bench/loop-probe.mjs), by bench/status-poll.ts --probe: records
// each stretch its event loop was held longer than BLOCK_MS, as [start, end] in CLOCK_MONOTONIC microseconds (the
// clock of a --cpu-prof profile, so a stretch can be matched to the samples taken in it), wall-clock ms, and the
// main thread's time on a CPU in it (Linux schedstat): on a loaded machine a stretch's wall time is mostly waiting
// for a core, and the CPU time is the synchronous slice the code itself holds. It
// appends each, a JSON line, to the file OCRAG_LOOP_PROBE names (as it happens: the server may be killed, not exit).
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** A poll waits for the stretch it lands in: the acceptance is 50 ms, so stretches over half of it are worth naming. */
const BLOCK_MS = 20;
/** How often the probe looks: its own lateness bounds what it can see. */
const TICK_MS = 2;

const out = process.env.OCRAG_LOOP_PROBE;
// Worker threads inherit --import: their loops are held by design (an embedding batch), and only the main one answers.
if (out && isMainThread) {
  const now = () => Number(process.hrtime.bigint() / 1000n);
  // The main thread's id is the process id; the first field is nanoseconds on a CPU.
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  const cpuNs = () => {
    try {
      return Number(fs.readFileSync(schedstat, 'utf8').split(' ')[0]);
    } catch {
      return NaN;
    }
  };
  let last = now();
  let lastCpu = cpuNs();
  setInterval(() => {
    const t = now();
    const cpu = cpuNs();
    if ((t - last) / 1000 > BLOCK_MS + TICK_MS) {
      fs.appendFileSync(out, `${JSON.stringify({ startUs: last, endUs: t, ms: (t - last) / 1000, cpuMs: (cpu - lastCpu) / 1e6, wallEnd: Date.now() })}\n`);
    }
    last = t;
    lastCpu = cpu;
  }, TICK_MS).unref();
}

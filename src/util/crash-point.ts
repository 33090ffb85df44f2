/**
 * Test-only: with OCRAG_TEST_CRASH_AT=<point>:<n>[+<ms>] the n-th arrival at <point> kills this process with
 * SIGKILL (after <ms> milliseconds, so the kill can land inside the write that follows), which lets the crash
 * tests stop an index run at exact moments. Without the variable it costs one environment lookup.
 */
export function crashPoint(point: string): void {
  const spec = process.env.OCRAG_TEST_CRASH_AT;
  if (!spec) return;
  const match = /^([\w.-]+)(?::(\d+))?(?:\+(\d+))?$/.exec(spec);
  if (!match || match[1] !== point) return;
  const arrivals = (reached.get(point) ?? 0) + 1;
  reached.set(point, arrivals);
  if (arrivals !== Number(match[2] ?? 1)) return;
  const kill = () => process.kill(process.pid, 'SIGKILL');
  if (match[3] === undefined) kill();
  else setTimeout(kill, Number(match[3]));
}

const reached = new Map<string, number>();

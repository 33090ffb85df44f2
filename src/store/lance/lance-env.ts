import os from 'node:os';

// Imported before @lancedb/lancedb, whose native runtime reads this once. Lance sizes its CPU pool as the core
// count minus an I/O reservation, which leaves one thread on a 2-core machine, and its full-text index build
// then deadlocks (0% CPU, forever) once a table yields more than one posting-list batch: lancedb/lancedb#3568.
process.env.LANCE_CPU_THREADS ??= String(Math.max(4, os.availableParallelism()));

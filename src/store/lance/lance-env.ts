import os from 'node:os';
import { defaultEnvironment } from '../../config/environment.js';

// Imported before @lancedb/lancedb, whose native runtime reads these once; a value the user set is kept.
defaultEnvironment({
  // Lance sizes its CPU pool as the core count minus an I/O reservation, which leaves one thread on a 2-core
  // machine, and its full-text index build then deadlocks (0% CPU, forever) once a table yields more than one
  // posting-list batch: lancedb/lancedb#3568.
  LANCE_CPU_THREADS: String(Math.max(4, os.availableParallelism())),
  // Lance's reads buffer up to 2 GiB of I/O and 8,192-row batches. With 64 MiB and 1,024 rows the 50,000-file index
  // run peaked at 1,199 MB instead of 1,514 MB (the vector index build alone, on the finished 363k-content store:
  // 530 MB instead of 688–749 MB), in about the same time (124–131 s against 112–123 s), and CLI searches on it and on
  // tokio were no slower (1.0–1.1 s and 0.31–0.36 s). Either may be set in the environment instead.
  LANCE_DEFAULT_IO_BUFFER_SIZE: String(64 * 2 ** 20),
  LANCE_DEFAULT_BATCH_SIZE: '1024',
});

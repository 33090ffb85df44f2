import { loadTeacher } from './teacher.js';
import { serveJobs } from '../runtime/worker-threads.js';

// Each worker loads its own copy of the teacher (TensorFlow.js is single-threaded in pure JS).
const teacher = loadTeacher();
serveJobs(
  async (texts: string[]) => (await teacher).embed(texts),
  (vectors) => [vectors.buffer as ArrayBuffer],
);

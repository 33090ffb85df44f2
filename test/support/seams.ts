// How tests set the switches of src/util/test-seams.ts: in this process (withSeams, setSeams), or in a CLI process
// they start and every node process below it (seamEnv). Production code never reads them from the environment.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TEST_SEAMS_KEY, type TestSeams } from '../../src/util/test-seams.js';

const PRELOAD = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'seams-preload.mjs')).href;

/** Sets the switches of this process until the next call (`{}`: none); returns what was set before. */
export function setSeams(seams: TestSeams): TestSeams | undefined {
  const global = globalThis as Record<symbol, unknown>;
  const before = global[TEST_SEAMS_KEY] as TestSeams | undefined;
  global[TEST_SEAMS_KEY] = Object.freeze({ ...seams });
  return before;
}

/** Runs `body` with these switches set in this process, then (once its promise settles, if it returns one) puts back what was set before. */
export function withSeams<T>(seams: TestSeams, body: () => T): T {
  const before = setSeams(seams);
  const restore = () => void setSeams(before ?? {});
  let result: T;
  try {
    result = body();
  } catch (e) {
    restore();
    throw e;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}

/**
 * What to add to a child's environment to give it these switches: the preload, which installs them in every node
 * process started with it (NODE_OPTIONS is inherited), after whatever NODE_OPTIONS already holds.
 */
export function seamEnv(seams: TestSeams): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${PRELOAD}`].filter(Boolean).join(' '), OCRAG_TEST_SEAMS: JSON.stringify(seams) };
}

import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null = null;

/**
 * Collects garbage now, on this thread. Memory the process is done with (a worker pool's shared table, a run's
 * groups of chunks) otherwise stays mapped until V8 next feels pressure, and while LanceDB's native code builds
 * indexes the JavaScript side allocates almost nothing, so that moment never comes: on the 50,000-file index the
 * 78 MB embedding table stayed resident through the whole index build. V8 gives `gc` only to a context made
 * after the flag is set, so the flag is set once, here, and nothing else in the process sees it.
 */
export function fullGc(): void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
}

/**
 * Switches tests set to reach moments and states a real run meets rarely or never: a crash between two writes, a
 * grammar that fails to load, an older chunker. Production code reads them here, never from the environment. A
 * test sets them in its own process with test/support/seams.ts, and in a CLI it starts (and every node process
 * below it) with the preload test/support/seams-preload.mjs. They live on a process-global symbol because the CLI
 * is a bundle (scripts/bundle-cli.mjs): its copy of this module is not the one a test or the preload loads.
 */
export interface TestSeams {
  /** `<point>:<n>[+<ms>][@<SIGNAL>|@THROW]`: the n-th arrival at a crash point stops the process there (crash-point.ts). */
  readonly crashAt?: string;
  /** The folder of gates that hold an index run at a checkpoint (crash-point.ts). */
  readonly pauseDir?: string;
  /** Chunks per store write (index/embed-blobs.ts): tiny groups give a crash test many commits to kill a run between. */
  readonly chunksPerWrite?: number;
  /** Grammar key → the .wasm file loaded instead (missing, corrupt), to see a language degrade (chunk/grammar-files.ts). */
  readonly grammarFiles?: Readonly<Record<string, string>>;
  /** Language (or "lines") → the revision it chunks at, raised without editing its rules (chunk/version.ts). */
  readonly chunkerRevisions?: Readonly<Record<string, number>>;
  /** Languages chunked as an ocrag from before they had rules did (chunk/rules.ts). */
  readonly ruleless?: readonly string[];
  /** The remote store lease's settle wait (store/s3/lease.ts), short where publishers take turns on one machine. */
  readonly leaseSettleMs?: number;
  /** The folder of this machine's list of indexed roots (store/known-roots.ts): a test's own, apart from the shared cache's. */
  readonly knownRootsDir?: string;
  /** A file `ocrag search` appends one line to saying which path answered: `warm <server pid>`, or `cold <why>` (session/warm/). */
  readonly warmTrace?: string;
  /** `ocrag search` read by the full program (commander), never by its quick entry (cli/quick-search.ts): tests compare the two. */
  readonly fullProgram?: boolean;
  /** How long index_codebase waits for a run that ends at once (mcp/tools/reindex.ts), long where a loaded machine runs the test. */
  readonly firstLookMs?: number;
  /** Files read as an ocrag from before GBK was read as Chinese did: as UTF-8 only (index/select.ts), to make the stores and artifacts it left. */
  readonly utf8Only?: boolean;
}

export const TEST_SEAMS_KEY = Symbol.for('ocrag.test-seams');

const NONE: TestSeams = Object.freeze({});

/** The switches set in this process; none outside tests. */
export function testSeams(): TestSeams {
  return ((globalThis as Record<symbol, unknown>)[TEST_SEAMS_KEY] as TestSeams | undefined) ?? NONE;
}

import fs from 'node:fs';
import { openRepo, readHead } from '../git/repo.js';
import { openContext } from '../index/context.js';
import type { IndexContext } from '../index/index-context.js';
import { indexKnownTree, type IndexSummary } from '../index/known-tree.js';
import type { CodeIndex } from './code-index.js';
import { makeIndexFolder } from '../store/index-folder.js';
import { indexLayout } from '../store/layout.js';
import { ForeignIndexError } from '../util/errors.js';
import { tryLock } from '../util/file-lock.js';
import { appendLog } from '../util/append-log.js';
import { takeHandOff, type HandedChunks } from '../index/early/hand-off.js';

/** `ocrag hook remote-first --early-chunks <sha256>`: the run a search's early answer started, and what it hands over. */
const EARLY_CHUNKS_FLAG = '--early-chunks';

/**
 * The detached work behind a git hook: index HEAD incrementally. Runs that fire while one is busy leave a
 * "pending" mark and exit; the busy run picks the mark up and indexes again, so a rebase of 20 commits
 * coalesces into a run or two that end on the final state. Never throws: failures go to .ocrag/log.
 */
export async function runHook(cwd: string, hook: string, args: string[]): Promise<void> {
  // Opened only for real work: see indexOnce.
  const full: { index: CodeIndex | null } = { index: null };
  let logFile: string | null = null;
  try {
    let ctx = await openContext(cwd);
    const { layout } = ctx;
    logFile = layout.log;
    makeIndexFolder(layout);
    // Taken (and its file removed) before the lock: a run that finds the lock busy leaves nothing behind either.
    const flag = args.indexOf(EARLY_CHUNKS_FLAG);
    const handed = flag >= 0 && args[flag + 1] ? takeHandOff(layout, args[flag + 1]!) : null;
    const { pending } = layout;
    let headJustRead = true;
    for (;;) {
      const lock = tryLock(layout.lock);
      if (!lock) {
        fs.writeFileSync(pending, `${hook} ${args.join(' ')}\n`);
        appendLog(layout.log, `${hook}: another run is busy; it will pick this up`);
        return;
      }
      try {
        do {
          fs.rmSync(pending, { force: true });
          if (!headJustRead) ctx = { ...ctx, head: await readHead(ctx.repo.root) };
          headJustRead = false;
          const s = await indexOnce(ctx, full, handed);
          appendLog(
            layout.log,
            `${hook}: ${s.upToDate ? 'up to date' : 'indexed'} ${s.branch ?? 'detached'}@${s.commit.slice(0, 8)}: ${s.files} files, ${s.newBlobs} new blobs, ${s.chunksEmbedded} chunks embedded in ${s.seconds.toFixed(2)} s`,
          );
        } while (fs.existsSync(pending));
      } finally {
        lock.release();
      }
      // A hook may have marked work between our last check and the release.
      if (!fs.existsSync(pending)) return;
    }
  } catch (e) {
    // Opening fails on a bad config, say: the log is still where the user will look. A folder that is not
    // ocrag's own gets no line: nothing is ever written into it (the next command the user runs says why).
    if (e instanceof ForeignIndexError) return;
    logFile ??= await openRepo(cwd).then((repo) => indexLayout(repo).log, () => null);
    if (logFile) appendLog(logFile, `${hook}: failed: ${(e as Error).message}`);
  } finally {
    await full.index?.close().catch(() => undefined);
  }
}

/**
 * One run under the lock. A tree the index already holds (a switch back to an indexed branch, a new branch)
 * is answered from the manifests alone: the model, the chunker and LanceDB are loaded only for real work.
 */
async function indexOnce(ctx: IndexContext, full: { index: CodeIndex | null }, handed: HandedChunks | null): Promise<IndexSummary> {
  const known = indexKnownTree(ctx);
  if (known) return known;
  let index = full.index;
  if (!index) {
    const { CodeIndex } = await import('./code-index.js');
    // The context the hook opened (git asked once): HEAD as read for this run, config and folder checked.
    index = full.index = await CodeIndex.open(ctx, {}, {}, handed ? { handed } : {});
  }
  return index.index({ holdingLock: true });
}

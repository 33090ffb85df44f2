import fs from 'node:fs';
import path from 'node:path';
import { openRepo } from '../git/repo.js';
import { tryLock } from '../index/lock.js';
import { CodeIndex } from '../service/code-index.js';
import { indexLayout } from '../store/layout.js';
import { appendLog } from './log.js';

/**
 * The detached work behind a git hook: index HEAD incrementally. Runs that fire while one is busy leave a
 * "pending" mark and exit; the busy run picks the mark up and indexes again, so a rebase of 20 commits
 * coalesces into a run or two that end on the final state. Never throws: failures go to .ocrag/log.
 */
export async function runHook(cwd: string, hook: string, args: string[]): Promise<void> {
  let index: CodeIndex | null = null;
  let logFile: string | null = null;
  try {
    index = await CodeIndex.open(cwd);
    const { layout } = index.ctx;
    logFile = layout.log;
    fs.mkdirSync(layout.dir, { recursive: true });
    const pending = path.join(layout.dir, 'index.pending');
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
          const s = await index.index({ holdingLock: true });
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
    // Opening fails on a bad config, say: the log is still where the user will look.
    logFile ??= await openRepo(cwd).then((repo) => indexLayout(repo).log, () => null);
    if (logFile) appendLog(logFile, `${hook}: failed: ${(e as Error).message}`);
  } finally {
    await index?.close().catch(() => undefined);
  }
}

import type { SearchOptions, SearchResult } from '../search/search.js';
import type { CodeIndex } from '../service/code-index.js';
import { earlyAnswer, earlyNotice, neverIndexed, type EarlyAnswer } from '../service/early-answer.js';
import { firstAnswer } from './first-answer.js';
import type { IndexTasks } from './index-tasks.js';

/**
 * A fresh clone's answers while its first index is built (service/early-answer.ts), for a session: the first
 * question starts the index run as this session's task, and that run first stores what the answer embedded
 * (`beforeRun`), so it embeds none of it again. A question asked while the run goes on is answered the same way,
 * from what the run has stored so far and the files that best match its words.
 */
export class EarlyAnswers {
  /** What the last early answer embedded, for the run it started to store first. */
  private unstored: EarlyAnswer | null = null;

  constructor(private readonly log?: (message: string) => void) {}

  /**
   * An answer before this clone's index is complete, and its notice: the team's published set's (first-answer.ts),
   * else the early answer (worded alike); null when neither applies.
   */
  async answer(index: CodeIndex, tasks: IndexTasks, query: string, opts: SearchOptions): Promise<{ results: SearchResult[]; notice: string } | null> {
    const fromTeam = await firstAnswer(index, tasks, query, opts);
    if (fromTeam) return fromTeam;
    // Checked before HEAD is read again: an indexed clone's search must leave the index's idea of HEAD to view().
    if (!neverIndexed(index.ctx)) return null;
    await index.refreshHead();
    const early = await earlyAnswer(index.ctx, opts, () => index.model(), query);
    if (!early) return null;
    if (!tasks.active) this.unstored = early;
    const task = tasks.start('incremental').id;
    return { results: early.results, notice: `${earlyNotice(early)}; this clone's index is being built (task ${task}): index_status tells when it is done, then search again for the complete answer` };
  }

  /** Run first by an index task: stores the chunks the answer that started it embedded; a failure only costs their embedding again. */
  async beforeRun(): Promise<void> {
    const early = this.unstored;
    this.unstored = null;
    await early?.store(this.log).catch((e: unknown) => this.log?.(`ocrag: the early answer's chunks were not kept: ${(e as Error)?.message ?? String(e)}`));
  }
}

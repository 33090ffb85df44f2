import type { SearchOptions, SearchResult } from '../search/search.js';
import { searchManifest } from '../search/search.js';
import type { CodeIndex } from '../service/code-index.js';
import { remoteFirstAnswer } from '../service/remote-first-answer.js';
import type { IndexTasks } from './index-tasks.js';

/**
 * A fresh clone's answer from the team's published set for HEAD (service/remote-first-answer.ts), with the index
 * run that copies the chunks behind it started as this server's task; null when that does not apply (the search
 * then goes through the view, indexing first as always).
 */
export async function firstAnswer(index: CodeIndex, tasks: IndexTasks, query: string, opts: SearchOptions): Promise<{ results: SearchResult[]; notice: string } | null> {
  let task = '';
  const view = await remoteFirstAnswer(index.ctx, {}, () => index.model(), () => (task = tasks.start('incremental').id));
  if (!view) return null;
  const results = await searchManifest(view.manifest, view.retriever, query, opts);
  return { results, notice: `answered from the team's published index of ${view.manifest.commit.slice(0, 8)}; this clone's own index is being copied (task ${task}): index_status tells when it is done` };
}

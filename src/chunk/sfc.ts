import type { SourceLines } from './lines.js';
import { componentName, sfcBlocks } from './sfc-blocks.js';
import type { ChunkOptions } from './types.js';
import { slidingWindows, type Span } from './windows.js';

/**
 * A Vue single-file component keeps the line windows every file without rules gets, each under the name the
 * component gives itself (`name: 'UserList'`, `defineOptions({ name })`) as its breadcrumb, `component UserList`:
 * a window of its template then still says whose it is, to the words a search matches and to the model.
 *
 * Cutting a component along its blocks instead (the script by its grammar with a `.ts` file's rules, the template
 * along its elements, the style along its rules) ranked the file lower on the commit-history sets of five Vue
 * projects (750 questions): R@5 −0.007 [−0.024, +0.011] against these windows' +0.004 [−0.003, +0.011], and two
 * projects fell. A window that holds a form's labels beside the methods that handle them answers a question about
 * the page better than either block alone. Svelte components give no name: their windows are as before.
 */

/** Kind of the breadcrumb element a component's name is written as (`component UserList`). */
const COMPONENT = 'component';

/** The windows of a component that names itself, or null (no name, or its blocks cannot be told): plain windows. */
export function sfcSpans(lines: SourceLines, settings: ChunkOptions): Span[] | null {
  const text = lines.lines.join('\n');
  const blocks = sfcBlocks(text);
  if (!blocks) return null;
  const name = blocks.filter((b) => b.tag === 'script').map((b) => componentName(text.slice(b.contentStart, b.contentEnd))).find(Boolean);
  if (!name) return null;
  return slidingWindows(lines, 1, lines.count, settings.windowLines, settings.windowOverlap, [`${COMPONENT} ${name}`]);
}

import type { CodeIndex } from '../service/code-index.js';
import { HeadWatcher } from '../session/head-watcher.js';
import { TreeWatcher } from '../session/tree-watcher.js';

/**
 * A workspace followed as the MCP server follows it: the folders of the files in the index (and new ones git does
 * not ignore), and HEAD. The watches do not hold the process open.
 */
export class WorkspaceWatch {
  private readonly tree: TreeWatcher;
  private readonly head: HeadWatcher;

  constructor(private readonly index: CodeIndex, changed: () => void) {
    this.tree = new TreeWatcher(index.ctx.repo.root, changed);
    this.head = new HeadWatcher(index.ctx, changed);
  }

  /** Embeds what changed, so the next search has nothing to do; watches the folders of the files now seen. Returns their count. */
  async refresh(): Promise<number> {
    const view = await this.index.currentView();
    // Before reporting, so an edit made once the index is reported current is seen.
    await this.tree.watchFoldersOf([...Object.keys(view.files), ...Object.keys(view.skipped)]);
    return Object.keys(view.files).length;
  }

  close(): void {
    this.tree.close();
    this.head.close();
  }
}

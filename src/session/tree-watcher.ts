import fs from 'node:fs';
import { joinKey, keyBytes, keyDir, keyFsPath } from '../git/path-key.js';
import { gitBuffer } from '../git/run.js';

/** Folders watched in one go before yielding to the event loop, so a large repository never stalls the server. */
const WATCH_BATCH = 500;
/** A new folder tree larger than this is not worth watching folder by folder: the watcher gives up (see `dirty`). */
const ADOPT_LIMIT = 2000;
const NEVER_IN_VIEW = new Set(['.git', '.ocrag']);

/**
 * Tells whether anything in the work tree may have changed since `markClean`, from file-system events on the
 * folders that hold the files of the index (one non-recursive watch each, portable and cheap), so a search can
 * skip `git status` while nothing moved. Folders created later are watched as they appear, unless git ignores
 * them. Whenever it can't be sure (still setting up, a watch failed, too many folders) it reports a change:
 * the caller then asks git, which is always right. `onChange`, when given, hears each of those moments as it
 * happens, for a caller that acts on changes rather than asking before each query.
 */
export class TreeWatcher {
  /** Folder → its watch. */
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private changed = true;
  private settingUp = 0;
  private gaveUp = false;

  constructor(
    private readonly root: string,
    private readonly onChange?: () => void,
  ) {}

  get dirty(): boolean {
    return this.changed || this.settingUp > 0 || this.gaveUp;
  }

  markClean(): void {
    this.changed = false;
  }

  /**
   * Watches the folders of these repository paths (keys, `path-key.ts`) and all their parents up to the root.
   * Folders are keys too, and watched by their exact bytes: a folder whose name is not UTF-8 is watched, not lost.
   */
  async watchFoldersOf(paths: Iterable<string>): Promise<void> {
    const folders = new Set<string>(['']);
    for (const p of paths) {
      for (let dir = keyDir(p); dir !== '' && !folders.has(dir); dir = keyDir(dir)) folders.add(dir);
    }
    await this.watchAll([...folders].filter((f) => !this.watchers.has(f)));
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private async watchAll(folders: string[]): Promise<void> {
    this.settingUp++;
    try {
      for (let i = 0; i < folders.length; i++) {
        this.watch(folders[i]);
        if (i % WATCH_BATCH === WATCH_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.settingUp--;
    }
  }

  private watch(folder: string): void {
    if (this.watchers.has(folder) || this.gaveUp) return;
    try {
      const watcher = fs.watch(keyFsPath(this.root, folder), { persistent: false, encoding: 'buffer' }, (event, name) => this.onEvent(folder, event, name));
      watcher.on('error', () => this.unwatch(folder));
      this.watchers.set(folder, watcher);
    } catch (e) {
      // A folder deleted meanwhile needs no watch (its parent saw it go); anything else (out of inotify watches) does.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.giveUp();
    }
  }

  private onEvent(folder: string, event: fs.WatchEventType, name: Buffer | null): void {
    if (folder === '' && name !== null && NEVER_IN_VIEW.has(name.toString('latin1'))) return;
    this.touch();
    if (name === null) return;
    const rel = joinKey(folder, name);
    const watched = this.watchers.has(rel);
    // A 'rename' naming a watched folder means that entry was deleted, moved or created: whatever folder is there
    // now is not the one watched, even when it got the old one's inode number back (ext4 reuses them at once,
    // and a busy server reads the events only after the folder was made again). Only 'change' (attributes) keeps it.
    if (watched && event === 'change') return;
    if (watched) this.unwatchTree(rel);
    if (fs.statSync(keyFsPath(this.root, rel), { throwIfNoEntry: false })?.isDirectory()) void this.adopt(rel);
  }

  private unwatch(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
    this.touch();
  }

  private touch(): void {
    this.changed = true;
    this.onChange?.();
  }

  private giveUp(): void {
    this.gaveUp = true;
    this.touch();
  }

  private unwatchTree(folder: string): void {
    for (const f of [...this.watchers.keys()]) if (f === folder || f.startsWith(`${folder}/`)) this.unwatch(f);
  }

  /** A folder that appeared (mkdir, checkout, move): watched with its subfolders unless git ignores it. */
  private async adopt(folder: string): Promise<void> {
    this.settingUp++;
    try {
      if (await this.ignored(folder)) return;
      const found = this.subfolders(folder);
      if (found === null) this.giveUp();
      else await this.watchAll(found);
    } finally {
      this.settingUp--;
      // Files may have landed in the folder before its watch existed.
      this.touch();
    }
  }

  private async ignored(folder: string): Promise<boolean> {
    try {
      // Given on stdin, NUL-terminated: a name that is not UTF-8 cannot be an argument, and stays exact there.
      const input = Buffer.concat([keyBytes(folder) ?? Buffer.from(folder), Buffer.from('/\0')]);
      const { stdout } = await gitBuffer(['check-ignore', '--stdin', '-z'], { cwd: this.root, input, okCodes: [1] });
      return stdout.length > 0;
    } catch {
      return false;
    }
  }

  /** The folder and every folder below it, or null beyond ADOPT_LIMIT. */
  private subfolders(folder: string): string[] | null {
    const out = [folder];
    for (let i = 0; i < out.length; i++) {
      let entries: fs.Dirent<Buffer>[];
      try {
        entries = fs.readdirSync(keyFsPath(this.root, out[i]), { withFileTypes: true, encoding: 'buffer' });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (!e.isDirectory() || NEVER_IN_VIEW.has(e.name.toString('latin1'))) continue;
        out.push(joinKey(out[i], e.name));
        if (out.length > ADOPT_LIMIT) return null;
      }
    }
    return out;
  }
}

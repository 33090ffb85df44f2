/** One file `setup` writes: its path from the project root, its new content given the current one (null: absent). */
export interface FileEdit {
  path: string;
  /** Null: the file is not wanted (an entry an earlier setup wrote is taken out, and a file left with nothing of the user's goes). */
  render(existing: string | null): string | null;
  /** The file without ocrag's part; null: nothing of the user's is left, so the file goes. */
  remove(existing: string): string | null;
}

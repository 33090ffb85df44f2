/** One file `setup` writes: its path from the project root, its new content given the current one (null: absent). */
export interface FileEdit {
  path: string;
  render(existing: string | null): string;
  /** The file without ocrag's part; null: nothing of the user's is left, so the file goes. */
  remove(existing: string): string | null;
}

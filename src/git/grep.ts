import { latin1Key } from './path-key.js';
import { gitBuffer } from './run.js';

/** A file's matches: each word searched for (lower-case) → how often it occurs. */
export type WordCounts = Map<string, number>;

/**
 * Past this much output the rest is not read: a common word in a huge tree prints millions of matches, and the
 * counts of the files read so far already rank them (tokio, 6 common words: 1.3 MB).
 */
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * How often each word occurs in each text file of a tree, case-insensitively and as a fixed string (`blocking`
 * counts in `spawn_blocking`), by one `git grep -o` over the tree's blobs: the tree's own content, whatever the
 * work tree holds, and nothing of the tree is run (no textconv, no pager). The words are data: each goes after
 * `-e`, the tree after them, then `--`; a word starting with `-` is a pattern like any other.
 */
export async function grepWordCounts(root: string, tree: string, words: string[]): Promise<Map<string, WordCounts>> {
  const out = new Map<string, WordCounts>();
  const wanted = [...new Set(words.map((w) => w.toLowerCase()).filter((w) => w.length > 0 && !w.includes('\n') && !w.includes('\0')))];
  if (!wanted.length) return out;
  // The output's shape is fixed whatever the user's grep settings (line numbers, columns, colour).
  const args = ['grep', '--no-color', '--no-line-number', '--no-column', '--no-textconv', '-I', '-i', '-F', '-o', '-z', ...wanted.flatMap((w) => ['-e', w]), tree, '--'];
  const { stdout } = await gitBuffer(args, { cwd: root, okCodes: [1], maxBytes: MAX_OUTPUT_BYTES });
  parseMatches(stdout, `${tree}:`, wanted, out);
  return out;
}

/**
 * Parses `git grep -o -z <tree>` output: per match, `<tree>:<path>\0<match>\n`. The path is bytes up to the NUL
 * (a name may hold a newline), the match a line's part (never a newline). A record cut off at the end is dropped.
 */
export function parseMatches(stdout: Buffer, prefix: string, words: string[], out: Map<string, WordCounts>): void {
  const text = stdout.toString('latin1');
  // A match is the file's bytes: read as latin1 it equals the word's UTF-8 bytes read so, ASCII case folded as git folds it.
  const byBytes = new Map(words.map((w) => [asciiLower(Buffer.from(w, 'utf8').toString('latin1')), w]));
  let at = 0;
  while (at < text.length) {
    if (!text.startsWith(prefix, at)) break;
    const nul = text.indexOf('\0', at + prefix.length);
    const end = nul < 0 ? -1 : text.indexOf('\n', nul + 1);
    if (end < 0) break;
    const key = latin1Key(text.slice(at + prefix.length, nul));
    const word = byBytes.get(asciiLower(text.slice(nul + 1, end)));
    at = end + 1;
    if (word === undefined) continue;
    let counts = out.get(key);
    if (!counts) out.set(key, (counts = new Map()));
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
}

/** Lower-cases A-Z only: other latin1 characters here are bytes of UTF-8 sequences, not letters. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (c) => c.toLowerCase());
}

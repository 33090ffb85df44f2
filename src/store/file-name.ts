import { createHash } from 'node:crypto';

/**
 * The longest name kept as it is: a file name holds 255 bytes, and each is first written beside as a temporary
 * file 31 bytes longer (`.json.<pid>.<ms>.tmp`, util/atomic-write.ts: a pid of 7 digits, Linux's most, and 13 of
 * milliseconds). Exactly the names that were kept whole before this limit (the rest failed) still are: a branch
 * keeps its index.
 */
const MAX_NAME = 255 - '.json.4194304.1796635859935.tmp'.length;

/** Hex digits of the name's hash that keep a shortened name apart from every other (64 bits). */
const HASH_CHARS = 16;

/**
 * A name (a branch, a source) made a file name: percent-encoded, since names hold "/". A long one is cut and ends
 * in its hash, so it stays unique: a branch of 12 folders' names, or of 30 Chinese characters (9 bytes each once
 * encoded), made every command fail with ENAMETOOLONG. `+` ends no whole name: encodeURIComponent escapes it.
 */
export function fileNameFor(prefix: string, name: string): string {
  const whole = `${prefix}${encodeURIComponent(name)}`;
  if (whole.length <= MAX_NAME) return whole;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_CHARS);
  // Cut before a half-written escape (`%E`, `%`), for a name people can still read.
  return `${whole.slice(0, MAX_NAME - HASH_CHARS - 1).replace(/%[0-9A-F]?$/, '')}+${hash}`;
}

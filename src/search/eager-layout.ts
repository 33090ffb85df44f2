/** Where a section's bytes lie in a sectioned file (sectioned-file.ts): `offset` up to `end`. */
export interface Span {
  name: string;
  offset: number;
  end: number;
}

/** A run of the file's bytes and where in the buffer it is read to. */
export interface Piece {
  from: number;
  to: number;
  length: number;
}

// Arithmetic, not `& ~7`: the header's length is measured with offsets near 2^53, which 32-bit bit operations wrap.
export const align8 = (n: number) => Math.ceil(n / 8) * 8;

/**
 * Where the eager sections go in the buffer they are read into, by their order in `spans`: they lie together in
 * the file, so one read covers them, to the buffer's start. With `last`, that section is cut out of the run (its
 * padding with it, so the rest keep their 8-byte alignment) and read after the rest, ending where the bytes end.
 * A header whose sections overlap the one cut out is read as one run, as ever (its checksums judge it).
 */
export function eagerLayout(spans: Span[], last: string | undefined): { pieces: Piece[]; bytes: number; at: number[] } {
  const first = Math.min(...spans.map((s) => s.offset));
  const end = Math.max(...spans.map((s) => s.end));
  const whole = { pieces: [{ from: first, to: 0, length: end - first }], bytes: end - first, at: spans.map((s) => s.offset - first) };
  const moved = spans.find((s) => s.name === last);
  if (!moved || moved.end === end) return whole;
  // The sections after it begin at the next multiple of 8 (the writer pads to it).
  const [cutFrom, cutTo] = [moved.offset, align8(moved.end)];
  if (spans.some((s) => s !== moved && s.offset < cutTo && s.end > cutFrom) || cutTo > end) return whole;
  const cut = cutTo - cutFrom;
  const tail = align8(end - first - cut);
  const pieces = [
    { from: first, to: 0, length: cutFrom - first },
    { from: cutTo, to: cutFrom - first, length: end - cutTo },
    { from: moved.offset, to: tail, length: moved.end - moved.offset },
  ].filter((p) => p.length > 0);
  const at = spans.map((s) => (s === moved ? tail : s.offset <= cutFrom ? s.offset - first : s.offset - first - cut));
  return { pieces, bytes: tail + moved.end - moved.offset, at };
}

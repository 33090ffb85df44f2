/**
 * Many strings as one UTF-8 buffer and where each ends (in UTF-16 units of the decoded text): a snapshot read
 * back is then one buffer to decode and each item a slice of it, instead of an allocation per item while
 * deserialising. UTF-8, because one non-Latin-1 character anywhere would double a JavaScript string's bytes.
 */
export interface PackedStrings {
  utf8: Uint8Array;
  ends: Uint32Array;
}

export function packStrings(items: readonly string[]): PackedStrings {
  return packWith(items, (s) => s.length);
}

export function unpackStrings({ utf8, ends }: PackedStrings): string[] {
  // Decoding keeps every item's length: a lone surrogate (one unit) becomes U+FFFD (one unit).
  // ignoreBOM: the first item may begin with U+FEFF, which must stay part of it.
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(utf8);
  const out = new Array<string>(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) out[i] = text.slice(start, (start = ends[i]));
  return out;
}

/** Strings kept as UTF-8 with the byte offset where each ends, to be decoded one at a time when read. */
export interface PackedBytes {
  utf8: Uint8Array;
  byteEnds: Uint32Array;
}

export function packBytes(items: readonly string[]): PackedBytes {
  const { utf8, ends } = packWith(items, (s) => Buffer.byteLength(s, 'utf8'));
  return { utf8, byteEnds: ends };
}

/** The items as one UTF-8 buffer, with where each ends by `measure` (UTF-16 units or bytes). */
function packWith(items: readonly string[], measure: (s: string) => number): { utf8: Uint8Array; ends: Uint32Array } {
  const ends = new Uint32Array(items.length);
  let end = 0;
  items.forEach((s, i) => (ends[i] = end += measure(s)));
  return { utf8: Buffer.from(items.join(''), 'utf8'), ends };
}

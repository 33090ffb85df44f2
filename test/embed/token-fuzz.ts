// Random strings built from the characters and fragments where a tokenizer can go wrong, from a seeded generator
// (the same strings on every run).

const PIECES = [
  ...'aZ9_$ .(-\t\n',
  '\u2581', // Metaspace's own character
  '\uFFFD', // the default model's unknown token
  '☃', '䷀', '🎉', '👩‍👩‍👧', '𝔘', // unknown to the vocabulary; astral characters
  '数', '据', '库', '日', '한', 'カ', // CJK
  '\u0301', '\u0308', // combining marks
  '\ud800', '\udc00', // lone surrogate halves
  '\u00a0', '\u3000', '\u2028', '\u200b', '\ufeff', '\u0085', '\u0000', '\u001b', // odd spaces and controls
  'Ａ', 'ﬁ', '²', '①', 'Σ', 'İ', 'ẞ', // changed by NFKC or lowercasing
  'parse', 'HTTP', 'Server', 'getX', 'snake_case', '获取', 'x86', '__', '$$', '...', '=>', // words and operators
];

/** A generator of numbers in [0, 1) from `seed` (mulberry32). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` strings of 0–60 random pieces each. */
export function randomTexts(count: number, seed: number): string[] {
  const random = seeded(seed);
  return Array.from({ length: count }, () => {
    let text = '';
    for (let n = Math.floor(random() * 61); n > 0; n--) text += PIECES[Math.floor(random() * PIECES.length)];
    return text;
  });
}

/** Any character of the CJK blocks (U+2E80 and up to the end of the BMP's ideographs, Hangul, full-width forms). */
export const CJK_CHAR = /[\u2e80-\ud7ff\uf900-\uffef]/;

/**
 * Where the vocabulary's final run of pieces made only of CJK characters starts (its length when there is none):
 * the default model's 30,000 Chinese words, which text without a CJK character never needs (fast-unigram.ts).
 * Unit by unit rather than by a regular expression per piece: the default model's 30,000 were ~3 ms of a search.
 */
export function cjkTail(vocab: readonly string[]): number {
  let i = vocab.length;
  while (i > 0 && onlyCjk(vocab[i - 1])) i--;
  return i;
}

/** Whether a piece is not empty and each of its UTF-16 units lies in the blocks of CJK_CHAR. */
function onlyCjk(piece: string): boolean {
  for (let k = 0; k < piece.length; k++) {
    const unit = piece.charCodeAt(k);
    if (!((unit >= 0x2e80 && unit <= 0xd7ff) || (unit >= 0xf900 && unit <= 0xffef))) return false;
  }
  return piece.length > 0;
}

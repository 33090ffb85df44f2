import { createHash } from 'node:crypto';
import { WORD_BOUNDARY, type ScoredPiece } from '../runtime/code-tokenizer.js';
import { TEACHER_CONTROL_IDS, teacherVocabulary } from './teacher.js';
import { expandAbbreviation } from './glossary.js';

export const UNK_PIECE_ID = 0;

/** Identifier words mined from code, most frequent first, with their counts. */
export interface CodeWords {
  totalWords: number;
  words: Array<[word: string, count: number]>;
}

/**
 * The student's pieces: the teacher's SentencePiece vocabulary minus control symbols and pieces
 * the lowercasing normaliser can never produce, plus whole code words the teacher's English
 * vocabulary would shred (`argv` → a r g v). The unknown piece stays at id 0 (zero vector).
 * Word pieces score their log-frequency in code, which beats any split into several pieces.
 */
export function studentPieces(codeWords: CodeWords): ScoredPiece[] {
  const teacher = teacherVocabulary();
  const pieces: ScoredPiece[] = [teacher[UNK_PIECE_ID]];
  for (let i = TEACHER_CONTROL_IDS; i < teacher.length; i++) {
    const [piece, score] = teacher[i];
    if (piece === piece.toLowerCase()) pieces.push([piece, score]);
  }
  const known = new Set(pieces.map(([piece]) => piece));
  for (const [word, count] of codeWords.words) {
    const piece = WORD_BOUNDARY + word;
    if (known.has(piece)) throw new Error(`code word "${word}" is already a teacher piece: recipe data out of date`);
    known.add(piece);
    pieces.push([piece, Math.log(count / codeWords.totalWords)]);
  }
  return pieces;
}

/**
 * What the teacher reads to produce each piece's vector ("" = none, the row stays zero): the piece
 * as a word, or for a known abbreviation what it stands for.
 */
export function teacherText(piece: string, id: number): string {
  if (id === UNK_PIECE_ID) return '';
  const text = piece.replaceAll(WORD_BOUNDARY, ' ').trim();
  return (piece.startsWith(WORD_BOUNDARY) && expandAbbreviation(text)) || text;
}

/** Fingerprint of a piece list, so per-piece statistics are never applied to a different list. */
export function piecesFingerprint(pieces: ScoredPiece[]): string {
  return createHash('sha256')
    .update(pieces.map(([piece]) => piece).join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Unigram probability of each piece in tokenized code (add-half smoothing), used for SIF
 * weighting: punctuation and keywords are everywhere in code, however rare in English.
 */
export function pieceProbabilities(counts: number[]): Float64Array {
  const total = counts.reduce((a, b) => a + b, 0);
  const smoothing = 0.5;
  return Float64Array.from(counts, (count) => (count + smoothing) / (total + smoothing * counts.length));
}

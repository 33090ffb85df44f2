import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { tokenizerConfigJson, unigramTokenizerJson, type ScoredPiece } from '../runtime/code-tokenizer.js';
import { MANIFEST_FILE, type ModelManifest } from '../models/model-cache.js';
import { writeSidecars } from '../models/onnx-sidecar.js';
import { writeTokenizerSidecar } from '../runtime/tokenizer-sidecar.js';
import { encodeStaticLookupModel } from '../models/static-onnx.js';
import { loadTeacher, packageVersion, TEACHER_DIM, TEACHER_PACKAGE, TEACHER_WEIGHTS_PACKAGE } from './teacher.js';
import { MAX_TOKENS } from '../runtime/text-limits.js';
import { siblingModule, WorkerPool } from '../runtime/worker-threads.js';
import { chinesePieces, composeChineseRows, inDictionaryOrder, type ChinesePieces } from './chinese.js';
import { CHINESE_ROWS, type ChineseRowRecipe } from './chinese-recipe.js';
import { CODE_STATISTICS } from './code-statistics.js';
import { CHINESE_DATA_PACKAGES, recipeFingerprint, REMOVED_DIRECTIONS, SIF_A } from './fingerprint.js';
import { ABBREVIATIONS } from './glossary.js';
import { principalDirections, projectOut } from './principal-directions.js';
import { pieceProbabilities, piecesFingerprint, studentPieces, teacherText, UNK_PIECE_ID, type CodeWords } from './vocabulary.js';

const TEACHER_BATCH = 256;

export interface Recipe {
  /** The code vocabulary, whose rows the teacher makes. */
  pieces: ScoredPiece[];
  probabilities: Float64Array;
  codeWordCount: number;
  /** Chinese words after them, whose rows are made of the code rows. */
  chinese: ChinesePieces;
  chineseRows: ChineseRowRecipe;
}

export async function loadRecipe(chinese: ChineseRowRecipe = CHINESE_ROWS): Promise<Recipe> {
  const codeWords: CodeWords = {
    totalWords: CODE_STATISTICS.totalWords,
    words: CODE_STATISTICS.words.split(' ').map((entry) => {
      const [word, count] = entry.split(':');
      return [word, parseInt(count, 36)];
    }),
  };
  const pieces = studentPieces(codeWords);
  const counts = CODE_STATISTICS.pieceCounts.split(' ').map((c) => parseInt(c, 36));
  if (piecesFingerprint(pieces) !== CODE_STATISTICS.piecesFingerprint || counts.length !== pieces.length) {
    throw new Error('code-statistics.ts does not match the student vocabulary: re-run mine-code-statistics.ts');
  }
  return { pieces, probabilities: pieceProbabilities(counts), codeWordCount: codeWords.words.length, chinese: await chinesePieces(chinese), chineseRows: chinese };
}

/** Teacher pass over every piece, then centring, SIF weighting and normalisation of the rows. */
async function distil(recipe: Recipe, onProgress?: (message: string) => void): Promise<Float32Array> {
  const dim = TEACHER_DIM;
  const table = new Float32Array((recipe.pieces.length + recipe.chinese.pieces.length) * dim);
  const texts = recipe.pieces.map(([piece], id) => teacherText(piece, id));
  const rows = texts.flatMap((text, id) => (text ? [id] : []));
  const teacher = await startTeacher();
  let done = 0;
  try {
    // Fixed batches, whatever the thread count, so every machine computes the same numbers.
    const batches: Promise<void>[] = [];
    for (let start = 0; start < rows.length; start += TEACHER_BATCH) {
      const batch = rows.slice(start, start + TEACHER_BATCH);
      batches.push(
        teacher.embed(batch.map((id) => texts[id])).then((vectors) => {
          batch.forEach((id, k) => table.set(vectors.subarray(k * dim, (k + 1) * dim), id * dim));
          done += batch.length;
          onProgress?.(`teacher: ${done}/${rows.length} pieces`);
        }),
      );
    }
    await Promise.all(batches);
  } finally {
    await teacher.close();
  }
  shapeRows(table, dim, rows, recipe.probabilities);
  composeChineseRows(table, dim, recipe.pieces, UNK_PIECE_ID, recipe.chinese, inDictionaryOrder(recipe.chineseRows.senseWeights));
  return table;
}

interface RunningTeacher {
  embed(texts: string[]): Promise<Float32Array>;
  close(): Promise<void>;
}

/** The teacher pass is the whole build time: spread its batches over up to 4 cores. */
async function startTeacher(): Promise<RunningTeacher> {
  const threads = Math.min(availableParallelism(), 4);
  if (threads > 1) {
    const pool = new WorkerPool<string[], Float32Array>(siblingModule(import.meta.url, 'teacher-worker'), null, threads);
    return { embed: (texts) => pool.run(texts), close: () => pool.close() };
  }
  const teacher = await loadTeacher();
  let queue: Promise<unknown> = Promise.resolve();
  const embedInTurn = (texts: string[]) => {
    const next = queue.then(() => teacher.embed(texts));
    queue = next;
    return next;
  };
  return { embed: embedInTurn, close: async () => undefined };
}

/**
 * Shapes the raw teacher rows into the table: centre (remove what all vectors share), normalise,
 * remove the dominant directions that remain (they encode "is a single word" more than meaning and
 * would dominate every average), normalise again, then scale each row by its SIF weight.
 */
function shapeRows(table: Float32Array, dim: number, rows: number[], probabilities: Float64Array): void {
  const mean = new Float64Array(dim);
  for (const id of rows) for (let d = 0; d < dim; d++) mean[d] += table[id * dim + d];
  for (let d = 0; d < dim; d++) mean[d] /= rows.length;
  for (const id of rows) for (let d = 0; d < dim; d++) table[id * dim + d] -= mean[d];
  scaleRows(table, dim, rows, () => 1);
  projectOut(table, dim, rows, principalDirections(table, dim, rows, REMOVED_DIRECTIONS));
  scaleRows(table, dim, rows, (id) => SIF_A / (SIF_A + probabilities[id]));
}

/** Gives each row the length `lengthOf(id)`. */
function scaleRows(table: Float32Array, dim: number, rows: number[], lengthOf: (id: number) => number): void {
  for (const id of rows) {
    const row = table.subarray(id * dim, (id + 1) * dim);
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += row[d] * row[d];
    const scale = lengthOf(id) / (Math.sqrt(norm) || 1);
    for (let d = 0; d < dim; d++) row[d] *= scale;
  }
}

/** Writes a complete Transformers.js model folder (plus ocrag's manifest and table sidecar) into `dir`. */
export async function writeDistilledModel(dir: string, name: string, onProgress?: (message: string) => void): Promise<void> {
  const startedAt = Date.now();
  const recipe = await loadRecipe();
  writeModelFolder(dir, name, recipe, await distil(recipe, onProgress), startedAt);
}

/** The model folder of a finished table (the Chinese rows after the code rows). */
export function writeModelFolder(dir: string, name: string, recipe: Recipe, table: Float32Array, startedAt: number): void {
  const pieces = [...recipe.pieces, ...recipe.chinese.pieces];
  const lookup = { vocabSize: pieces.length, dim: TEACHER_DIM, matrix: table };
  const files: Record<string, string | Uint8Array> = {
    'config.json': JSON.stringify(
      {
        model_type: 'bert',
        architectures: ['BertModel'],
        hidden_size: TEACHER_DIM,
        vocab_size: lookup.vocabSize,
        max_position_embeddings: MAX_TOKENS,
        pad_token_id: UNK_PIECE_ID,
      },
      null,
      1,
    ),
    'tokenizer.json': JSON.stringify(unigramTokenizerJson(pieces, UNK_PIECE_ID)),
    'tokenizer_config.json': JSON.stringify(tokenizerConfigJson(recipe.pieces[UNK_PIECE_ID][0], MAX_TOKENS), null, 1),
    'onnx/model.onnx': encodeStaticLookupModel(lookup, `ocrag ${name}`),
  };
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  for (const [rel, content] of Object.entries(files)) writeFileSync(join(dir, rel), content);
  writeSidecars(join(dir, 'onnx', 'model.onnx'), lookup);
  writeTokenizerSidecar(join(dir, 'tokenizer.json'));

  const manifest: ModelManifest = {
    name,
    kind: 'static-distilled',
    createdAt: new Date().toISOString(),
    recipeFingerprint: recipeFingerprint(),
    dim: TEACHER_DIM,
    vocabSize: lookup.vocabSize,
    maxTokens: MAX_TOKENS,
    recipe: {
      teacher: 'Universal Sentence Encoder lite, one pass over every piece',
      vocabulary: `lowercase teacher SentencePiece pieces + ${recipe.codeWordCount} whole words mined from code`,
      centring: `vocabulary mean, then ${REMOVED_DIRECTIONS} principal directions removed`,
      weighting: `SIF a=${SIF_A}, piece frequencies measured in code`,
      abbreviations: `${Object.keys(ABBREVIATIONS).length} code abbreviations embedded by their meaning`,
      chinese: `${recipe.chinese.pieces.length} Chinese words, each the code rows of its CC-CEDICT / glossary English senses`,
      normaliser: 'NFKC, camelCase/PascalCase/snake_case split, lowercase; whitespace-split words',
    },
    sources: [TEACHER_PACKAGE, TEACHER_WEIGHTS_PACKAGE, 'onnx-proto', ...CHINESE_DATA_PACKAGES].map((pkg) => ({ name: pkg, version: packageVersion(pkg) })),
    buildSeconds: Math.round((Date.now() - startedAt) / 100) / 10,
    files: Object.fromEntries(
      Object.keys(files).map((rel) => {
        const bytes = readFileSync(join(dir, rel));
        return [rel, { bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') }];
      }),
    ),
  };
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
}

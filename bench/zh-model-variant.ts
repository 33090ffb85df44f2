// A variant of the default model's Chinese rows, built into a private cache without the teacher pass: the code
// rows are copied from a built default model (they do not depend on the Chinese recipe) and the Chinese rows
// made again by composeChineseRows with other settings. The variant is written under the current recipe's name
// and fingerprint, so every eval run with OCRAG_CACHE=CACHE searches with it (indexes made with another model are
// made again: bench/eval/index-checkout.ts).
//
//   node --import tsx bench/zh-model-variant.ts --cache /tmp/zh-cache-x [--from MODEL_DIR] [--words 30000]
//        [--weights 1,0.5] [--join] [--code-frequency 1] [--scale 1] [--check]
//
//   --from             a built default model folder (default: /work/main/.cache/ocrag's), read only
//   --scale            the Chinese rows' length against the code rows' (×)
//   --chinese-sif      each Chinese row's length the SIF weight of the word's probability in jieba's corpus
//                      (instead of what its senses' code rows give)
//   --check            make the rows by the Chinese recipe as it is (other flags ignored) and compare them to --from's:
//                      they must be equal
// The cache gets links to --from's cache's lexicon/ and roots/ and its own models/.
import fs from 'node:fs';
import path from 'node:path';
import { onnxFacts } from '../src/embed/models/onnx-sidecar.js';
import { DEFAULT_MODEL_ID } from '../src/embed/models/model-ids.js';
import { CHINESE_ROWS, type ChineseRowRecipe } from '../src/embed/recipe/chinese-recipe.js';
import { composeChineseRows, inDictionaryOrder, type SenseReading } from '../src/embed/recipe/chinese.js';
import { loadRecipe, writeModelFolder } from '../src/embed/recipe/distil.js';
import { SIF_A } from '../src/embed/recipe/fingerprint.js';
import { TEACHER_DIM } from '../src/embed/recipe/teacher.js';
import { UNK_PIECE_ID } from '../src/embed/recipe/vocabulary.js';
import { readFlags } from './eval/settings.js';

const o = { cache: '', from: '/work/main/.cache/ocrag/models/ocrag/use-static-v2', check: false, scale: 1, join: false, codeFrequency: 0, chineseSif: false };
const rows: ChineseRowRecipe = { ...CHINESE_ROWS };
readFlags(process.argv.slice(2), {
  '--cache': (v) => (o.cache = v()),
  '--from': (v) => (o.from = v()),
  '--words': (v) => (rows.words = Number(v())),
  '--weights': (v) => (rows.senseWeights = v().split(',').map(Number)),
  '--join': () => (o.join = true),
  '--code-frequency': (v) => (o.codeFrequency = Number(v())),
  '--check': () => (o.check = true),
  '--scale': (v) => (o.scale = Number(v())),
  '--chinese-sif': () => (o.chineseSif = true),
});
if (!o.cache && !o.check) throw new Error('--cache DIR is required');

const t0 = performance.now();
const dim = TEACHER_DIM;
const lookup = onnxFacts(path.join(o.from, 'onnx', 'model.onnx')).staticLookup;
if (!lookup || lookup.dim !== dim) throw new Error(`${o.from}: not a static model of ${dim} dimensions`);
const source = new Float32Array(fs.readFileSync(lookup.tablePath).buffer);
const recipe = await loadRecipe(o.check ? CHINESE_ROWS : rows);
const codeRows = recipe.pieces.length;
const table = new Float32Array((codeRows + recipe.chinese.pieces.length) * dim);
table.set(source.subarray(0, codeRows * dim));
const reading = o.check ? inDictionaryOrder(CHINESE_ROWS.senseWeights) : variantReading(recipe.probabilities);
composeChineseRows(table, dim, recipe.pieces, UNK_PIECE_ID, recipe.chinese, reading);
if (!o.check) for (let i = codeRows * dim; i < table.length; i++) table[i]! *= o.scale;
if (!o.check && o.chineseSif) {
  // Each Chinese row's length the SIF weight of the word's own probability in jieba's corpus (its piece score).
  recipe.chinese.pieces.forEach(([, score], i) => {
    const row = table.subarray((codeRows + i) * dim, (codeRows + i + 1) * dim);
    const norm = Math.hypot(...row) || 1;
    const length = SIF_A / (SIF_A + Math.exp(score));
    for (let d = 0; d < dim; d++) row[d]! *= length / norm;
  });
}

if (o.check) {
  let worst = 0;
  for (let i = 0; i < source.length; i++) worst = Math.max(worst, Math.abs(source[i]! - (table[i] ?? NaN)));
  console.log(`rows ${table.length / dim} against ${source.length / dim}; largest difference ${worst}`);
  process.exit(table.length === source.length && worst === 0 ? 0 : 1);
}

const models = path.join(o.cache, 'models');
const fromCache = path.resolve(o.from, '..', '..', '..');
for (const shared of ['lexicon', 'roots']) {
  const link = path.join(o.cache, shared);
  if (!fs.existsSync(link) && fs.existsSync(path.join(fromCache, shared))) {
    fs.mkdirSync(o.cache, { recursive: true });
    fs.symlinkSync(path.join(fromCache, shared), link);
  }
}
const dir = path.join(models, ...DEFAULT_MODEL_ID.split('/'));
const tmp = `${dir}.tmp-${process.pid}`;
fs.rmSync(tmp, { recursive: true, force: true });
writeModelFolder(tmp, DEFAULT_MODEL_ID, recipe, table, Date.now());
fs.rmSync(dir, { recursive: true, force: true });
fs.renameSync(tmp, dir);
const bytes = fs.statSync(path.join(dir, 'onnx', 'model.onnx')).size;
console.log(`${dir}: ${JSON.stringify({ ...rows, join: o.join, codeFrequency: o.codeFrequency, scale: o.scale, chineseSif: o.chineseSif })}; ${recipe.chinese.pieces.length} Chinese rows, ${(bytes / 1e6).toFixed(1)} MB, ${((performance.now() - t0) / 1000).toFixed(1)} s`);

/**
 * The recipe's reading, or: `--join`, a phrase sense (`set up`) read as its joined identifier (`setup`) when the
 * code vocabulary holds that as one piece; `--code-frequency R`, each sense after the first weighted also by how
 * common it is in code against the first (a sense as common as its rarest piece), up to R times.
 */
function variantReading(probabilities: Float64Array): SenseReading {
  const plain = inDictionaryOrder(rows.senseWeights);
  return (senses, encode) => {
    const read = plain(senses, encode).map((sense, s) => {
      if (!o.join || !/[ -]/.test(senses[s]!)) return sense;
      const joined = encode(senses[s]!.replace(/[ -]+/g, ''));
      return joined.length === 1 && joined[0] !== UNK_PIECE_ID ? { ...sense, ids: joined } : sense;
    });
    if (!o.codeFrequency || !read.length) return read;
    const frequency = (ids: number[]) => Math.min(...ids.map((id) => probabilities[id] ?? 0));
    const first = frequency(read[0]!.ids);
    return read.map((sense, s) => (s && first > 0 ? { ...sense, weight: sense.weight * Math.min(o.codeFrequency, frequency(sense.ids) / first) } : sense));
  };
}

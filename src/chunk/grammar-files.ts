import { createRequire } from 'node:module';
import { testSeams } from '../util/test-seams.js';

/**
 * Where a language's tree-sitter grammar lives: an installed package and the .wasm file inside it. Every grammar
 * is found here, in one way, whichever package ships it.
 */
export interface GrammarFile {
  readonly package: string;
  /** Path of the .wasm file inside the package. */
  readonly file: string;
}

/** The grammars of `@vscode/tree-sitter-wasm`, which the first languages were given (`wasm/tree-sitter-<name>.wasm`). */
export function vscodeGrammar(name: string): GrammarFile {
  return { package: '@vscode/tree-sitter-wasm', file: `wasm/tree-sitter-${name}.wasm` };
}

/** The grammars of `@cursorless/tree-sitter-wasms`, for languages the first set lacks (`out/tree-sitter-<name>.wasm`). */
export function cursorlessGrammar(name: string): GrammarFile {
  return { package: '@cursorless/tree-sitter-wasms', file: `out/tree-sitter-${name}.wasm` };
}

/** Objective-C: the one package found whose .wasm loads with web-tree-sitter 0.27 (at its root). */
export const OBJC_GRAMMAR: GrammarFile = { package: 'tree-sitter-objc', file: 'tree-sitter-objc.wasm' };

/** One name per grammar file: `@cursorless/tree-sitter-wasms/out/tree-sitter-kotlin.wasm`. */
export function grammarKey(grammar: GrammarFile): string {
  return `${grammar.package}/${grammar.file}`;
}

const require = createRequire(import.meta.url);

/** The absolute path of the grammar's .wasm; throws when its package or file is not installed. */
export function resolveGrammarFile(grammar: GrammarFile): string {
  const key = grammarKey(grammar);
  // Tests point a grammar at another file (missing, corrupt) to see a language degrade.
  const instead = testSeams().grammarFiles?.[key];
  return instead ?? require.resolve(key);
}

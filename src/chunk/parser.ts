import { createRequire } from 'node:module';
import { Language, Parser, Query, type Tree } from 'web-tree-sitter';
import type { SyntaxRules } from './define-rules.js';

/** A loaded grammar with its reusable parser and compiled definition query. */
export interface Grammar {
  readonly parser: Parser;
  readonly query: Query;
}

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const grammars = new Map<string, Promise<Grammar | null>>();

function initRuntime(): Promise<void> {
  // Point the runtime at its own wasm explicitly: the default (next to the JS file) breaks when bundled.
  const wasmPath = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  runtime ??= Parser.init({ locateFile: () => wasmPath });
  return runtime;
}

async function loadGrammar(rules: SyntaxRules): Promise<Grammar | null> {
  try {
    await initRuntime();
    const wasmPath = require.resolve(`@vscode/tree-sitter-wasm/wasm/tree-sitter-${rules.grammar}.wasm`);
    const language = await Language.load(wasmPath);
    const parser = new Parser();
    parser.setLanguage(language);
    return { parser, query: new Query(language, rules.query) };
  } catch {
    // A grammar that cannot load means line windows for that language, not a failed index.
    return null;
  }
}

/** The grammar for these rules, loaded once per process; null when it cannot be loaded. */
export function grammarFor(rules: SyntaxRules): Promise<Grammar | null> {
  let grammar = grammars.get(rules.grammar);
  if (!grammar) {
    grammar = loadGrammar(rules);
    grammars.set(rules.grammar, grammar);
  }
  return grammar;
}

/**
 * Parses before the deadline (a performance.now() time); null when it ran out or parsing failed.
 * The caller owns the tree and must delete() it.
 */
export function parseWithin(grammar: Grammar, text: string, deadline: number): Tree | null {
  try {
    const tree = grammar.parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
    if (!tree) grammar.parser.reset();
    return tree;
  } catch {
    grammar.parser.reset();
    return null;
  }
}

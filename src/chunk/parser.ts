import { createRequire } from 'node:module';
import { Language, Parser, Query, type Tree } from 'web-tree-sitter';
import type { SyntaxRules } from './define-rules.js';
import { grammarKey, resolveGrammarFile } from './grammar-files.js';

/** A loaded grammar with its reusable parser and compiled definition query. */
export interface Grammar {
  readonly parser: Parser;
  readonly query: Query;
}

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
// Per rules, not per grammar file: rules sharing a file may query it differently.
const grammars = new Map<SyntaxRules, Promise<Grammar | null>>();
/** Grammar key → why it could not be loaded, for the notice of an index run (see `grammarFailure`). */
const failures = new Map<string, string>();

function initRuntime(): Promise<void> {
  // Point the runtime at its own wasm explicitly: the default (next to the JS file) breaks when bundled.
  const wasmPath = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
  runtime ??= Parser.init({ locateFile: () => wasmPath });
  return runtime;
}

async function loadGrammar(rules: SyntaxRules): Promise<Grammar | null> {
  try {
    await initRuntime();
    const language = await Language.load(resolveGrammarFile(rules.grammar));
    const parser = new Parser();
    parser.setLanguage(language);
    return { parser, query: new Query(language, rules.query) };
  } catch (error) {
    // A grammar that cannot load means line windows for that language, not a failed index.
    failures.set(grammarKey(rules.grammar), oneLine(error));
    return null;
  }
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = text.split('\n')[0]!.trim();
  return first.length > 160 ? `${first.slice(0, 160)}…` : first || 'unknown error';
}

/** Why the grammar of these rules could not be loaded in this process, or null (loaded, or not tried yet). */
export function grammarFailure(rules: SyntaxRules): string | null {
  return failures.get(grammarKey(rules.grammar)) ?? null;
}

/** The grammar for these rules, loaded once per process; null when it cannot be loaded. */
export function grammarFor(rules: SyntaxRules): Promise<Grammar | null> {
  let grammar = grammars.get(rules);
  if (!grammar) {
    grammar = loadGrammar(rules);
    grammars.set(rules, grammar);
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

// Syntax rules of Scala, Elixir and Haskell (see rules.ts for how languages are looked up).
import type { Node } from 'web-tree-sitter';
import { formatImplTarget } from '../text/breadcrumb.js';
import { cursorlessGrammar } from './grammar-files.js';
import { clean, defineRules, member, nameOf, type Namer } from './define-rules.js';

export const scala = defineRules({
  grammar: cursorlessGrammar('scala'),
  version: 2,
  kinds: {
    class_definition: 'class', object_definition: 'object', trait_definition: 'trait', enum_definition: 'enum',
    function_definition: 'function', type_definition: 'type', given_definition: 'given',
    extension_definition: 'extension',
  },
  namers: {
    // `given Ordering[Point] = ...` may have no name: then it is named by what it gives.
    given_definition: (node) => ({ kind: 'given', name: clean((node.childForFieldName('name') ?? node.childForFieldName('return_type'))?.text ?? '(anonymous)') }),
    // `extension (p: Point)` adds to the type of its parameter.
    extension_definition: (node) => {
      const type = node.childForFieldName('parameters')?.namedChildren[0]?.childForFieldName('type');
      return { kind: 'extension', name: type ? clean(type.text) : '(anonymous)' };
    },
    function_declaration: member('signature'),
    val_definition: member('field', (node) => node.childForFieldName('pattern')),
    var_definition: member('field', (node) => node.childForFieldName('pattern')),
    val_declaration: member('field'),
  },
  patterns: ['(template_body [(function_declaration) (val_definition) (var_definition) (val_declaration)] @def)'],
  leading: ['comment', 'block_comment'],
});

/**
 * A definition the grammar leaves as a run of sibling nodes sharing a key: an Elixir function's clauses (`def run(env,
 * [])`, `def run(env, [h | t])`), a Haskell function's equations. It is one definition, from the run's first node
 * (`continues` is false there) to its `last`; nodes of the `skipped` types between them (comments) do not break it.
 */
function siblingRun(keyOf: (node: Node) => string | null, skipped: ReadonlySet<string> = new Set()) {
  const beside = (node: Node, step: (n: Node) => Node | null): Node | null => {
    let next = step(node);
    while (next && skipped.has(next.type)) next = step(next);
    return next;
  };
  return {
    continues(node: Node): boolean {
      const key = keyOf(node);
      const before = beside(node, (n) => n.previousNamedSibling);
      return key !== null && before !== null && keyOf(before) === key;
    },
    last(node: Node): Node {
      const key = keyOf(node);
      let last = node;
      for (let next = beside(last, (n) => n.nextNamedSibling); key !== null && next && keyOf(next) === key; next = beside(last, (n) => n.nextNamedSibling)) last = next;
      return last;
    },
  };
}

const ELIXIR_FUNCTIONS = ['def', 'defp', 'defmacro', 'defmacrop', 'defguard', 'defguardp', 'defdelegate', 'defn', 'defnp'];
const ELIXIR_MODULES = ['defmodule', 'defprotocol', 'defimpl'];
const quoted = (words: string[]) => words.map((word) => `"${word}"`).join(' ');

/** `def name(args) when guard`, `def name, do: ...`, `def a + b`: the function's name inside the call's first argument. */
function elixirFunctionName(head: Node | null): string {
  if (!head) return '(anonymous)';
  if (head.type === 'binary_operator' && head.childForFieldName('operator')?.text === 'when') return elixirFunctionName(head.childForFieldName('left'));
  if (head.type === 'call') return clean(head.childForFieldName('target')?.text ?? '(anonymous)');
  if (head.type === 'binary_operator') return clean(head.childForFieldName('operator')?.text ?? '(anonymous)');
  return clean(head.text);
}

/** `def run(env, [])` → `def run`: a function clause's keyword and name, else null. */
function elixirClause(node: Node | null): string | null {
  if (node?.type !== 'call') return null;
  const keyword = node.childForFieldName('target')?.text ?? '';
  if (!ELIXIR_FUNCTIONS.includes(keyword)) return null;
  const first = node.namedChildren.find((child) => child?.type === 'arguments')?.firstNamedChild ?? null;
  return `${keyword} ${elixirFunctionName(first)}`;
}

/** A function of several clauses is one definition, over the comments between them (revision 3 of Elixir's rules). */
const ELIXIR_CLAUSES = siblingRun(elixirClause, new Set(['comment']));

/** Elixir's definitions are calls (`def`, `defmodule`, ...): the called keyword is the kind. */
const nameElixirCall: Namer = (node) => {
  const keyword = node.childForFieldName('target')?.text ?? '';
  const args = node.namedChildren.find((child) => child?.type === 'arguments');
  const first = args?.firstNamedChild ?? null;
  if (ELIXIR_FUNCTIONS.includes(keyword)) {
    // A later clause belongs to the first one's definition.
    if (ELIXIR_CLAUSES.continues(node)) return null;
    return { kind: keyword, name: elixirFunctionName(first) };
  }
  if (!ELIXIR_MODULES.includes(keyword)) return null;
  const name = first ? clean(first.text) : '(anonymous)';
  if (keyword !== 'defimpl') return { kind: keyword, name };
  // `defimpl Size, for: Map` adds Size's functions to Map, as a Rust impl adds a trait's to a type.
  const target = args?.namedChildren.find((child) => child?.type === 'keywords')?.firstNamedChild?.childForFieldName('value');
  return { kind: 'impl', name: clean(formatImplTarget(name, target?.text ?? name)) };
};

export const elixir = defineRules({
  grammar: cursorlessGrammar('elixir'),
  version: 3,
  kinds: {},
  namers: { call: nameElixirCall },
  lastPart: ELIXIR_CLAUSES.last,
  patterns: [`(call target: (identifier) @keyword (#any-of? @keyword ${quoted([...ELIXIR_FUNCTIONS, ...ELIXIR_MODULES])})) @def`],
  // `@doc`, `@spec` and `@impl` above a function are module attributes: unary `@` operators.
  leading: ['comment', 'unary_operator'],
});

const HASKELL_EQUATIONS: ReadonlySet<string> = new Set(['function', 'bind']);

/** A function's name: `go n = ...` → go, `a <+> b = ...` → <+>. */
function haskellName(node: Node): string | null {
  const name = node.childForFieldName('name');
  if (name) return clean(name.text);
  const infix = node.namedChildren.find((child) => child?.type === 'infix');
  const operator = infix?.childForFieldName('operator');
  return operator ? clean(operator.text) : null;
}

/** A function of several equations is one definition, from its first equation to its last. */
const HASKELL_FUNCTIONS = siblingRun((node) => (HASKELL_EQUATIONS.has(node.type) ? haskellName(node) : null));

/** The first equation of a function names it; the ones after belong to it. */
const nameEquation: Namer = (node) => {
  const name = haskellName(node);
  if (!name || HASKELL_FUNCTIONS.continues(node)) return null;
  return { kind: 'function', name };
};

export const haskell = defineRules({
  grammar: cursorlessGrammar('haskell'),
  version: 2,
  kinds: {
    data_type: 'data', newtype: 'newtype', type_synomym: 'type', class: 'class', instance: 'instance',
    type_family: 'type', function: 'function', bind: 'function',
  },
  namers: {
    function: nameEquation,
    bind: nameEquation,
    // `instance Show (Tree a)`: the class and the type it is given for.
    instance: (node) => ({ kind: 'instance', name: clean(`${nameOf(node)} ${node.childForFieldName('patterns')?.text ?? ''}`) }),
    signature: member('signature'),
  },
  patterns: ['(class_declarations (signature) @def)'],
  // A type signature directly above its function belongs to it, as a doc comment does.
  leading: ['comment', 'haddock', 'signature', 'pragma'],
  commentsTrail: true,
  lastPart: HASKELL_FUNCTIONS.last,
});

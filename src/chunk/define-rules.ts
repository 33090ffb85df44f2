import type { Node } from 'web-tree-sitter';
import type { GrammarFile } from './grammar-files.js';

// The shape of a language's syntax rules and the helpers that name definitions; the rules themselves are in rules.ts.

/** What a definition node is: its kind ("class", "fn", ...) and display name. */
export interface Described {
  kind: string;
  name: string;
  /**
   * A member only (a field, a property, a constant, a method signature): a chunk inside its parent's, in the symbol
   * table, but never a definition the file is split along, so files chunk as they did before members were named.
   */
  memberOnly?: boolean;
}

export type Namer = (node: Node) => Described | null;

/** How to find definitions in one grammar's syntax trees. */
export interface SyntaxRules {
  /** The grammar's package and .wasm file (grammar-files.ts). */
  grammar: GrammarFile;
  /** Revision of this language's chunking, part of its chunks' ids (see chunk/version.ts). */
  version: number;
  /** Tree-sitter query; every node captured as @def is a candidate definition. */
  query: string;
  /** Node types that wrap a single definition and belong to it (export, decorators, template<>). */
  wrappers: ReadonlySet<string>;
  /** Node types directly above a definition that belong to it (doc comments, attributes). */
  leading: ReadonlySet<string>;
  /** Kind and name of a captured node, or null when it is not a definition after all. */
  describe(node: Node): Described | null;
  /**
   * The last node of the definition starting at this one, when the grammar leaves its parts side by side: a Dart
   * method's signature and its body, a Haskell function's equations. Absent: the node itself.
   */
  lastPart?(node: Node): Node;
  /** The grammar leaves a comment above a definition inside the node before it (Kotlin's import list): look there too. */
  commentsTrail?: boolean;
  /**
   * The text the parser reads, when the grammar cannot read some of the file's (C++'s attribute macros): the same
   * length and lines, so every position in the tree is one in the file. Absent: the file itself.
   */
  parseText?(text: string): string;
  /** Kinds that only group definitions (namespaces): their frame is never a unit of its own (assemble.ts). */
  groups?: ReadonlySet<string>;
}

interface RulesSpec {
  grammar: GrammarFile;
  /**
   * Raise it whenever the chunks of this language change for the same file: its files, and only they, are then
   * chunked and embedded again. Rules start at 1 only for the languages that had them when versions became per
   * language (test/chunk/version.test.ts lists them); a language given rules later starts at 2, since its files
   * were line windows (revision 1) until then.
   */
  version?: number;
  /** Node type → kind; the name is the node's `name` field. */
  kinds: Record<string, string>;
  /** Node types named by code; they must also be captured, by `kinds` or by `patterns`. */
  namers?: Record<string, Namer>;
  /** Extra query patterns capturing @def, for definitions that need structure to be recognised. */
  patterns?: string[];
  wrappers?: string[];
  leading: string[];
  lastPart?: (node: Node) => Node;
  commentsTrail?: boolean;
  parseText?: (text: string) => string;
  groups?: string[];
}

export function defineRules(spec: RulesSpec): SyntaxRules {
  const alternatives = Object.keys(spec.kinds).map((type) => `(${type})`).join(' ');
  // Rules that find every definition by its structure (Elixir's calls) have no kinds, and `[] @def` is no query.
  const query = [...(alternatives ? [`[${alternatives}] @def`] : []), ...(spec.patterns ?? [])].join('\n');
  return {
    grammar: spec.grammar,
    version: spec.version ?? 1,
    query,
    wrappers: new Set(spec.wrappers ?? []),
    leading: new Set(spec.leading),
    ...(spec.lastPart ? { lastPart: spec.lastPart } : {}),
    ...(spec.commentsTrail ? { commentsTrail: true } : {}),
    ...(spec.parseText ? { parseText: spec.parseText } : {}),
    ...(spec.groups ? { groups: new Set(spec.groups) } : {}),
    describe(node) {
      // Each read of `type` is a call into the parser's WebAssembly.
      const type = node.type;
      const namer = spec.namers?.[type];
      if (namer) return namer(node);
      const kind = spec.kinds[type];
      return kind ? { kind, name: nameOf(node) } : null;
    },
  };
}

const MAX_NAME_CHARS = 120;

/**
 * The names given to definitions that have none in the source: every other word of a breadcrumb past its kinds is
 * the file's own text (index/verify/ holds rows from outside to that).
 */
export const GIVEN_NAMES: readonly string[] = ['(anonymous)', 'Companion'];

export function clean(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_NAME_CHARS ? `${oneLine.slice(0, MAX_NAME_CHARS)}…` : oneLine;
}

export function nameOf(node: Node, field = 'name'): string {
  const nameNode = node.childForFieldName(field);
  return nameNode ? clean(nameNode.text) : '(anonymous)';
}

/** A member-only definition (see `Described`) named by its `name` field, or by the name of its first declarator. */
export function member(kind: string, declarator?: (node: Node) => Node | null): Namer {
  return (node) => {
    const name = declarator ? declarator(node) : node.childForFieldName('name');
    return name ? { kind, name: clean(name.text), memberOnly: true } : null;
  };
}

/** The first named child of one of these types, found breadth-first within a few levels (`int a, b;` → a). */
export function firstOfType(node: Node, types: ReadonlySet<string>, depth = 4): Node | null {
  let level: Node[] = [node];
  for (let d = 0; d < depth && level.length; d++) {
    const next: Node[] = [];
    for (const n of level) {
      for (const child of n.namedChildren) {
        if (!child) continue;
        if (types.has(child.type)) return child;
        next.push(child);
      }
    }
    level = next;
  }
  return null;
}

export function withBody(kind: string): Namer {
  return (node) => (node.childForFieldName('body') ? { kind, name: nameOf(node) } : null);
}

import type { Node, Tree } from 'web-tree-sitter';
import type { SyntaxRules } from './define-rules.js';
import { parseWithin, type Grammar } from './parser.js';
import { CLASS_LIKE_KINDS } from './rules.js';
import { formatElement } from '../text/breadcrumb.js';

/** A definition found in a syntax tree, with the lines it owns (1-based, inclusive). */
export interface Definition {
  /** Breadcrumb entry, e.g. "class Router", "fn serialize", "func (s *Server) Run". */
  label: string;
  kind: string;
  /** Includes doc comments, attributes and decorators directly above it. */
  startLine: number;
  endLine: number;
  /** Definitions nested inside it, ordered, non-overlapping. */
  children: Definition[];
  /** A field, property, constant or signature: a chunk inside its parent's, never a piece the file is planned along. */
  memberOnly?: boolean;
  /** A namespace or the like, which only groups what it holds (`SyntaxRules.groups`). */
  groups?: boolean;
}

/** Nesting deeper than this is kept inside the ancestor's chunks rather than split further. */
const MAX_NESTING = 24;

interface Candidate {
  definition: Definition;
  startIndex: number;
  endIndex: number;
}

/** Definitions of a file, or null when it could not be parsed and queried within the budget. */
export function parseDefinitions(grammar: Grammar, rules: SyntaxRules, text: string, budgetMs: number): Definition[] | null {
  const deadline = performance.now() + budgetMs;
  const tree = parseWithin(grammar, rules.parseText?.(text) ?? text, deadline);
  if (!tree) return null;
  try {
    const definitions = findDefinitions(tree, grammar, rules, deadline);
    // A query cut short by the deadline would silently miss definitions.
    return performance.now() > deadline ? null : definitions;
  } finally {
    tree.delete();
  }
}

/**
 * Top-level definitions of a parsed file, each holding its nested definitions.
 * Line ranges of siblings never overlap: a definition sharing a line with the previous one
 * (one-liners, minified code) is folded into it.
 */
export function findDefinitions(tree: Tree, grammar: Grammar, rules: SyntaxRules, deadline: number): Definition[] {
  const captures = grammar.query.captures(tree.rootNode, { progressCallback: () => performance.now() > deadline });
  const capturedIds = new Set(captures.map((capture) => capture.node.id));
  const seen = new Set<number>();
  const candidates: Candidate[] = [];
  for (const { node } of captures) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    const described = rules.describe(node);
    if (!described) continue;
    const extent = liftOutOfWrappers(node, rules, capturedIds);
    const last = rules.lastPart?.(extent) ?? extent;
    candidates.push({
      definition: {
        label: described.name,
        kind: described.kind,
        startLine: leadingStartRow(extent, rules) + 1,
        endLine: lastRow(last) + 1,
        children: [],
        ...(described.memberOnly ? { memberOnly: true } : {}),
        ...(rules.groups?.has(described.kind) ? { groups: true } : {}),
      },
      startIndex: extent.startIndex,
      endIndex: last.endIndex,
    });
  }
  return normalizeLines(nest(candidates));
}

/** Nest candidates by byte containment; also settles kinds (functions in classes are methods) and labels. */
function nest(candidates: Candidate[]): Definition[] {
  candidates.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const roots: Definition[] = [];
  const open: Candidate[] = [];
  for (const candidate of candidates) {
    while (open.length > 0 && open[open.length - 1]!.endIndex < candidate.endIndex) open.pop();
    const parent = open[open.length - 1];
    if (open.length >= MAX_NESTING) continue;
    const definition = candidate.definition;
    // A member belongs to what it is a member of; outside any definition it is just code.
    if (definition.memberOnly && !parent) continue;
    if (definition.kind === 'function' && parent && CLASS_LIKE_KINDS.has(parent.definition.kind)) {
      definition.kind = 'method';
    }
    definition.label = formatElement(definition.kind, definition.label);
    (parent ? parent.definition.children : roots).push(definition);
    // Nothing nests in a member: a function inside a field's value stays a child of the class, as it always was.
    if (!definition.memberOnly) open.push(candidate);
  }
  return roots;
}

/** Fold siblings that share lines, and keep children inside their parent's lines. */
function normalizeLines(siblings: Definition[], parent?: Definition): Definition[] {
  const kept: Definition[] = [];
  for (const definition of siblings) {
    if (parent) {
      definition.startLine = Math.max(definition.startLine, parent.startLine);
      definition.endLine = Math.min(definition.endLine, parent.endLine);
    }
    // A member sharing a line with a definition (`int x; void f() {}`) gives way to it, so members never move
    // the lines of what the file is planned along.
    if (definition.memberOnly && overlapsLast(kept, definition)) continue;
    while (!definition.memberOnly && kept[kept.length - 1]?.memberOnly && overlapsLast(kept, definition)) kept.pop();
    const previous = kept[kept.length - 1];
    if (previous && definition.startLine <= previous.endLine) {
      previous.endLine = Math.max(previous.endLine, definition.endLine);
      continue;
    }
    kept.push(definition);
  }
  for (const definition of kept) definition.children = normalizeLines(definition.children, definition);
  return kept;
}

function overlapsLast(kept: Definition[], definition: Definition): boolean {
  const last = kept[kept.length - 1];
  return last !== undefined && definition.startLine <= last.endLine;
}

/** `export class X`, `@decorator def f`, `template<> T f()`: the wrapper belongs to the definition. */
function liftOutOfWrappers(node: Node, rules: SyntaxRules, capturedIds: Set<number>): Node {
  // Asking for the parent and its type is two calls into the parser's WebAssembly per definition.
  if (rules.wrappers.size === 0) return node;
  let extent = node;
  for (let parent = extent.parent; parent && rules.wrappers.has(parent.type); parent = extent.parent) {
    const wrapsOthers = parent.namedChildren.some(
      (child) => child !== null && child.id !== extent.id && capturedIds.has(child.id),
    );
    if (wrapsOthers) break;
    extent = parent;
  }
  return extent;
}

/** First row of the comments/attributes stacked directly above the node (no blank line between). */
function leadingStartRow(extent: Node, rules: SyntaxRules): number {
  let startRow = extent.startPosition.row;
  let sibling = nodeAbove(extent, rules);
  while (sibling && rules.leading.has(sibling.type) && lastRow(sibling) >= startRow - 1) {
    // A comment ending the line of the preceding code describes that code, not this definition.
    const before = sibling.previousSibling;
    if (before && !rules.leading.has(before.type) && lastRow(before) >= sibling.startPosition.row) break;
    if (sibling.startPosition.row === 0 && sibling.text.startsWith('#!')) break;
    startRow = Math.min(startRow, sibling.startPosition.row);
    sibling = nodeAbove(sibling, rules);
  }
  return startRow;
}

/**
 * The node before this one. Some grammars file the comment above a definition as the last child of the node before
 * it, or before the list the definition opens (Kotlin's imports, Haskell's declarations): `commentsTrail` looks there.
 */
function nodeAbove(node: Node, rules: SyntaxRules): Node | null {
  let above = node.previousNamedSibling;
  if (!rules.commentsTrail) return above;
  above ??= node.parent?.previousNamedSibling ?? null;
  while (above && !rules.leading.has(above.type) && above.lastNamedChild) above = above.lastNamedChild;
  return above;
}

/** Last row holding the node's text; a node ending at column 0 ends on the previous row. */
function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

/**
 * The top-level blocks of a single-file component (`.vue`, `.svelte`): `<script>` (and `<script setup>`),
 * `<template>` and `<style>`, with the lines and characters each takes, and the name a component gives itself.
 * Pure text scanning, no grammar.
 */

export type BlockTag = 'script' | 'template' | 'style';

export interface SfcBlock {
  tag: BlockTag;
  /** The open tag's attributes as written (` setup lang="ts"`). */
  attrs: string;
  /** 1-based lines of the open and the close tag. */
  openLine: number;
  closeLine: number;
  /** Offsets (in the lines joined by "\n") where the content starts and ends: after the open tag, before the close. */
  contentStart: number;
  contentEnd: number;
}

/** Above this a file is not worth scanning for blocks: generated, or not a component (line windows). */
const MAX_SFC_CHARS = 2_000_000;

const ATTRS = String.raw`(?:[^>"']|"[^"]*"|'[^']*')*`;
/** An HTML comment between blocks, or an open tag of a block (a self-closing one is no block). */
const TOP = new RegExp(`<!--[\\s\\S]*?(?:-->|$)|<(script|template|style)(?=[\\s>/])(${ATTRS})>`, 'gi');
const TEMPLATE_TAG = new RegExp(`<template(?=[\\s>/])${ATTRS}>|</template\\s*>`, 'gi');

/**
 * The top-level blocks in order, or null when the text has none or one is never closed (the caller cuts windows).
 * A block's open tag must begin its line (after indentation or a byte-order mark), as every formatter writes it:
 * a `<script>` quoted in a template's text is then never taken for a block.
 */
export function sfcBlocks(text: string): SfcBlock[] | null {
  if (text.length > MAX_SFC_CHARS) return null;
  const lineOf = lineFinder(text);
  const blocks: SfcBlock[] = [];
  TOP.lastIndex = 0;
  for (let m = TOP.exec(text); m; m = TOP.exec(text)) {
    const tag = m[1]?.toLowerCase() as BlockTag | undefined;
    if (!tag || !beginsLine(text, m.index) || m[2]!.trimEnd().endsWith('/')) continue;
    const contentStart = m.index + m[0].length;
    const close = tag === 'template' ? templateClose(text, contentStart) : closeOf(text, tag, contentStart);
    if (!close) return null;
    blocks.push({ tag, attrs: m[2]!, openLine: lineOf(m.index), closeLine: lineOf(close.start), contentStart, contentEnd: close.start });
    TOP.lastIndex = close.end;
  }
  return blocks.length ? blocks : null;
}

/**
 * The name a component gives itself, from a script's text: Vue's options object (`export default { name: 'UserList'`,
 * `defineComponent({ name: … })`) or `defineOptions({ name: … })`, as a property of that object (not a nested one).
 */
export function componentName(script: string): string | null {
  const opener = /(?:export\s+default\s*(?:defineComponent\s*\(\s*)?|defineOptions\s*\(\s*|Vue\.extend\s*\(\s*)\{[ \t]*/g;
  for (let m = opener.exec(script); m; m = opener.exec(script)) {
    const rest = script.slice(m.index + m[0].length, m.index + m[0].length + NAME_SEARCH_CHARS);
    // `defineOptions({ name: 'SystemDept' })` on one line: the name is its first property.
    const inline = /^name\s*:\s*(['"`])([A-Za-z][\w$-]{0,80})\1/.exec(rest);
    if (inline) return inline[2]!;
    if (!/^\r?\n/.test(rest)) continue;
    const body = rest.split('\n').slice(1);
    const indent = body.find((l) => l.trim())?.match(/^[ \t]*/)?.[0].length ?? 0;
    for (const line of body) {
      if (!line.trim()) continue;
      const own = line.match(/^[ \t]*/)![0].length;
      if (own < indent) break;
      const name = own === indent ? /^\s*name\s*:\s*(['"`])([A-Za-z][\w$-]{0,80})\1/.exec(line) : null;
      if (name) return name[2]!;
    }
  }
  return null;
}

/** Enough of an options object to reach its `name` past `components`, `props` and the like. */
const NAME_SEARCH_CHARS = 4_000;

function closeOf(text: string, tag: BlockTag, from: number): { start: number; end: number } | null {
  const re = new RegExp(`</${tag}\\s*>`, 'gi');
  re.lastIndex = from;
  const m = re.exec(text);
  return m ? { start: m.index, end: m.index + m[0].length } : null;
}

/** The `</template>` closing the top-level one: nested `<template v-if>` / `<template #slot>` open and close inside. */
function templateClose(text: string, from: number): { start: number; end: number } | null {
  let depth = 1;
  TEMPLATE_TAG.lastIndex = from;
  for (let m = TEMPLATE_TAG.exec(text); m; m = TEMPLATE_TAG.exec(text)) {
    if (m[0][1] === '/') depth--;
    else if (!m[0].endsWith('/>')) depth++;
    if (depth === 0) return { start: m.index, end: m.index + m[0].length };
  }
  return null;
}

function beginsLine(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === '\n') return true;
    if (c !== ' ' && c !== '\t' && c !== '\uFEFF') return false;
  }
  return true;
}

/** Offset → 1-based line, by binary search over the line starts. */
function lineFinder(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

import { parseJsonc, type JsoncMember, type JsoncNode } from './jsonc.js';

/**
 * Sets `keys` to `value` in a JSONC text by editing the text: the member's value is replaced, or a member is
 * added at the end of the nearest object on the path; comments and formatting elsewhere stay byte for byte.
 * The text must hold an object (parseJsonc throws otherwise).
 */
export function setJsoncEntry(text: string, keys: string[], value: unknown): string {
  let node = parseJsonc(text);
  if (node.kind !== 'object') throw new TypeError('not an object');
  for (let depth = 0; depth < keys.length; depth++) {
    const member: JsoncMember | undefined = lastMember(node as Extract<JsoncNode, { kind: 'object' }>, keys[depth]);
    const rest = keys.slice(depth + 1);
    if (!member) return insertMember(text, node as Extract<JsoncNode, { kind: 'object' }>, keys[depth], nest(rest, value));
    if (rest.length === 0 || member.value.kind !== 'object') {
      const indent = lineIndent(text, member.start);
      return text.slice(0, member.value.start) + render(nest(rest, value), indent) + text.slice(member.value.end);
    }
    node = member.value;
  }
  return text;
}

/** Removes the member at `keys` (and a parent object it leaves empty); the text is unchanged when it is absent. */
export function removeJsoncEntry(text: string, keys: string[]): string {
  const path: { object: Extract<JsoncNode, { kind: 'object' }>; member: JsoncMember }[] = [];
  let node = parseJsonc(text);
  for (const key of keys) {
    if (node.kind !== 'object') return text;
    const member = lastMember(node, key);
    if (!member) return text;
    path.push({ object: node, member });
    node = member.value;
  }
  // Drop the innermost member whose object keeps other members; parents left empty go with it, the root stays.
  let at = path.length - 1;
  while (at > 0 && path[at].object.members.length === 1) at--;
  const { object, member } = path[at];
  if (object.members.length === 1) return text.slice(0, object.start + 1) + text.slice(object.end - 1);
  const index = object.members.indexOf(member);
  const ownLine = lineStartIfBlank(text, member.start);
  const from = ownLine ?? member.start;
  if (index < object.members.length - 1) {
    // A member followed by others: it goes with its comma (and its line, when it had one of its own).
    const to = ownLine === null ? member.comma! : member.comma! + (/^[ \t]*\n/.exec(text.slice(member.comma!))?.[0].length ?? 0);
    return text.slice(0, from) + text.slice(to);
  }
  // The last member: it goes, and so does the comma before it, so no trailing comma is left where there was none.
  const previous = object.members[index - 1];
  const to = member.comma ?? member.value.end;
  const cut = text.slice(0, from) + text.slice(to);
  const comma = previous.comma! - 1;
  const tail = ownLine === null ? cut : cut.slice(0, from).replace(/\n[ \t]*$/, '') + cut.slice(from);
  return member.comma === null ? tail.slice(0, comma) + tail.slice(comma + 1) : tail;
}

function insertMember(text: string, object: Extract<JsoncNode, { kind: 'object' }>, key: string, value: unknown): string {
  const last = object.members[object.members.length - 1];
  if (!last) {
    const indent = lineIndent(text, object.start);
    const inner = indent + '  ';
    return `${text.slice(0, object.start + 1)}\n${inner}${JSON.stringify(key)}: ${render(value, inner)}\n${indent}${text.slice(object.end - 1)}`;
  }
  const indent = lineIndent(text, last.start);
  const member = `${JSON.stringify(key)}: ${render(value, indent)}`;
  if (last.comma !== null) return `${text.slice(0, last.comma)}\n${indent}${member},${text.slice(last.comma)}`;
  return `${text.slice(0, last.value.end)},\n${indent}${member}${text.slice(last.value.end)}`;
}

/** The member a reader sees: with a key given twice, JSON parsers take the last. */
function lastMember(object: Extract<JsoncNode, { kind: 'object' }>, key: string): JsoncMember | undefined {
  for (let i = object.members.length - 1; i >= 0; i--) if (object.members[i].key === key) return object.members[i];
  return undefined;
}

/** The value wrapped in one object per key, outermost first: nest(['a', 'b'], 1) is {a: {b: 1}}. */
export function nest(keys: string[], value: unknown): unknown {
  return keys.reduceRight((inner, key) => ({ [key]: inner }), value);
}

/** JSON of the value, two spaces a level, its lines after the first indented to sit under `indent`. */
function render(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** The whitespace that starts the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/** The start of the line holding `offset` when only whitespace precedes it there, else null. */
function lineStartIfBlank(text: string, offset: number): number | null {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, offset)) ? lineStart : null;
}

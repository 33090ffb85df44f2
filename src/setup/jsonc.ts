/**
 * A JSON-with-comments reader that keeps where every value sits in the text, so an edit can replace or insert one
 * member and leave every other byte (comments, formatting, trailing commas) as it was. VS Code and Zed read their
 * settings this way; strict JSON is a subset.
 */
export type JsoncNode =
  | { kind: 'object'; start: number; end: number; members: JsoncMember[] }
  | { kind: 'array' | 'scalar'; start: number; end: number };

export interface JsoncMember {
  key: string;
  /** From the key's opening quote to the end of its value. */
  start: number;
  value: JsoncNode;
  /** Just past the comma after the value, if there is one. */
  comma: number | null;
}

export class JsoncSyntaxError extends Error {}

/** Parses the text (comments and trailing commas allowed); throws JsoncSyntaxError with the offset. */
export function parseJsonc(text: string): JsoncNode {
  let i = 0;
  const fail = (what: string): never => {
    throw new JsoncSyntaxError(`${what} at offset ${i}`);
  };
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i])) i++;
      if (text.startsWith('//', i)) {
        while (i < text.length && text[i] !== '\n') i++;
      } else if (text.startsWith('/*', i)) {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) fail('unclosed comment');
        i = close + 2;
      } else return;
    }
  };
  const string = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unclosed string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsoncNode => {
    skip();
    const start = i;
    if (text[i] === '{') {
      i++;
      const members: JsoncMember[] = [];
      for (;;) {
        skip();
        if (text[i] === '}') break;
        if (text[i] !== '"') fail('expected a key');
        const memberStart = i;
        const key = string();
        skip();
        if (text[i++] !== ':') fail('expected ":"');
        const member: JsoncMember = { key, start: memberStart, value: value(), comma: null };
        members.push(member);
        skip();
        if (text[i] === ',') member.comma = ++i;
        else if (text[i] !== '}') fail('expected "," or "}"');
      }
      return { kind: 'object', start, end: ++i, members };
    }
    if (text[i] === '[') {
      i++;
      for (;;) {
        skip();
        if (text[i] === ']') break;
        value();
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected "," or "]"');
      }
      return { kind: 'array', start, end: ++i };
    }
    if (text[i] === '"') {
      string();
      return { kind: 'scalar', start, end: i };
    }
    const literal = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) fail('unexpected character');
    i += literal![0].length;
    return { kind: 'scalar', start, end: i };
  };
  const root = value();
  skip();
  if (i < text.length) fail('unexpected text after the value');
  return root;
}

/** The plain value of a node (comments dropped). */
export function jsoncValue(text: string, node: JsoncNode): unknown {
  if (node.kind === 'object') return Object.fromEntries(node.members.map((m) => [m.key, jsoncValue(text, m.value)]));
  return JSON.parse(stripJsonc(text.slice(node.start, node.end)));
}

/** The text with comments and trailing commas removed: strict JSON with the same value. */
function stripJsonc(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, i + 1);
    } else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      if (close < 0) break;
      i = close + 1;
    } else out += text[i];
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

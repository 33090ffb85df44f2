import { OcragError } from '../util/errors.js';

/**
 * Sets keys of one `[a.b]` table in a TOML file by editing its text: the rest of the file (comments, other
 * tables, other keys of this table and its sub-tables such as `[a.b.env]`) is left exactly as it was.
 * `values` are TOML literals (see `tomlString`, `tomlArray`).
 */
export function upsertTomlTable(existing: string | null, file: string, table: string[], values: [string, string][]): string {
  const text = existing ?? '';
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
  const header = lines.findIndex((line) => isHeader(line, table));
  const assignments = values.map(([key, literal]) => `${key} = ${literal}`);
  if (header < 0) {
    if (definedElsewhere(text, table)) {
      throw new OcragError(`${file} defines ${table.join('.')} in a form ocrag setup does not edit (inline or dotted keys); replace it by hand with:\n[${table.join('.')}]\n${assignments.join('\n')}`);
    }
    const gap = lines.length && lines[lines.length - 1].trim() !== '' ? [''] : [];
    return [...lines, ...gap, `[${table.join('.')}]`, ...assignments].join('\n') + '\n';
  }
  let end = header + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end])) end++;
  const keys = new Set(values.map(([key]) => key));
  const kept: string[] = [];
  for (let i = header + 1; i < end; i++) {
    const key = /^\s*([A-Za-z0-9_-]+)\s*=/.exec(lines[i])?.[1];
    if (key && keys.has(key)) {
      i = endOfValue(lines, i, end);
      continue;
    }
    kept.push(lines[i]);
  }
  return [...lines.slice(0, header + 1), ...assignments, ...kept, ...lines.slice(end)].join('\n') + '\n';
}

/**
 * Takes the `[a.b]` table and its sub-tables (`[a.b.env]`) out of a TOML file's text, with the blank line setup
 * put before it; the rest stays as it was. Null when nothing else is left.
 */
export function removeTomlTable(existing: string, table: string[]): string | null {
  const lines = existing.replace(/\n$/, '').split('\n');
  const header = lines.findIndex((line) => isHeader(line, table));
  if (header < 0) return existing;
  const prefix = new RegExp(`^\\s*\\[${table.map(escape).join('\\.')}\\.`);
  let end = header + 1;
  while (end < lines.length && (!/^\s*\[/.test(lines[end]) || prefix.test(lines[end]))) end++;
  const start = header > 0 && lines[header - 1].trim() === '' ? header - 1 : header;
  const kept = [...lines.slice(0, start), ...lines.slice(end)];
  while (kept.length && kept[0].trim() === '' && start === 0) kept.shift();
  return kept.join('\n').trim() === '' ? null : kept.join('\n') + '\n';
}

/** A TOML basic string; JSON's escapes are a subset of TOML's. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

export function tomlArray(values: string[]): string {
  return `[${values.map(tomlString).join(', ')}]`;
}

function isHeader(line: string, table: string[]): boolean {
  const key = table.map((part) => `\\s*(?:${escape(part)}|"${escape(part)}"|'${escape(part)}')\\s*`).join('\\.');
  return new RegExp(`^\\s*\\[${key}\\]\\s*(#.*)?$`).test(line);
}

function definedElsewhere(text: string, table: string[]): boolean {
  const [parent, name] = [table.slice(0, -1).map(escape).join('\\s*\\.\\s*'), escape(table[table.length - 1])];
  return new RegExp(`^\\s*(${parent}\\s*\\.\\s*)?"?${name}"?\\s*(=|\\.)`, 'm').test(text) || new RegExp(`^\\s*\\[${parent}\\.${name}\\.`, 'm').test(text);
}

/** The last line of the value that starts at line i (arrays and multi-line strings may span lines). */
function endOfValue(lines: string[], i: number, end: number): number {
  const value = lines[i].slice(lines[i].indexOf('=') + 1);
  if (/^\s*("""|''')/.test(value) && !/("""|''').*("""|''')/.test(value.trim())) {
    const quote = value.trim().slice(0, 3);
    while (i + 1 < end && !lines[i + 1].includes(quote)) i++;
    return Math.min(i + 1, end - 1);
  }
  let depth = bracketDepth(value);
  while (depth > 0 && i + 1 < end) depth += bracketDepth(lines[++i]);
  return i;
}

function bracketDepth(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') break;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

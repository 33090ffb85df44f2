const BEGIN = '<!-- ocrag:begin (written by `ocrag setup`; edits inside are replaced on the next run) -->';
const END = '<!-- ocrag:end -->';

/** Puts `block` between ocrag's markers in a shared Markdown file (AGENTS.md), replacing a previous one, keeping the rest. */
export function upsertMarkdownBlock(existing: string | null, block: string): string {
  const marked = `${BEGIN}\n${block.trim()}\n${END}`;
  const text = existing ?? '';
  const start = text.indexOf('<!-- ocrag:begin');
  const stop = text.indexOf(END);
  if (start >= 0 && stop > start) return text.slice(0, start) + marked + text.slice(stop + END.length);
  if (text.trim() === '') return `${marked}\n`;
  return `${text.replace(/\n*$/, '\n\n')}${marked}\n`;
}

/** Takes ocrag's block (and the blank line setup put before it) out of a shared Markdown file; null when nothing else is left. */
export function removeMarkdownBlock(existing: string): string | null {
  const start = existing.indexOf('<!-- ocrag:begin');
  const stop = existing.indexOf(END);
  if (start < 0 || stop < start) return existing;
  const before = existing.slice(0, start).replace(/\n\n$/, '\n');
  const after = existing.slice(stop + END.length).replace(/^\n/, '');
  const text = before + after;
  return text.trim() === '' ? null : text;
}

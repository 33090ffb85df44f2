/**
 * Text from a repository as a terminal may show it. A file can hold escape sequences that a terminal obeys rather
 * than shows (ESC `]52;c;…` sets the clipboard, ESC `[1A` ESC `[2K` erases the line above, a title sequence, a
 * hyperlink), and bidirectional controls that make the code read otherwise than it runs (the "Trojan Source"
 * reorderings, U+202A–U+202E, U+2066–U+2069). At a terminal each becomes visible instead: `\x1b`, `<U+202E>`. Tabs
 * stay; every other character, Chinese included, is untouched. JSON, XML and markdown, and text written to a pipe,
 * keep the bytes as they are: there nothing interprets them.
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visibleControls(text: string): string {
  return text.replace(HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

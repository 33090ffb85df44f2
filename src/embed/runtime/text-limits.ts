/** Upper bound on tokens embedded per text, whatever the model allows: bounds time on huge inputs. */
export const MAX_TOKENS = 8192;

/**
 * Texts are cut to this many UTF-16 units before tokenizing (tokenizing is linear in characters,
 * and a minified bundle can be megabytes). Both code paths cut identically, so they stay equal.
 */
export const MAX_CHARS = 4 * MAX_TOKENS;

export function clipText(text: string): string {
  if (text.length <= MAX_CHARS) return text;
  const cut = text.charCodeAt(MAX_CHARS - 1);
  const endsInsidePair = cut >= 0xd800 && cut <= 0xdbff;
  return text.slice(0, endsInsidePair ? MAX_CHARS - 1 : MAX_CHARS);
}

/** Whitespace-only texts embed to the zero vector on every path (the interface's "empty input"). */
export function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

/** Untrusted text for an error message: quoted, escaped (no terminal control codes), and cut short. */
export function shown(value: string): string {
  const quoted = JSON.stringify(value.length > 160 ? `${value.slice(0, 160)}…` : value);
  // JSON escapes C0 controls only; DEL and C1 (U+009B starts a terminal escape too) are escaped here.
  return quoted.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

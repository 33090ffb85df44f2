import { colorRefused } from '../workspace/environment.js';
import type { Paint } from '../render/text.js';
import { visibleControls } from '../render/terminal-text.js';

export { formatBytes } from '../render/bytes.js';

/** Colours only for a person at a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(stream: NodeJS.WriteStream): boolean {
  return !!stream.isTTY && !colorRefused();
}

export function paint(stream: NodeJS.WriteStream): Paint {
  const on = useColor(stream);
  const wrap = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  // A terminal obeys escape sequences in a file's text: shown visibly there, whatever NO_COLOR says.
  const literal = stream.isTTY ? visibleControls : (s: string) => s;
  return { bold: wrap(1, 22), dim: wrap(2, 22), cyan: wrap(36, 39), green: wrap(32, 39), yellow: wrap(33, 39), red: wrap(31, 39), literal };
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Writes a notice line to stderr (never stdout, which belongs to the command's data). */
export function notice(message: string): void {
  process.stderr.write(message + '\n');
}

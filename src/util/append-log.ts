import fs from 'node:fs';

const MAX_LOG_BYTES = 1024 * 1024;

/** Appends a timestamped line to .ocrag/log, keeping the newest half when it grows past 1 MiB. Never throws. */
export function appendLog(file: string, message: string): void {
  try {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size > MAX_LOG_BYTES) {
      const text = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, text.slice(text.indexOf('\n', text.length / 2) + 1));
    }
    fs.appendFileSync(file, `${new Date().toISOString()} [${process.pid}] ${message}\n`);
  } catch {
    // Logging must never be the reason a hook run fails.
  }
}

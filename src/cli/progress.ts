import { progressPercent, type IndexProgress } from '../workspace/types.js';
import { rateText, timeLeftText } from '../render/progress.js';

/** A one-line progress bar on stderr for a person at a terminal; silent when stderr is piped or a file. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): { update: (p: IndexProgress) => void; done: () => void } {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = Date.now();
      // Listing, before anything is known to be done, draws nothing.
      if (p.blobsTotal === 0 || (p.blobsDone < p.blobsTotal && now - last < 100)) return;
      last = now;
      stream.write(`\r\x1b[2K${progressLine(p, (stream.columns || 80) - 1)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

/** The bar is this wide when the line has room, and never narrower than the minimum. */
const BAR_WIDTH = 24;
const MIN_BAR_WIDTH = 10;

/**
 * The bar's line within `columns`: bar, percent and phase first; a narrow terminal narrows the bar, then loses the
 * time left, the rate, the chunks and the files, never a word cut in half (at 80 columns it showed "embeddi").
 */
export function progressLine(p: IndexProgress, columns: number): string {
  const percent = progressPercent(p);
  const head = `${String(percent).padStart(3)}% ${p.phase}`;
  const parts = [`files ${p.blobsDone}/${p.blobsTotal}`, `chunks ${p.chunks}`, rateText(p.chunksPerSecond), timeLeftText(p.secondsLeft)].filter(Boolean);
  const fit = (bar: number, n: number) => [barOf(percent, bar) + head, ...parts.slice(0, n)].join('  ');
  for (let n = parts.length; n >= 0; n--) {
    for (let bar = BAR_WIDTH; bar >= MIN_BAR_WIDTH; bar -= 2) if ([...fit(bar, n)].length <= columns) return fit(bar, n);
  }
  return [...head].slice(0, Math.max(0, columns)).join('');
}

function barOf(percent: number, width: number): string {
  const filled = Math.round((percent / 100) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)} `;
}

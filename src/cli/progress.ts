import { progressPercent, type IndexProgress } from '../workspace/types.js';

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
      const width = 24;
      const ratio = progressPercent(p) / 100;
      const filled = Math.round(ratio * width);
      const bar = '█'.repeat(filled) + '░'.repeat(width - filled);
      const line = `${bar} ${Math.round(ratio * 100)}%  files ${p.blobsDone}/${p.blobsTotal}  chunks ${p.chunks}  ${Math.round(p.chunksPerSecond)} chunks/s  ${p.phase}`;
      stream.write(`\r\x1b[2K${line.slice(0, (stream.columns || 80) - 1)}`);
      drawn = true;
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}

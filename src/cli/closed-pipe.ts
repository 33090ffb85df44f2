/**
 * A reader that stops early (`ocrag search … | head`) closes the pipe: the rest of the output has nobody to go to,
 * which is no error of ocrag's, so the process ends quietly (exit 0 unless a code was set) instead of dying on an
 * unhandled EPIPE. The installed command (bin.ts) sets this first; main.ts has its own copy.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode === undefined ? 0 : Number(process.exitCode));
      throw e;
    });
  }
}

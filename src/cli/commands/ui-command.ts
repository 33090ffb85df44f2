import type { Command } from 'commander';
import { OcragError } from '../../util/errors.js';
import { configFlags, workDir } from '../options.js';

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('serve the index panel in your browser: state, a live index run with index, rebuild and cancel, search, sources, doctor')
    .option('--port <n>', 'listen on this port of 127.0.0.1 (default 0: any free one)', portOf, 0)
    .option('--no-open', 'print the address only; do not open a browser')
    .option('--json', 'print {url, port, token} as JSON once listening')
    .addHelpText(
      'after',
      '\nListens on 127.0.0.1 only. The address carries a one-time token; the page sends it with every request, and\nrequests with another Host or Origin are refused. Runs until Ctrl-C.',
    )
    .action(async (opts: { port: number; open: boolean; json?: boolean }, cmd: Command) => {
      // Loaded on demand, like every command's heavy part.
      const { serveUi } = await import('../../ui/serve.js');
      await serveUi({
        cwd: workDir(cmd),
        flags: configFlags(cmd),
        port: opts.port,
        open: opts.open,
        log: (message) => process.stderr.write(`${message}\n`),
        onListening: (where) =>
          process.stdout.write(opts.json ? `${JSON.stringify(where)}\n` : `ocrag ui: ${where.url}\n(Ctrl-C stops it)\n`),
      });
    });
}

function portOf(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 65535) throw new OcragError(`--port must be a whole number from 0 to 65535, got "${value}"`);
  return n;
}

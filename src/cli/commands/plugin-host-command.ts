import type { Command } from 'commander';
import { runPluginHost } from '../../plugin/host.js';

export function registerPluginHost(program: Command): void {
  // Internal: what the OpenCode plugin starts once and sends its tool calls to (src/plugin/host.ts). Hidden.
  program
    .command('plugin-host', { hidden: true })
    .description('answer an editor plugin\'s tool calls, one JSON line each on stdin, until stdin closes')
    .action(async () => {
      await runPluginHost();
    });
}

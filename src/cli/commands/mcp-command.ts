import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { toolIds } from '../../render/contract/tools.js';
import { configFlags, workDir } from '../options.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(`serve the index to an AI agent over MCP (stdio): ${toolIds('mcp').join(', ')}`)
    .option('--repo <dir>', 'answer for the repository containing <dir> (default: the working directory)')
    .addHelpText(
      'after',
      '\nStarted by the agent, not by you: see `ocrag setup claude|opencode|cursor|codex`. The model loads once per\nserver; before each search the index is brought up to date with HEAD, as the CLI does. Logs go to stderr.',
    )
    .action(async (opts: { repo?: string }, cmd: Command) => {
      // Loaded on demand: the SDK and zod would otherwise slow down every other command's start.
      const { serveStdio } = await import('../../mcp/server.js');
      const { dir, named } = repoDir(opts.repo, workDir(cmd));
      // A folder the user named may become a knowledge base; the folder an agent happened to start in may not.
      await serveStdio({ cwd: dir, flags: configFlags(cmd), plain: named ? 'create' : 'existing' });
    });
}

/** An agent that does not expand `${workspaceFolder}` passes it literally: then the working directory is the best guess. */
function repoDir(repo: string | undefined, cwd: string): { dir: string; named: boolean } {
  if (!repo) return { dir: cwd, named: false };
  const dir = path.resolve(cwd, repo);
  if (repo.includes('${') && !fs.existsSync(dir)) {
    process.stderr.write(`ocrag mcp: --repo ${repo} was not expanded by the client; serving ${cwd}\n`);
    return { dir: cwd, named: false };
  }
  return { dir, named: true };
}

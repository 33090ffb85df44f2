import type { Command } from 'commander';
import { openRepo } from '../../git/repo.js';
import { AGENT_IDS, AGENTS, type AgentId } from '../../setup/agents.js';
import { applyPlan, planSetup } from '../../setup/apply.js';
import { resolveLauncher, type Launcher } from '../../setup/launcher.js';
import { UsageError } from '../../util/errors.js';
import { workDir } from '../options.js';
import { paint } from '../output.js';

export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description('connect an AI agent to this repository: write its project MCP config and a short note on when to use ocrag')
    .argument('<agents...>', `${AGENT_IDS.join(', ')} or all`)
    .option('--print', 'show the files as they would be written; change nothing')
    .option('--absolute', 'start ocrag by absolute path (node + dist/cli/main.js) even when it is on PATH')
    .addHelpText(
      'after',
      `
Files (in the repository root; existing ones are merged, never replaced; running it again changes nothing):
  claude     .mcp.json + .claude/skills/ocrag/SKILL.md
  opencode   opencode.json + .opencode/skills/ocrag/SKILL.md
  cursor     .cursor/mcp.json + .cursor/rules/ocrag.mdc
  codex      .codex/config.toml + a marked section of AGENTS.md

The server is started as "ocrag mcp" when the ocrag on PATH is this installation (portable: commit the files),
else as "<node> <this install>/dist/cli/main.js mcp" (works without PATH; specific to this machine).`,
    )
    .action(async (names: string[], opts: { print?: boolean; absolute?: boolean }, cmd: Command) => {
      const agents = parseAgents(names);
      const root = (await openRepo(workDir(cmd))).root;
      const launcher = resolveLauncher({ absolute: opts.absolute });
      const plan = planSetup(root, agents.map((id) => AGENTS[id]), launcher);
      const p = paint(process.stderr);
      process.stderr.write(`${describeLauncher(launcher)}\n`);
      if (opts.print) {
        for (const file of plan) process.stdout.write(`${file.path}  (${file.agent}: ${file.change === 'unchanged' ? 'unchanged' : `would ${file.change}`})\n${file.after}\n`);
        return;
      }
      applyPlan(root, plan);
      for (const file of plan) {
        const label = file.change === 'unchanged' ? p.dim('unchanged') : p.green(file.change === 'create' ? 'created  ' : 'updated  ');
        process.stderr.write(`${label} ${file.path}  ${p.dim(`(${file.agent})`)}\n`);
      }
      process.stderr.write(`Restart the agent (or reload its MCP servers) in ${root} to use ocrag.${agents.includes('codex') ? ' Codex reads .codex/config.toml only in trusted projects.' : ''}\n`);
    });
}

function parseAgents(names: string[]): AgentId[] {
  const ids = new Set<AgentId>();
  for (const name of names.map((n) => n.toLowerCase())) {
    if (name === 'all') AGENT_IDS.forEach((id) => ids.add(id));
    else if ((AGENT_IDS as readonly string[]).includes(name)) ids.add(name as AgentId);
    else throw new UsageError(`unknown agent "${name}": choose from ${AGENT_IDS.join(', ')} or all`);
  }
  return [...ids];
}

function describeLauncher(l: Launcher): string {
  return l.kind === 'path'
    ? 'ocrag: agents will start "ocrag mcp" (the ocrag on PATH is this installation)'
    : `ocrag: agents will start "${[l.command, ...l.args].join(' ')} mcp" (the ocrag on PATH, if any, is not this installation; after "npm link" run setup again for a portable config)`;
}

import type { Command } from 'commander';
import { agentRoot } from '../../workspace/machine.js';
import { AGENT_IDS, AGENTS, type AgentId, type AgentTarget } from '../../setup/agents.js';
import { applyPlan, planRemoval, planSetup, type PlannedFile } from '../../setup/apply.js';
import { resolveLauncher, type Launcher } from '../../setup/launcher.js';
import { OcragError } from '../../util/errors.js';
import { workDir } from '../options.js';
import { paint, printJson } from '../output.js';

interface SetupFlags {
  print?: boolean;
  absolute?: boolean;
  remove?: boolean;
  json?: boolean;
}

export function registerSetup(program: Command): void {
  program
    .command('setup')
    .description('connect an AI agent to this repository: write its project MCP config and a short note on when to use ocrag')
    .argument('<agents...>', `${AGENT_IDS.join(', ')} or all`)
    .option('--print', 'show the files as they would be written; change nothing')
    .option('--absolute', 'start ocrag by absolute path (node + dist/cli/main.js) even when it is on PATH')
    .option('--remove', "take ocrag's entries and files out again; the rest of each file stays")
    .option('--json', 'print [{agent, path, change}] as JSON (with --print, each file\'s content as "after")')
    .addHelpText(
      'after',
      `
Files (in the repository root; existing ones are merged, never replaced; running it again changes nothing):
  claude     .mcp.json + .claude/skills/ocrag/SKILL.md
  opencode   .opencode/plugin/ocrag.ts (the ocrag_* tools) + .opencode/skills/ocrag/SKILL.md; no MCP server
             (an ocrag entry an earlier setup put in opencode.json is taken out)
  cursor     .cursor/mcp.json + .cursor/rules/ocrag.mdc
  codex      .codex/config.toml + a marked section of AGENTS.md
  vscode     .vscode/mcp.json (comments kept) + a marked section of AGENTS.md (GitHub Copilot)
  gemini     .gemini/settings.json + a marked section of GEMINI.md
  zed        .zed/settings.json (comments kept) + a marked section of AGENTS.md
  roo        .roo/mcp.json + .roo/rules/ocrag.md
  windsurf, cline: their MCP config is per user only; nothing is written, the entry to add is printed.
"all" is every agent with a project config.

The server is started as "ocrag mcp" when the ocrag on PATH is this installation (portable: commit the files),
else as "<node> <this install>/dist/cli/main.js mcp" (works without PATH; specific to this machine).`,
    )
    .action(async (names: string[], opts: SetupFlags, cmd: Command) => {
      if (opts.remove && opts.absolute) throw new OcragError('--remove takes ocrag out; --absolute only says how to start it: use one');
      const agents = parseAgents(names).map((id) => AGENTS[id]);
      const { root, unindexedFolder } = await agentRoot(workDir(cmd));
      const launcher = resolveLauncher({ absolute: opts.absolute });
      const plan = (opts.remove ? planRemoval : planSetup)(root, agents, launcher);
      const p = paint(process.stderr);
      if (!opts.remove && !opts.json) process.stderr.write(`${describeLauncher(launcher)}\n`);
      if (opts.print) {
        if (opts.json) return printJson(plan.map((f) => ({ agent: f.agent, path: f.path, change: f.change, after: f.after })));
        for (const file of plan) process.stdout.write(`${file.path}  (${file.agent}: ${file.change === 'unchanged' ? 'unchanged' : `would ${file.change}`})\n${file.after ?? ''}\n`);
        return;
      }
      applyPlan(root, plan);
      if (opts.json) return printJson(plan.map((f) => ({ agent: f.agent, path: f.path, change: f.change })));
      for (const file of plan) process.stderr.write(`${changeLabel(file, p)} ${file.path}  ${p.dim(`(${file.agent})`)}\n`);
      if (!opts.remove) for (const agent of agents.filter((a) => a.userLevelOnly)) process.stderr.write(userLevelNote(agent, launcher));
      if (opts.remove) return;
      if (unindexedFolder) process.stderr.write(`${root} is a plain folder (no git): run "ocrag index" there once to make it a knowledge base the agent can search.\n`);
      if (plan.length) process.stderr.write(`Restart the agent (or reload its MCP servers) in ${root} to use ocrag.${agents.some((a) => a.id === 'codex') ? ' Codex reads .codex/config.toml only in trusted projects.' : ''}\n`);
    });
}

function changeLabel(file: PlannedFile, p: ReturnType<typeof paint>): string {
  if (file.change === 'unchanged') return p.dim('unchanged');
  return p.green({ create: 'created  ', update: 'updated  ', delete: 'deleted  ' }[file.change]);
}

/** An agent without a project config: say so, and give the entry for its own file. */
function userLevelNote(agent: AgentTarget, launcher: Launcher): string {
  const only = agent.userLevelOnly!;
  const entry = JSON.stringify({ [only.keys[0]]: { [only.keys[1]]: only.entry(launcher) } }, null, 2);
  return `${agent.name} has no project-level MCP config, so nothing was written; add this to ${only.config}:\n${entry}\n`;
}

function parseAgents(names: string[]): AgentId[] {
  const ids = new Set<AgentId>();
  for (const name of names.map((n) => n.toLowerCase())) {
    if (name === 'all') AGENT_IDS.filter((id) => !AGENTS[id].userLevelOnly).forEach((id) => ids.add(id));
    else if ((AGENT_IDS as readonly string[]).includes(name)) ids.add(name as AgentId);
    else throw new OcragError(`unknown agent "${name}": choose from ${AGENT_IDS.join(', ')} or all`);
  }
  return [...ids];
}

function describeLauncher(l: Launcher): string {
  return l.kind === 'path'
    ? 'ocrag: agents will start "ocrag mcp" (the ocrag on PATH is this installation)'
    : `ocrag: agents will start "${[l.command, ...l.args].join(' ')} mcp" (the ocrag on PATH, if any, is not this installation; after "npm link" run setup again for a portable config)`;
}


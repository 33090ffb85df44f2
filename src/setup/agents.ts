import { agentsSection, cursorRule, skillFile } from './instructions.js';
import { isObject, mergeJsonEntry, parseJsonObject, removeJsonEntry } from './json-config.js';
import type { FileEdit } from './file-edit.js';
import { jsoncEntry } from './jsonc-config.js';
import { ENTRY_SCRIPT, type Launcher } from './launcher.js';
import { removeMarkdownBlock, upsertMarkdownBlock } from './markdown-block.js';
import { OPENCODE_PLUGIN_PATH, opencodePlugin } from './opencode-plugin.js';
import { removeTomlTable, tomlArray, tomlString, upsertTomlTable } from './toml-table.js';

export const SERVER_NAME = 'ocrag';
export const AGENT_IDS = ['claude', 'opencode', 'cursor', 'codex', 'vscode', 'gemini', 'zed', 'roo', 'windsurf', 'cline'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export interface AgentTarget {
  id: AgentId;
  name: string;
  edits(launcher: Launcher): FileEdit[];
  /** An agent whose MCP config is the user's alone (no project file): setup writes nothing and says where the entry goes. */
  userLevelOnly?: { config: string; keys: string[]; entry(launcher: Launcher): unknown };
}

/** A JSON config where ocrag owns one entry; `seed` is what a new file starts with. */
function jsonEntry(path: string, keys: string[], entry: unknown, seed: Record<string, unknown> = {}): FileEdit {
  return {
    path,
    render: (text) => mergeJsonEntry(text, path, keys, entry, seed),
    remove: (text) => removeJsonEntry(text, path, keys, seed),
  };
}

/** A file only ocrag writes: its content is ours whatever was there, and it goes whole. */
function ownFile(path: string, content: string): FileEdit {
  return { path, render: () => content, remove: () => null };
}

const mcpArgs = (l: Launcher, ...extra: string[]) => [...l.args, 'mcp', ...extra];

export const AGENTS: Record<AgentId, AgentTarget> = {
  // https://code.claude.com/docs/en/mcp: project scope is .mcp.json at the root, started in the project folder.
  claude: {
    id: 'claude',
    name: 'Claude Code',
    edits: (l) => [
      jsonEntry('.mcp.json', ['mcpServers', SERVER_NAME], { type: 'stdio', command: l.command, args: mcpArgs(l) }),
      ownFile('.claude/skills/ocrag/SKILL.md', skillFile('mcp')),
    ],
  },
  // OpenCode loads every .opencode/plugin/*.ts by itself (https://opencode.ai/docs/plugins): the plugin gives it the
  // whole tool set, answered by one warm `ocrag plugin-host`. The MCP server is not registered beside it (its tools
  // would be a second set for the same jobs), and an entry an earlier setup put in opencode.json is taken out:
  // "mcp" maps names to {type: "local", command: [...]}, or V2's native shape nests them under "mcp.servers".
  opencode: {
    id: 'opencode',
    name: 'OpenCode',
    edits: () => {
      const seed = { $schema: 'https://opencode.ai/config.json' };
      const v2 = (text: string | null) => isObject(parseJsonObject(text)?.mcp) && isObject((parseJsonObject(text)!.mcp as Record<string, unknown>).servers);
      const keys = (text: string | null) => (v2(text) ? ['mcp', 'servers', SERVER_NAME] : ['mcp', SERVER_NAME]);
      const withoutServer = (text: string | null) => (text === null ? null : removeJsonEntry(text, 'opencode.json', keys(text), seed));
      return [
        { path: 'opencode.json', render: withoutServer, remove: withoutServer },
        ownFile('.opencode/skills/ocrag/SKILL.md', skillFile('opencode')),
        ownFile(OPENCODE_PLUGIN_PATH, opencodePlugin({ node: process.execPath, entry: ENTRY_SCRIPT })),
      ];
    },
  },
  // https://cursor.com/docs/mcp: .cursor/mcp.json has Claude Desktop's shape; Cursor expands ${workspaceFolder},
  // and does not promise to start servers in the project folder, so the repository is passed explicitly.
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    edits: (l) => [
      jsonEntry('.cursor/mcp.json', ['mcpServers', SERVER_NAME], { command: l.command, args: mcpArgs(l, '--repo', '${workspaceFolder}') }),
      ownFile('.cursor/rules/ocrag.mdc', cursorRule()),
    ],
  },
  // https://developers.openai.com/codex/mcp: [mcp_servers.<name>] with command and args; a project's
  // .codex/config.toml is read when the project is trusted. Codex reads instructions from AGENTS.md.
  codex: {
    id: 'codex',
    name: 'Codex',
    edits: (l) => [
      {
        path: '.codex/config.toml',
        render: (text) => upsertTomlTable(text, '.codex/config.toml', ['mcp_servers', SERVER_NAME], [
          ['command', tomlString(l.command)],
          ['args', tomlArray(mcpArgs(l))],
        ]),
        remove: (text) => removeTomlTable(text, ['mcp_servers', SERVER_NAME]),
      },
      agentsMd(),
    ],
  },
  // https://code.visualstudio.com/docs/copilot/reference/mcp-configuration: the workspace's .vscode/mcp.json maps
  // names under "servers" ({type: "stdio", command, args}); VS Code reads it with comments and expands
  // ${workspaceFolder}. Copilot in VS Code reads instructions from AGENTS.md.
  vscode: {
    id: 'vscode',
    name: 'VS Code (Copilot)',
    edits: (l) => [
      jsoncEntry('.vscode/mcp.json', ['servers', SERVER_NAME], { type: 'stdio', command: l.command, args: mcpArgs(l, '--repo', '${workspaceFolder}') }),
      agentsMd(),
    ],
  },
  // https://geminicli.com/docs/tools/mcp-server: a project's .gemini/settings.json holds "mcpServers"
  // ({command, args}); Gemini CLI runs in the project folder, so servers start there. It reads GEMINI.md, or the
  // files named by context.fileName: AGENTS.md is not read unless configured, so the guidance goes to GEMINI.md.
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    edits: (l) => [
      jsonEntry('.gemini/settings.json', ['mcpServers', SERVER_NAME], { command: l.command, args: mcpArgs(l) }),
      markdownSection('GEMINI.md'),
    ],
  },
  // https://zed.dev/docs/ai/mcp: "context_servers" in the project's .zed/settings.json (JSON with comments),
  // a custom server is {source: "custom", command, args, env}. Zed reads AGENTS.md as project rules.
  zed: {
    id: 'zed',
    name: 'Zed',
    edits: (l) => [
      jsoncEntry('.zed/settings.json', ['context_servers', SERVER_NAME], { source: 'custom', command: l.command, args: mcpArgs(l), env: {} }),
      agentsMd(),
    ],
  },
  // https://docs.roocode.com/features/mcp/using-mcp-in-roo: a project's .roo/mcp.json ("mcpServers", Claude
  // Desktop's shape) takes precedence over the global one; rules go in .roo/rules/*.md.
  roo: {
    id: 'roo',
    name: 'Roo Code',
    edits: (l) => [
      jsonEntry('.roo/mcp.json', ['mcpServers', SERVER_NAME], { command: l.command, args: mcpArgs(l, '--repo', '${workspaceFolder}') }),
      ownFile('.roo/rules/ocrag.md', `# Code search with ocrag\n\n${agentsSectionBody()}\n`),
    ],
  },
  // https://docs.windsurf.com/windsurf/cascade/mcp: Cascade reads ~/.codeium/windsurf/mcp_config.json only;
  // there is no project-level MCP file to write.
  windsurf: {
    id: 'windsurf',
    name: 'Windsurf',
    edits: () => [],
    userLevelOnly: { config: '~/.codeium/windsurf/mcp_config.json', keys: ['mcpServers', SERVER_NAME], entry: (l) => ({ command: l.command, args: mcpArgs(l) }) },
  },
  // https://docs.cline.bot/mcp/configuring-mcp-servers: cline_mcp_settings.json lives in VS Code's extension
  // storage (or ~/.cline/data/settings/ for the CLI); there is no project-level MCP file to write.
  cline: {
    id: 'cline',
    name: 'Cline',
    edits: () => [],
    userLevelOnly: { config: "cline_mcp_settings.json (Cline's MCP Servers view → Configure MCP Servers)", keys: ['mcpServers', SERVER_NAME], entry: (l) => ({ command: l.command, args: mcpArgs(l) }) },
  },
};

/** AGENTS.md, shared by Codex, Copilot and Zed: one marked section however many of them are set up. */
function agentsMd(): FileEdit {
  return markdownSection('AGENTS.md');
}

function markdownSection(path: string): FileEdit {
  return { path, render: (text) => upsertMarkdownBlock(text, agentsSection()), remove: (text) => removeMarkdownBlock(text) };
}

function agentsSectionBody(): string {
  return agentsSection().replace(/^## .*\n\n/, '');
}

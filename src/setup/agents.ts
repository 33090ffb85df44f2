import { isObject, mergeJsonEntry, parseJsonObject } from './json-config.js';
import { agentsSection, cursorRule, skillFile } from './instructions.js';
import type { Launcher } from './launcher.js';
import { upsertMarkdownBlock } from './markdown-block.js';
import { tomlArray, tomlString, upsertTomlTable } from './toml-table.js';

export const SERVER_NAME = 'ocrag';
export const AGENT_IDS = ['claude', 'opencode', 'cursor', 'codex'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

/** One file `setup` writes: its path from the project root and its new content given the current one (null: absent). */
export interface FileEdit {
  path: string;
  render(existing: string | null): string;
}

export interface AgentTarget {
  id: AgentId;
  name: string;
  edits(launcher: Launcher): FileEdit[];
}


export const AGENTS: Record<AgentId, AgentTarget> = {
  // https://code.claude.com/docs/en/mcp: project scope is .mcp.json at the root, started in the project folder.
  claude: {
    id: 'claude',
    name: 'Claude Code',
    edits: (l) => [
      { path: '.mcp.json', render: (text) => mergeJsonEntry(text, '.mcp.json', ['mcpServers', SERVER_NAME], { type: 'stdio', command: l.command, args: [...l.args, 'mcp'] }) },
      { path: '.claude/skills/ocrag/SKILL.md', render: ownFile(skillFile()) },
    ],
  },
  // https://opencode.ai/docs/mcp-servers: "mcp" maps names to {type: "local", command: [...]}; V2's native shape
  // nests them under "mcp.servers", and a file already in that shape gets the entry there.
  opencode: {
    id: 'opencode',
    name: 'OpenCode',
    edits: (l) => [
      {
        path: 'opencode.json',
        render: (text) => {
          const command = [l.command, ...l.args, 'mcp'];
          const v2 = isObject(parseJsonObject(text)?.mcp) && isObject((parseJsonObject(text)!.mcp as Record<string, unknown>).servers);
          const keys = v2 ? ['mcp', 'servers', SERVER_NAME] : ['mcp', SERVER_NAME];
          const entry = v2 ? { type: 'local', command } : { type: 'local', command, enabled: true };
          return mergeJsonEntry(text, 'opencode.json', keys, entry, { $schema: 'https://opencode.ai/config.json' });
        },
      },
      { path: '.opencode/skills/ocrag/SKILL.md', render: ownFile(skillFile()) },
    ],
  },
  // https://cursor.com/docs/mcp: .cursor/mcp.json has Claude Desktop's shape; Cursor expands ${workspaceFolder},
  // and does not promise to start servers in the project folder, so the repository is passed explicitly.
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    edits: (l) => [
      { path: '.cursor/mcp.json', render: (text) => mergeJsonEntry(text, '.cursor/mcp.json', ['mcpServers', SERVER_NAME], { command: l.command, args: [...l.args, 'mcp', '--repo', '${workspaceFolder}'] }) },
      { path: '.cursor/rules/ocrag.mdc', render: ownFile(cursorRule()) },
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
          ['args', tomlArray([...l.args, 'mcp'])],
        ]),
      },
      { path: 'AGENTS.md', render: (text) => upsertMarkdownBlock(text, agentsSection()) },
    ],
  },
};

/** A file only ocrag writes: its content is ours whatever was there. */
function ownFile(content: string): (existing: string | null) => string {
  return () => content;
}

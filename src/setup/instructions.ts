import { AGENT_GUIDANCE } from '../render/agent-guidance.js';

const SUMMARY =
  "Search this repository's code by meaning or by name with the ocrag MCP tools (search_code, find_symbol, related). Use it before opening files you don't know yet, to find where something is implemented, configured, tested or used.";

/** What OpenCode's skill adds for the tools of the plugin `ocrag setup opencode` writes beside the MCP server. */
export const OPENCODE_PLUGIN_GUIDANCE = `## The ocrag_* tools (OpenCode plugin)

The same index, through the plugin in \`.opencode/plugin/ocrag.ts\`:

- \`ocrag_search\` (query, k, path glob, language, format text|markdown|json): what \`search_code\` does; use either, before opening files you don't know.
- \`ocrag_add\` (paths, name): when the user points you at design documents, specifications, PDFs, CSVs or another checkout that should be searched beside the code; results then come as \`name:path\`.
- \`ocrag_remove\` (source): when such a source is no longer wanted, or was added by mistake.
- \`ocrag_status\`: when results look stale, empty or miss files you expected: it shows the indexed commit vs HEAD, what is indexed and the files skipped and why.`;

/** A skill (Claude Code, OpenCode): loaded when its description matches the task; `extra` follows the guidance. */
export function skillFile(extra?: string): string {
  return `---\nname: ocrag\ndescription: ${SUMMARY}\n---\n\n# Code search with ocrag\n\n${AGENT_GUIDANCE}\n${extra ? `\n${extra}\n` : ''}`;
}

/** A Cursor project rule, always applied: a few lines, and the agent should know before it starts reading files. */
export function cursorRule(): string {
  return `---\ndescription: When to use the ocrag code search tools\nalwaysApply: true\n---\n\n# Code search with ocrag\n\n${AGENT_GUIDANCE}\n`;
}

/** A section of AGENTS.md (Codex). */
export function agentsSection(): string {
  return `## Code search with ocrag\n\n${AGENT_GUIDANCE}`;
}

import { AGENT_GUIDANCE } from '../render/agent-guidance.js';

const SUMMARY =
  "Search this repository's code by meaning or by name with the ocrag MCP tools (search_code, find_symbol, related). Use it before opening files you don't know yet, to find where something is implemented, configured, tested or used.";

/** A skill (Claude Code, OpenCode): loaded when its description matches the task. */
export function skillFile(): string {
  return `---\nname: ocrag\ndescription: ${SUMMARY}\n---\n\n# Code search with ocrag\n\n${AGENT_GUIDANCE}\n`;
}

/** A Cursor project rule, always applied: a few lines, and the agent should know before it starts reading files. */
export function cursorRule(): string {
  return `---\ndescription: When to use the ocrag code search tools\nalwaysApply: true\n---\n\n# Code search with ocrag\n\n${AGENT_GUIDANCE}\n`;
}

/** A section of AGENTS.md (Codex). */
export function agentsSection(): string {
  return `## Code search with ocrag\n\n${AGENT_GUIDANCE}`;
}

import { agentGuidance, skillSummary } from '../render/agent-guidance.js';
import type { SurfaceId } from '../render/contract/tools.js';

/** A skill (Claude Code over MCP, OpenCode through its plugin): loaded when its description matches the task. */
export function skillFile(surface: SurfaceId): string {
  return `---\nname: ocrag\ndescription: ${skillSummary(surface)}\n---\n\n# Code search with ocrag\n\n${agentGuidance(surface)}\n`;
}

/** A Cursor project rule, always applied: a few lines, and the agent should know before it starts reading files. */
export function cursorRule(): string {
  return `---\ndescription: When to use the ocrag code search tools\nalwaysApply: true\n---\n\n# Code search with ocrag\n\n${agentGuidance('mcp')}\n`;
}

/** A section of AGENTS.md (Codex). */
export function agentsSection(): string {
  return `## Code search with ocrag\n\n${agentGuidance('mcp')}`;
}

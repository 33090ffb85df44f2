import { argName, shownNumber, TOOLS, wording, type SurfaceId } from './contract/tools.js';

/**
 * When and how an agent should use the tools, in the words of one surface (its tool names, its arguments). The MCP
 * server sends it as its instructions, and `ocrag setup` writes it into each agent's skill or rules file; every
 * tool, argument and limit it names comes from the contract (src/render/contract/), so none can be missing there.
 */
export function agentGuidance(surface: SurfaceId): string {
  const w = wording(surface);
  const t = (id: Parameters<typeof w.tool>[0]) => `\`${w.tool(id)}\``;
  const arg = (name: string) => `\`${argName(w, 'search_code', name)}\``;
  const through = surface === 'mcp' ? 'the `ocrag` MCP server' : 'the ocrag_* tools (the plugin in `.opencode/plugin/ocrag.ts`)';
  const lines = [
    `ocrag indexes the code of this git repository (the checked-out branch plus uncommitted edits) for search by meaning and by name, through ${through}.`,
    '',
    `- Before opening files you don't know yet, call ${t('search_code')} with what you are looking for ("where are retries configured", "parse command line arguments"). It returns the matching functions and classes with path, lines and code, often enough to answer without opening anything.`,
    `- Questions may be asked in Chinese, or in Chinese with identifiers in it ("用信号量对并发操作进行限流", "parseArgs 在哪里定义"): Chinese finds English code and Chinese comments and docs alike; adding the English identifiers or terms you know makes results sharper.`,
    `- To find where a failure is, pass the stack trace, error output or bug report itself as the query (up to ${shownNumber(TOOLS.search_code.args.query.max)} characters, the limit every ocrag tool takes): the frames in the project's own code, the identifiers, paths and error names count most, and the file of the innermost own frame ranks first.`,
    `- When you have an exact identifier, search with it, or call ${t('find_symbol')} for its definition: exact names rank first. Use plain words when you only know the behaviour.`,
    `- To find code similar to what you are looking at (sibling implementations, duplicated logic, the matching tests), call ${t('related')} with its path and line.`,
    `- Narrow with ${arg('path_glob')} ("src/**") or ${arg('language')} (a filter no file matches is an error saying so), and save context with a small ${arg('k')} or ${arg('max_tokens')} (too small a budget still gets the best result, cut to its location and first lines; the answer says what it left out).`,
    w.has('index_codebase')
      ? `- The index follows commits and branch switches by itself; ${t('index_codebase')} (a background task: follow it with ${t('index_status')} and its task id) is rarely needed. If results look stale or empty, check ${t('index_status')}.`
      : `- The index follows commits and branch switches by itself: each search brings it up to date first. If results look stale, empty or miss files you expected, check ${t('index_status')}: the indexed commit against HEAD, what is indexed, the files skipped and why.`,
    `- When the user points you at design documents, specifications, PDFs, CSVs or another checkout to search beside the code, call ${t('add_source')} (only under folders the user allowed as sourceRoots in .ocrag/config.json); results then come as \`name:path\`. ${t('list_sources')} lists them, ${t('remove_source')} takes one out.`,
    `- "No good match" means nothing in the repository fits: rephrase, use an identifier, or pass \`${argName(w, 'search_code', 'min_score')}: 0\` for the closest chunks anyway.${w.has('set_root') ? ` To work in another repository, call ${t('set_root')} with its \`root\` (or pass \`root\` to one call).` : ''}`,
    '- To list every literal occurrence of a string (all call sites), grep is still the right tool.',
  ];
  return lines.join('\n');
}

/** A skill's one-line description: when an agent should load it. */
export function skillSummary(surface: SurfaceId): string {
  const w = wording(surface);
  const kind = surface === 'mcp' ? 'MCP tools' : 'tools';
  return `Search this repository's code by meaning or by name with the ocrag ${kind} (${['search_code', 'find_symbol', 'related'].map((id) => w.tool(id)).join(', ')}). Use it before opening files you don't know yet, to find where something is implemented, configured, tested or used.`;
}

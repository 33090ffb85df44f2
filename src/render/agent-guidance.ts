import { MAX_QUERY_CHARS_TEXT } from '../search/query-limit.js';

/**
 * When and how an agent should use the tools. The server sends it as its MCP instructions, and `ocrag setup`
 * writes it into each agent's skill or rules file, so both say the same thing.
 */
export const AGENT_GUIDANCE = `ocrag indexes the code of this git repository (the checked-out branch plus uncommitted edits) for search by meaning and by name, through the \`ocrag\` MCP server.

- Before opening files you don't know yet, call \`search_code\` with what you are looking for ("where are retries configured", "parse command line arguments"). It returns the matching functions and classes with path, lines and code, often enough to answer without opening anything.
- Questions may be asked in Chinese, or in Chinese with identifiers in it ("用信号量对并发操作进行限流", "parseArgs 在哪里定义"): Chinese finds English code and Chinese comments and docs alike; adding the English identifiers or terms you know makes results sharper.
- To find where a failure is, pass the stack trace, error output or bug report itself as the query (up to ${MAX_QUERY_CHARS_TEXT} characters, the limit every ocrag tool takes): the frames in the project's own code, the identifiers, paths and error names count most, and the file of the innermost own frame ranks first.
- When you have an exact identifier, search with it, or call \`find_symbol\` for its definition: exact names rank first. Use plain words when you only know the behaviour.
- To find code similar to what you are looking at (sibling implementations, duplicated logic, the matching tests), call \`related\` with its path and line.
- Narrow with \`path_glob\` ("src/**") or \`language\` (a filter no file matches is an error saying so), and save context with a small \`k\` or \`max_tokens\` (too small a budget still gets the best result, cut to its location and first lines; the answer says what it left out).
- The index follows commits and branch switches by itself; \`index_codebase\` (a background task: follow it with \`index_status\` and its task id) is rarely needed. If results look stale or empty, check \`index_status\`.
- "No good match" means nothing in the repository fits: rephrase, use an identifier, or pass \`min_score: 0\` for the closest chunks anyway. To work in another repository, call \`set_root\` with its \`root\` (or pass \`root\` to one call).
- To list every literal occurrence of a string (all call sites), grep is still the right tool.`;

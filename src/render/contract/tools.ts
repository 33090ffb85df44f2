// The agent contract: every tool ocrag offers an agent, with its name, title, description and arguments, written once.
// The MCP server registers its tools from it, `ocrag setup opencode` writes the plugin's `tool()` schemas from it, the
// plugin host checks calls against it, and the guidance in every skill and rules file names tools and limits through it.
import { argsFor, say, schemaChain, type ArgSpec, type SchemaCall, type SurfaceId, type Text, type Wording } from './args.js';
import { ADD_SOURCE, INDEX_CANCEL, INDEX_CODEBASE, INDEX_STATUS, LIST_SOURCES, REINDEX, REMOVE_SOURCE, SET_ROOT } from './index-tools.js';
import { FIND_SYMBOL, RELATED, SEARCH_CODE } from './search-tools.js';

export type { ArgsOf, ArgSpec, SchemaCall, SurfaceId, Wording } from './args.js';
export { DEFAULT_K, MAX_K, shownNumber } from './search-tools.js';

export interface ToolSpec {
  title: string;
  description: Text;
  args: Record<string, ArgSpec>;
  /** The surfaces that offer it: the plugin host opens a workspace per call, so it has no background tasks to follow or root to switch. */
  surfaces: readonly SurfaceId[];
}

/** Every tool, by its MCP name, in the order a client lists them. */
export const TOOLS = {
  search_code: SEARCH_CODE,
  find_symbol: FIND_SYMBOL,
  related: RELATED,
  index_status: INDEX_STATUS,
  index_codebase: INDEX_CODEBASE,
  reindex: REINDEX,
  index_cancel: INDEX_CANCEL,
  add_source: ADD_SOURCE,
  remove_source: REMOVE_SOURCE,
  list_sources: LIST_SOURCES,
  set_root: SET_ROOT,
} as const satisfies Record<string, ToolSpec>;

export type ToolId = keyof typeof TOOLS;

/** The tools one surface offers, as a type: a surface's table of answerers must then have one for each, and no other. */
export type SurfaceToolId<S extends SurfaceId> = { [Id in ToolId]: S extends (typeof TOOLS)[Id]['surfaces'][number] ? Id : never }[ToolId];

/** OpenCode names a tool by its server and tool (`ocrag_search_code`): the plugin's tools take the same names. */
const PREFIX: Record<SurfaceId, string> = { mcp: '', opencode: 'ocrag_' };

export function toolIds(surface: SurfaceId): ToolId[] {
  return (Object.keys(TOOLS) as ToolId[]).filter((id) => (TOOLS[id] as ToolSpec).surfaces.includes(surface));
}

export function wording(surface: SurfaceId): Wording {
  const offered = new Set<string>(toolIds(surface));
  return {
    surface,
    has: (id) => offered.has(id),
    tool: (id) => {
      if (!offered.has(id)) throw new Error(`the ${surface} tools have no ${id}: the text naming it must not be shown there`);
      return `${PREFIX[surface]}${id}`;
    },
  };
}

/** A tool as one surface offers it: its name there, title, description and arguments in that surface's words. */
export interface SurfaceTool {
  id: ToolId;
  name: string;
  title: string;
  description: string;
  args: [string, ArgSpec][];
}

export function surfaceTools(surface: SurfaceId): SurfaceTool[] {
  const w = wording(surface);
  return toolIds(surface).map((id) => {
    const spec: ToolSpec = TOOLS[id];
    return { id, name: w.tool(id), title: spec.title, description: say(spec.description, w), args: argsFor(spec.args, surface) };
  });
}

/** The zod calls that make one argument's schema, for a surface that writes them as code. */
export function argChain(arg: ArgSpec, surface: SurfaceId): SchemaCall[] {
  return schemaChain(arg, wording(surface));
}

/** An argument's name, checked against the contract: guidance cannot name an argument a tool lacks on that surface. */
export function argName(w: Wording, id: ToolId, arg: string): string {
  const spec: ToolSpec = TOOLS[id];
  if (!argsFor(spec.args, w.surface).some(([name]) => name === arg)) throw new Error(`${id} has no argument ${arg} on ${w.surface}`);
  return arg;
}

// The contract's schemas as zod objects, for the surfaces that check calls in this process (the MCP server, the
// plugin host). Apart from tools.ts so that naming the tools (`ocrag mcp --help`, setup) does not load zod.
import { z } from 'zod';
import { argChain, surfaceTools, type SurfaceId, type ToolId } from './tools.js';

/** The zod shape of a tool's arguments on a surface. */
export function toolShape(id: ToolId, surface: SurfaceId): Record<string, z.ZodType> {
  // Each call is a zod method of the schema so far, as argChain names it: the one reading of an argument, applied.
  const build = (chain: ReturnType<typeof argChain>) => chain.reduce<unknown>((schema, [method, ...args]) => (schema as Record<string, (...a: unknown[]) => unknown>)[method](...args), z) as z.ZodType;
  return Object.fromEntries(toolOf(id, surface).args.map(([name, arg]) => [name, build(argChain(arg, surface))]));
}

/** The MCP registration of a tool: title, description and input shape, as the SDK takes them. */
export function mcpTool(id: ToolId): { title: string; description: string; inputSchema: Record<string, z.ZodType> } {
  const { title, description } = toolOf(id, 'mcp');
  return { title, description, inputSchema: toolShape(id, 'mcp') };
}

function toolOf(id: ToolId, surface: SurfaceId) {
  const found = surfaceTools(surface).find((t) => t.id === id);
  if (!found) throw new Error(`${id} is not a ${surface} tool`);
  return found;
}

/** Where a tool or an argument is offered: the MCP server, or the OpenCode plugin (answered by `ocrag plugin-host`). */
export type SurfaceId = 'mcp' | 'opencode';

/** How one surface names things: its tool names (`search_code` over MCP, `ocrag_search_code` in OpenCode) and which tools it has. */
export interface Wording {
  surface: SurfaceId;
  /** The tool's name on this surface; a tool it lacks is an error, so no text names a tool that is not there. */
  tool(id: string): string;
  has(id: string): boolean;
}

/** Text that may name tools: written once, read in each surface's words. */
export type Text = string | ((w: Wording) => string);

export function say(text: Text, w: Wording): string {
  return typeof text === 'string' ? text : text(w);
}

interface ArgBase {
  description: Text;
  /** Absent: the argument may be left out (with `default`, it then takes that value). */
  required?: true;
  /** Only on this surface (the plugin has no `root`: OpenCode names the project; MCP has no `format`: it answers structured). */
  only?: SurfaceId;
}

/** One argument of a tool, as data: every schema (zod for MCP and the host, `tool.schema` code in the plugin) is made from it. */
export type ArgSpec = ArgBase &
  (
    | { type: 'string'; trim?: boolean; min?: number; max?: number; pattern?: { source: string; message: string } }
    | { type: 'integer' | 'number'; min?: number; max?: number; default?: number }
    | { type: 'boolean'; default?: boolean }
    | { type: 'enum'; values: readonly [string, ...string[]]; default?: string }
  );

/** One call in the chain that builds a zod schema, e.g. `['max', 10000]`: zod applies it, the plugin writes it as code. */
export type SchemaCall = [method: string, ...args: unknown[]];

/** The zod calls, in order, that make this argument's schema: the one reading of an ArgSpec. */
export function schemaChain(arg: ArgSpec, w: Wording): SchemaCall[] {
  const chain: SchemaCall[] = [];
  switch (arg.type) {
    case 'string':
      chain.push(['string']);
      if (arg.trim) chain.push(['trim']);
      if (arg.min !== undefined) chain.push(['min', arg.min]);
      if (arg.max !== undefined) chain.push(['max', arg.max]);
      if (arg.pattern) chain.push(['regex', new RegExp(arg.pattern.source), arg.pattern.message]);
      break;
    case 'integer':
    case 'number':
      chain.push(['number']);
      if (arg.type === 'integer') chain.push(['int']);
      if (arg.min !== undefined) chain.push(['min', arg.min]);
      if (arg.max !== undefined) chain.push(['max', arg.max]);
      break;
    case 'boolean':
      chain.push(['boolean']);
      break;
    case 'enum':
      chain.push(['enum', [...arg.values]]);
      break;
  }
  const fallback = 'default' in arg ? arg.default : undefined;
  if (fallback !== undefined) chain.push(['default', fallback]);
  else if (!arg.required) chain.push(['optional']);
  chain.push(['describe', say(arg.description, w)]);
  return chain;
}

/** The arguments a surface offers, by name. */
export function argsFor(args: Record<string, ArgSpec>, surface: SurfaceId): [string, ArgSpec][] {
  return Object.entries(args).filter(([, arg]) => !arg.only || arg.only === surface);
}

type ValueOf<A> = A extends { type: 'string' } ? string : A extends { type: 'integer' | 'number' } ? number : A extends { type: 'boolean' } ? boolean : A extends { type: 'enum'; values: readonly (infer V)[] } ? V : never;

/** The arguments a tool's body gets once its schema has read them: required and defaulted ones always there. */
export type ArgsOf<Args> = { [K in keyof Args]: Args[K] extends { required: true } | { default: unknown } ? ValueOf<Args[K]> : ValueOf<Args[K]> | undefined };

import path from 'node:path';
import { z } from 'zod';
import { echoedQuery, renderer, trimToTokenBudget, type OutputFormat } from '../render/index.js';
import type { ArgsOf, SurfaceId, SurfaceToolId, ToolId, TOOLS } from '../render/contract/tools.js';
import { toolShape } from '../render/contract/zod.js';
import { addedLine } from '../render/sources.js';
import { agentNextSteps, emptyAnswerNote } from '../render/no-match.js';
import { formatStatus } from '../render/status.js';
import { PLAIN } from '../render/text.js';
import type { ModelPool, OpenOptions, PlainFolderUse, SearchResult, Workspace } from '../workspace/index.js';
import { OcragError } from '../util/errors.js';

/** One call of an editor plugin's tool: which tool, for which project, from which folder, with what arguments. */
export interface ToolCall {
  tool: string;
  /** The project's top folder (OpenCode's worktree): the workspace answered for. */
  root: string;
  /** The folder the agent works in: the workspace is opened from here. */
  cwd: string;
  args: Record<string, unknown>;
}

type Open = (at: string, folder: PlainFolderUse) => Promise<Workspace>;

/** A tool's answer: the text the agent reads, and the one line an editor shows for the call (OpenCode's title). */
export interface ToolAnswer {
  title: string;
  text: string;
}

const SURFACE = 'opencode' satisfies SurfaceId;
type Args<Id extends ToolId> = ArgsOf<(typeof TOOLS)[Id]['args']>;
type Answerer<Id extends ToolId> = (open: Open, cwd: string, args: Args<Id>) => Promise<ToolAnswer>;

/**
 * What each of the plugin's tools answers (the contract's OpenCode tools, src/render/contract/): results as the
 * CLI renders them, markdown by default; every answer with a one-line title.
 */
const TOOLS_ANSWERED: { [Id in SurfaceToolId<typeof SURFACE>]: Answerer<Id> } = {
  async search_code(open, cwd, args) {
    const started = performance.now();
    const results = await withWorkspace(open, cwd, 'existing', (w) => w.search(args.query, { k: args.k, pathGlob: args.path_glob, language: args.language, whole: args.whole, minMatch: args.min_score }));
    const empty = results.length === 0 ? emptyAnswerNote({ query: args.query, minMatch: args.min_score, language: args.language, narrowed: args.path_glob !== undefined }, agentNextSteps(SURFACE)) : null;
    if (empty) return { title: `${args.language ? 'no results' : 'no good match'} for "${echoedQuery(args.query)}"`, text: empty };
    const title = `${counted(results.length, 'result')} for "${echoedQuery(args.query)}"`;
    return { title, text: rendered(args.format, { query: args.query, latencyMs: performance.now() - started, results }, args.max_tokens) };
  },
  async find_symbol(open, cwd, args) {
    const started = performance.now();
    const found = await withWorkspace(open, cwd, 'existing', (w) => w.findSymbol(args.name, { k: args.k }));
    const title = `${counted(found.length, 'definition')} named like "${echoedQuery(args.name)}"`;
    return { title, text: rendered('markdown', { query: args.name, latencyMs: performance.now() - started, results: found.map((d) => d.result) }) };
  },
  async related(open, cwd, args) {
    const started = performance.now();
    const { anchor, results } = await withWorkspace(open, cwd, 'existing', (w) => w.related({ path: args.path, startLine: args.startLine, k: args.k }));
    const where = `${anchor.path}:${anchor.startLine}-${anchor.endLine}`;
    return { title: `${counted(results.length, 'result')} related to ${where}`, text: rendered('markdown', { query: `related to ${where}`, latencyMs: performance.now() - started, results }) };
  },
  async index_status(open, cwd) {
    const s = await withWorkspace(open, cwd, 'existing', (w) => w.status());
    const where = s.plainFolder ? `folder ${path.basename(s.root)}` : `${s.branch ?? 'detached HEAD'} @ ${s.head?.slice(0, 8) ?? '(no commits)'}, ${s.upToDate ? 'up to date' : 'behind HEAD'}`;
    return { title: `${where}: ${s.files} files, ${s.chunks} chunks`, text: formatStatus(s, PLAIN) };
  },
  async add_source(open, cwd, args) {
    // A plain folder the agent works in becomes a knowledge base here, as `ocrag add` makes it one.
    const added = await withWorkspace(open, cwd, 'create', (w) => w.addSources([args.path], { name: args.name, by: 'agent' }));
    return { title: `added ${added.map((r) => `"${r.name}" (${r.files} files)`).join(', ')}`, text: added.map(addedLine).join('\n') };
  },
  async remove_source(open, cwd, args) {
    const removed = await withWorkspace(open, cwd, 'existing', async (w) => w.removeSource(args.source));
    return { title: `removed source "${removed.name}"`, text: `removed source "${removed.name}" (${removed.root})` };
  },
  async list_sources(open, cwd) {
    const sources = await withWorkspace(open, cwd, 'existing', async (w) => w.sources());
    return { title: counted(sources.length, 'source'), text: sources.length ? sources.map((s) => `${s.name}: ${s.root}`).join('\n') : 'no sources: only the repository is searched' };
  },
};

/** Answers one call with a workspace opened for it (so it sees the settings and HEAD of this moment) and closed after. */
export async function answerCall(call: ToolCall, openWorkspace: (at: string, opts: OpenOptions) => Promise<Workspace>, models: ModelPool): Promise<ToolAnswer> {
  const id = call.tool as SurfaceToolId<typeof SURFACE>;
  const answer = Object.hasOwn(TOOLS_ANSWERED, id) ? (TOOLS_ANSWERED[id] as Answerer<ToolId>) : undefined;
  if (!answer) throw new OcragError(`no tool "${call.tool}": the plugin and this ocrag are of different versions (run ocrag setup opencode again)`);
  return answer((at, folder) => openWorkspace(at, { folder, models }), call.cwd, checkedArgs(id, call.args));
}

/** The call's arguments read by the contract's schema (the plugin checked them already; a host driven by another client may not have). */
function checkedArgs<Id extends ToolId>(id: Id, args: Record<string, unknown>): Args<Id> {
  const read = argsSchema(id).safeParse(args);
  if (read.success) return read.data as Args<Id>;
  const issue = read.error.issues[0];
  throw new OcragError(`${issue.path.join('.') || 'arguments'}: ${issue.message}`);
}

/** Each tool's schema, built once per host: a host answers many calls, and the contract does not change under it. */
const SCHEMAS = new Map<ToolId, z.ZodType>();
function argsSchema(id: ToolId): z.ZodType {
  let schema = SCHEMAS.get(id);
  if (!schema) SCHEMAS.set(id, (schema = z.object(toolShape(id, SURFACE))));
  return schema;
}

function rendered(format: OutputFormat, report: { query: string; latencyMs: number; results: SearchResult[] }, maxTokens?: number): string {
  if (format === 'text' && report.results.length === 0) return 'no results';
  const render = renderer(format, PLAIN);
  return render(maxTokens === undefined ? report : trimToTokenBudget(report, maxTokens, render).report).trim();
}

function counted(n: number, what: string): string {
  return n ? `${n} ${what}${n === 1 ? '' : 's'}` : `no ${what}s`;
}

async function withWorkspace<T>(open: Open, at: string, folder: PlainFolderUse, use: (w: Workspace) => Promise<T>): Promise<T> {
  const workspace = await open(at, folder);
  try {
    return await use(workspace);
  } finally {
    await workspace.close();
  }
}

import path from 'node:path';
import { echoedQuery, renderer, type OutputFormat } from '../render/index.js';
import { addedLine, removedLine } from '../render/sources.js';
import { formatStatus } from '../render/status.js';
import { PLAIN } from '../render/text.js';
import type { ModelPool, OpenOptions, PlainFolderUse, Workspace } from '../workspace/index.js';
import { checkQueryLength } from '../workspace/types.js';
import { OcragError } from '../util/errors.js';

/** One call of an editor plugin's tool: which tool, for which project, from which folder, with what arguments. */
export interface ToolCall {
  tool: string;
  /** The project's top folder (OpenCode's worktree): the workspace answered for. */
  root: string;
  /** The folder the agent works in: relative paths it gives are taken from here, as the CLI takes them from its own. */
  cwd: string;
  args: Record<string, unknown>;
}

type Open = (at: string, folder: PlainFolderUse) => Promise<Workspace>;

/** A tool's answer: the text the agent reads, and the one line an editor shows for the call (OpenCode's title). */
export interface ToolAnswer {
  title: string;
  text: string;
}

/**
 * What each tool answers, as the text `ocrag <command>` prints for it (the plugin's tools returned the CLI's
 * output when they spawned it per call): search results in markdown by default, the add/remove lines, the status.
 */
const TOOLS: Record<string, (open: Open, call: ToolCall) => Promise<ToolAnswer>> = {
  async search(open, { cwd, args }) {
    const query = text(args.query, 'query').trim();
    if (!query) throw new OcragError('empty query: say what code you are looking for');
    checkQueryLength(query);
    const format = (optionalText(args.format) ?? 'markdown') as OutputFormat;
    if (!['text', 'markdown', 'json'].includes(format)) throw new OcragError(`format must be text, markdown or json, got "${format}"`);
    const started = performance.now();
    const results = await withWorkspace(open, cwd, 'existing', (w) => w.search(query, { k: count(args.k), pathGlob: optionalText(args.path), language: optionalText(args.language) }));
    const title = `${results.length ? `${results.length} result${results.length === 1 ? '' : 's'}` : 'no results'} for "${echoedQuery(query)}"`;
    if (format === 'text' && results.length === 0) return { title, text: 'no results' };
    return { title, text: renderer(format, PLAIN)({ query, latencyMs: performance.now() - started, results }).trim() };
  },
  async add(open, { cwd, args }) {
    const paths = Array.isArray(args.paths) ? args.paths.map((p) => path.resolve(cwd, text(p, 'paths'))) : [];
    if (paths.length === 0) throw new OcragError('paths: give at least one folder or file');
    const added = await withWorkspace(open, cwd, 'create', (w) => w.addSources(paths, { name: optionalText(args.name) }));
    const title = `added ${added.map((r) => `"${r.name}" (${r.files} files)`).join(', ')}`;
    return { title, text: added.map(addedLine).join('\n') };
  },
  async remove(open, { cwd, args }) {
    const removed = await withWorkspace(open, cwd, 'existing', async (w) => w.remove(text(args.source, 'source'), cwd));
    const title = 'source' in removed ? `removed source "${removed.source.name}"` : `${removed.excluded.added ? 'excluded' : 'already excluded'} ${removed.excluded.path}`;
    return { title, text: removedLine(removed) };
  },
  async status(open, { cwd }) {
    const s = await withWorkspace(open, cwd, 'existing', (w) => w.status());
    const where = s.plainFolder ? `folder ${path.basename(s.root)}` : `${s.branch ?? 'detached HEAD'} @ ${s.head?.slice(0, 8) ?? '(no commits)'}, ${s.upToDate ? 'up to date' : 'behind HEAD'}`;
    return { title: `${where}: ${s.files} files, ${s.chunks} chunks`, text: formatStatus(s, PLAIN) };
  },
};

/** Answers one call with a workspace opened for it (so it sees the settings and HEAD of this moment) and closed after. */
export async function answerCall(call: ToolCall, openWorkspace: (at: string, opts: OpenOptions) => Promise<Workspace>, models: ModelPool): Promise<ToolAnswer> {
  const tool = TOOLS[call.tool];
  if (!tool) throw new OcragError(`no tool "${call.tool}": the plugin and this ocrag are of different versions (run ocrag setup opencode again)`);
  return tool((at, folder) => openWorkspace(at, { folder, models }), call);
}

async function withWorkspace<T>(open: Open, at: string, folder: PlainFolderUse, use: (w: Workspace) => Promise<T>): Promise<T> {
  const workspace = await open(at, folder);
  try {
    return await use(workspace);
  } finally {
    await workspace.close();
  }
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new OcragError(`${name} must be text`);
  return value;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The plugin's schema already holds k to 1..50; a host started by another client must not be asked for a million. */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 50 ? value : 10;
}

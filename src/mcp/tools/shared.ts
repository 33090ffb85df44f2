import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { formatMarkdown } from '../../render/markdown.js';
import type { LeftOut } from '../../render/report.js';
import { TOOLS, type ArgsOf as ContractArgs, type ToolId } from '../../render/contract/tools.js';
import { mcpTool } from '../../render/contract/zod.js';
import type { IndexProgress, SearchResult } from '../../workspace/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The arguments a tool's body gets, typed from the contract its schema is made from. */
export type ArgsOf<Id extends ToolId> = ContractArgs<(typeof TOOLS)[Id]['args']>;

/** A tool's name, title, description and input schema from the contract, and its annotations' title (for clients of the older spec). */
export function fromContract(id: ToolId, annotations: Omit<ToolAnnotations, 'title'>) {
  const tool = mcpTool(id);
  return { ...tool, annotations: { title: tool.title, ...annotations } };
}

/** A tool body of typed arguments: the SDK reads a shape made from data as unknowns; the contract says what they are. */
export function typed<Id extends ToolId, R>(_id: Id, body: (args: ArgsOf<Id>, extra: ToolExtra) => R): (args: Record<string, unknown>, extra: ToolExtra) => R {
  return (args, extra) => body(args as ArgsOf<Id>, extra);
}

/** One chunk as every tool returns it. */
export const codeResultShape = {
  path: z.string().describe('file path from the repository root, as people read it'),
  quotedPath: z
    .string()
    .optional()
    .describe('present when path is not the exact file name (bytes that are not UTF-8, control characters): the exact name in git\'s quoted form, as git ls-files prints it, e.g. "caf\\351.py" for the bytes caf\\xe9.py; open the file by this name'),
  startLine: z.number().int().describe('first line of the chunk, 1-based'),
  endLine: z.number().int().describe('last line of the chunk, inclusive'),
  language: z.string(),
  symbol: z.string().describe('enclosing definitions, outermost first, e.g. "class Router > method handle"; empty for plain text'),
  score: z.number().describe('relevance, higher is better (about 0.2 weak to 0.9 very strong)'),
  code: z.string().describe('the lines startLine..endLine; of a long chunk, its definition line and the part that answers, each cut shown as a line "⋮ N lines cut (from-to)"'),
  shown: z
    .array(z.object({ startLine: z.number().int(), endLine: z.number().int() }))
    .optional()
    .describe('present when code is cut: the line ranges it shows'),
};
export const codeResultSchema = z.object(codeResultShape);
export type CodeResult = z.infer<typeof codeResultSchema>;

export function toCodeResult(r: SearchResult): CodeResult {
  return { path: r.path, ...(r.quotedPath ? { quotedPath: r.quotedPath } : {}), startLine: r.startLine, endLine: r.endLine, language: r.language, symbol: r.symbol, score: Math.round(r.score * 10_000) / 10_000, code: r.text, ...(r.shown ? { shown: r.shown } : {}) };
}

/**
 * Compact text for clients that show the model only `content`: a heading and a fenced block per result, and a last
 * line saying what a token budget left out.
 */
export function resultsAsText(query: string, latencyMs: number, results: CodeResult[], notes: (string | null | undefined)[] = [], leftOut?: LeftOut): string {
  const body = formatMarkdown({ query, latencyMs, results: results.map((r) => ({ ...r, text: r.code })), ...(leftOut ? { leftOut } : {}) });
  return [...notes.filter((n): n is string => !!n).map((n) => `Note: ${n}`), body].join('\n');
}

/** A tool answer with both forms: structured for clients that read it, text for those that don't. */
export function answer<T extends Record<string, unknown>>(structured: T, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

const PROGRESS_EVERY_MS = 250;

/** MCP progress notifications for the request, when the client asked for them (it sent a progress token). */
export function progressNotifier(extra: ToolExtra): ((p: IndexProgress) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let last = { done: -1, at: 0 };
  return (p) => {
    // The run reports every file it chunks: tell the client when something was stored, or at most every 250 ms.
    const now = Date.now();
    if (p.blobsDone === last.done && now - last.at < PROGRESS_EVERY_MS) return;
    last = { done: p.blobsDone, at: now };
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: p.blobsDone, total: p.blobsTotal, message: `updating the index: ${p.blobsDone}/${p.blobsTotal} files, ${p.chunks} chunks` },
      })
      .catch(() => undefined);
  };
}

// `ocrag plugin-host`: one long-lived process an editor plugin (OpenCode's, written by `ocrag setup opencode`) sends
// its tool calls to, instead of starting the CLI for each (0.6-1.3 s a call, most of it starting node and loading
// the model). Newline-delimited JSON on stdin and stdout: {"id", "tool", "root", "cwd", "args"} in, {"id", "text",
// "title"} or {"id", "error"} out, in the order the calls came. It ends when stdin closes (the plugin's process is gone).
import readline from 'node:readline';
import { ModelPool, openWorkspace } from '../workspace/index.js';
import { failureLine } from '../render/failure.js';
import { answerCall, type ToolCall } from './tools.js';

export async function runPluginHost(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const models = new ModelPool();
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  // One call at a time: a search's chunk cache and an index run are not built for two at once, and the plugin
  // waits for each answer anyway.
  for await (const line of lines) {
    if (!line.trim()) continue;
    const call = parseCall(line);
    const reply = 'error' in call ? call : await answerCall(call, openWorkspace, models).then(({ title, text }) => ({ id: call.id, text, title }), (e: unknown) => ({ id: call.id, error: failureLine(e) }));
    output.write(`${JSON.stringify(reply)}\n`);
  }
  await models.close();
}

function parseCall(line: string): (ToolCall & { id: unknown }) | { id: unknown; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { id: null, error: 'ocrag: a call that is not JSON' };
  }
  const call = value as Partial<ToolCall> & { id?: unknown };
  if (typeof call?.tool !== 'string' || typeof call.root !== 'string' || typeof call.cwd !== 'string') return { id: call?.id ?? null, error: 'ocrag: a call needs tool, root and cwd' };
  return { id: call.id, tool: call.tool, root: call.root, cwd: call.cwd, args: typeof call.args === 'object' && call.args !== null ? (call.args as Record<string, unknown>) : {} };
}


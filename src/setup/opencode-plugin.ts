import { argChain, surfaceTools, type SchemaCall, type SurfaceTool } from '../render/contract/tools.js';

/** Where OpenCode loads a project's plugins from by itself: every `*.ts` in `.opencode/plugin/` (OpenCode 1.18). */
export const OPENCODE_PLUGIN_PATH = '.opencode/plugin/ocrag.ts';

/** This installation as setup found it: the plugin's fallback when the project has no ocrag of its own. */
export interface Installation {
  node: string;
  entry: string;
}

/**
 * The OpenCode plugin `ocrag setup opencode` writes: the contract's tools for OpenCode (src/render/contract/), each a
 * `tool()` of `@opencode-ai/plugin` (which OpenCode installs into `.opencode/node_modules` itself) whose arguments
 * are the contract's zod calls written out as `tool.schema` code. Their calls go to one `ocrag plugin-host` the
 * plugin starts on first use and keeps (src/plugin/host.ts): the model stays loaded and no node starts per call.
 * A template rather than a shipped file, so the installation's path can be recorded in it.
 */
export function opencodePlugin(installation: Installation): string {
  return `// Written by \`ocrag setup opencode\` (\`ocrag setup opencode --remove\` deletes it); edits are replaced on the next setup.
// Tools that ask this project's ocrag: search its code, find definitions and related code, add and remove sources,
// show the index's status. Calls go to
// one long-lived \`ocrag plugin-host\` process, started on the first call, that keeps the model loaded.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { tool, type Plugin } from "@opencode-ai/plugin";

/** The installation \`ocrag setup\` ran from: used when the project has no ocrag in node_modules. */
const INSTALLED = { node: ${JSON.stringify(installation.node)}, entry: ${JSON.stringify(installation.entry)} };
/** A first search indexes the whole repository: minutes on a large one, so the budget is generous. */
const TIMEOUT_MS = 10 * 60_000;

/** The project's own ocrag, else this machine's installation, else the ocrag on PATH. */
function ocrag(root: string): { file: string; args: string[] } {
  const local = path.join(root, "node_modules", ".bin", "ocrag");
  if (fs.existsSync(local)) return { file: local, args: [] };
  if (fs.existsSync(INSTALLED.node) && fs.existsSync(INSTALLED.entry)) return { file: INSTALLED.node, args: [INSTALLED.entry] };
  return { file: "ocrag", args: [] };
}

type Reply = { id: number; text?: string; title?: string; error?: string };
/** What a tool returns to OpenCode: the output the agent reads and the title its call shows. */
type Answer = { title: string; output: string };

/** One \`ocrag plugin-host\`: calls are answered in order; it is started again if it dies. */
class Host {
  private child: ChildProcess | null = null;
  private next = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();

  constructor(private readonly program: { file: string; args: string[] }) {}

  call(tool: string, root: string, cwd: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
    const child = this.started();
    const id = this.next++;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => settle({ id, error: "ocrag did not answer within 10 minutes" }), TIMEOUT_MS);
      const aborted = () => settle({ id, error: "cancelled" });
      const settle = (reply: Reply) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", aborted);
        if (this.waiting.size === 0) this.idle(true);
        if (reply.error !== undefined) reject(new Error(reply.error));
        // A host of an older ocrag sends no title: the tool's name stands for it.
        else resolve({ title: reply.title || \`ocrag \${tool}\`, output: reply.text || "done" });
      };
      if (signal?.aborted) return reject(new Error("cancelled"));
      this.waiting.set(id, settle);
      this.idle(false);
      signal?.addEventListener("abort", aborted, { once: true });
      child.stdin!.write(JSON.stringify({ id, tool, root, cwd, args }) + "\\n");
    });
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const child = spawn(this.program.file, [...this.program.args, "plugin-host"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr!.on("data", (b) => (stderr = (stderr + b).slice(-4000)));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      let reply: Reply;
      try {
        reply = JSON.parse(line) as Reply;
      } catch {
        return;
      }
      this.waiting.get(reply.id)?.(reply);
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      for (const [id, settle] of [...this.waiting]) settle({ id, error: why });
    };
    child.on("error", (e: NodeJS.ErrnoException) => gone(e.code === "ENOENT" ? "ocrag is not installed: run npm i -D ocrag in the project (or put ocrag on PATH)" : \`ocrag failed to start: \${e.message}\`));
    child.on("exit", () => gone(lastLine(stderr) ?? "ocrag stopped"));
    this.child = child;
    this.idle(true);
    return child;
  }

  /** While no call waits, the host must not keep OpenCode (or anything that loaded the plugin) from exiting. */
  private idle(idle: boolean): void {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as { ref(): void; unref(): void }[]) {
      if (idle) handle?.unref?.();
      else handle?.ref?.();
    }
  }
}

/** ocrag says what went wrong in one "ocrag: …" line on stderr. */
function lastLine(stderr: string): string | null {
  const lines = stderr.split("\\n").map((l) => l.trim()).filter(Boolean);
  return lines.reverse().find((l) => l.startsWith("ocrag:")) ?? lines[0] ?? null;
}

const hosts = new Map<string, Host>();

/** Asks the host of the ocrag that serves this project (started on first use). */
function ask(tool: string, root: string, cwd: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
  const program = ocrag(root);
  const key = JSON.stringify(program);
  let host = hosts.get(key);
  if (!host) hosts.set(key, (host = new Host(program)));
  return host.call(tool, root, cwd, args, signal);
}

export const OcragPlugin: Plugin = async (input) => {
  const rootOf = (ctx: { worktree?: string; directory?: string }) => ctx.worktree || ctx.directory || input.worktree || input.directory;
  const cwdOf = (ctx: { directory?: string }) => ctx.directory || input.directory;
  return {
    tool: {
${surfaceTools('opencode').map(toolSource).join('\n')}
    },
  };
};
`;
}

/** One tool as code: its description, its arguments' zod calls, and a body that asks the host. */
function toolSource(t: SurfaceTool): string {
  const args = t.args.map(([name, arg]) => `\n          ${name}: tool.schema${argChain(arg, 'opencode').map(callSource).join('')},`);
  return `      ${t.name}: tool({
        description: ${JSON.stringify(t.description)},
        args: {${args.join('')}${args.length ? '\n        ' : ''}},
        async execute(args, ctx) {
          return ask(${JSON.stringify(t.id)}, rootOf(ctx), cwdOf(ctx), args, ctx.abort);
        },
      }),`;
}

function callSource([method, ...args]: SchemaCall): string {
  return `.${method}(${args.map((a) => (a instanceof RegExp ? a.toString() : JSON.stringify(a))).join(', ')})`;
}

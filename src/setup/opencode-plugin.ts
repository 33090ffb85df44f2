/** Where OpenCode loads a project's plugins from by itself: every `*.ts` in `.opencode/plugin/` (OpenCode 1.18). */
export const OPENCODE_PLUGIN_PATH = '.opencode/plugin/ocrag.ts';

/** This installation as setup found it: the plugin's fallback when the project has no ocrag of its own. */
export interface Installation {
  node: string;
  entry: string;
}

/**
 * The OpenCode plugin `ocrag setup opencode` writes: four tools written with `tool()` of `@opencode-ai/plugin`
 * (which OpenCode installs into `.opencode/node_modules` itself), each running the ocrag CLI without a shell
 * and returning its text. A template rather than a shipped file, so the installation's path can be recorded in it.
 */
export function opencodePlugin(installation: Installation): string {
  return `// Written by \`ocrag setup opencode\` (\`ocrag setup opencode --remove\` deletes it); edits are replaced on the next setup.
// Tools that run the ocrag CLI of this project: search its code, add and remove sources, show the index's status.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tool, type Plugin } from "@opencode-ai/plugin";

/** The installation \`ocrag setup\` ran from: used when the project has no ocrag in node_modules. */
const INSTALLED = { node: ${JSON.stringify(installation.node)}, entry: ${JSON.stringify(installation.entry)} };
/** A first search indexes the whole repository: minutes on a large one, so the budget is generous. */
const TIMEOUT_MS = 10 * 60_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The project's own ocrag, else this machine's installation, else the ocrag on PATH. */
function ocrag(root: string): { file: string; args: string[] } {
  const local = path.join(root, "node_modules", ".bin", "ocrag");
  if (fs.existsSync(local)) return { file: local, args: [] };
  if (fs.existsSync(INSTALLED.node) && fs.existsSync(INSTALLED.entry)) return { file: INSTALLED.node, args: [INSTALLED.entry] };
  return { file: "ocrag", args: [] };
}

/** Runs ocrag with an argument array (no shell: queries and paths are passed as they are); stdout, else stderr. */
function run(root: string, cwd: string, args: string[], signal?: AbortSignal): Promise<string> {
  const { file, args: head } = ocrag(root);
  return new Promise((resolve, reject) => {
    execFile(file, [...head, ...args], { cwd, signal, timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      if (!error) return resolve(String(stdout).trim() || String(stderr).trim() || "done");
      reject(new Error(oneLine(error as NodeJS.ErrnoException, String(stderr))));
    });
  });
}

/** ocrag says what went wrong in one "ocrag: …" line on stderr; that line is the tool's error. */
function oneLine(error: NodeJS.ErrnoException, stderr: string): string {
  if (error.code === "ENOENT") return "ocrag is not installed: run npm i -D ocrag in the project (or put ocrag on PATH)";
  const lines = stderr.split("\\n").map((l) => l.trim()).filter(Boolean);
  return lines.reverse().find((l) => l.startsWith("ocrag:")) ?? lines[0] ?? \`ocrag failed: \${error.message.split("\\n")[0]}\`;
}

export const OcragPlugin: Plugin = async (input) => {
  const rootOf = (ctx: { worktree?: string; directory?: string }) => ctx.worktree || ctx.directory || input.worktree || input.directory;
  const cwdOf = (ctx: { directory?: string }) => ctx.directory || input.directory;
  return {
    tool: {
      ocrag_search: tool({
        description: "Search this repository's code (checked-out branch plus uncommitted edits) by meaning or by name. Use it before opening files you don't know: returns the best functions/classes with path:lines, symbol, score and code.",
        args: {
          query: tool.schema.string().min(1).describe("what you look for: a question, a behaviour, or an identifier (English or Chinese)"),
          k: tool.schema.number().int().min(1).max(50).optional().describe("how many results (default 10)"),
          path: tool.schema.string().optional().describe("only paths matching this glob, e.g. src/** or **/*.py"),
          language: tool.schema.string().optional().describe("only this language, e.g. typescript, python, go"),
          format: tool.schema.enum(["text", "markdown", "json"]).optional().describe("markdown (default), text or json"),
        },
        async execute(args, ctx) {
          const flags = ["-k", String(args.k ?? 10), "--format", args.format ?? "markdown"];
          if (args.path) flags.push("--path", args.path);
          if (args.language) flags.push("--language", args.language);
          return run(rootOf(ctx), cwdOf(ctx), ["search", ...flags, "--", args.query], ctx.abort);
        },
      }),
      ocrag_add: tool({
        description: "Add folders or files outside the code (design docs, PDFs, CSVs, another checkout) as a source that ocrag_search finds beside the code.",
        args: {
          paths: tool.schema.array(tool.schema.string().min(1)).min(1).describe("folders or files, relative to the project or absolute"),
          name: tool.schema.string().optional().describe("what results call the source (default: the folder name)"),
        },
        async execute(args, ctx) {
          const flags = args.name ? ["--name", args.name] : [];
          return run(rootOf(ctx), cwdOf(ctx), ["add", ...flags, "--", ...args.paths], ctx.abort);
        },
      }),
      ocrag_remove: tool({
        description: "Remove a source added with ocrag_add; nothing of it is searched any more.",
        args: { source: tool.schema.string().min(1).describe("the source's name, or the path it was added with") },
        async execute(args, ctx) {
          return run(rootOf(ctx), cwdOf(ctx), ["remove", "--", args.source], ctx.abort);
        },
      }),
      ocrag_status: tool({
        description: "Show what ocrag has indexed: branch, indexed commit vs HEAD, files and chunks, skipped files. Use it when results look stale or empty.",
        args: {},
        async execute(_args, ctx) {
          return run(rootOf(ctx), cwdOf(ctx), ["status"], ctx.abort);
        },
      }),
    },
  };
};
`;
}

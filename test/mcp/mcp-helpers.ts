import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, git, GIT_IDENTITY, makeFixtureRepo, runJson, TEST_CACHE } from '../helpers.js';
import type { SearchResult } from '../../src/search/search.js';

/** A search_code result: the service's result with the chunk text as `code`. */
export type CodeResult = Omit<SearchResult, 'text'> & { code: string };
/** A find_symbol result: a search_code result with how the name matched. */
export type SymbolResult = CodeResult & { match: string };

/** `ocrag mcp` as an agent starts it: a child process spoken to over stdio by the SDK's own client. */
export async function startServer(cwd: string, args: string[] = [], env: Record<string, string> = {}): Promise<Client> {
  return (await startServerWithStderr(cwd, args, env)).client;
}

/** The fixture repository, indexed, and `ocrag mcp` started in it. */
export async function servedFixture(): Promise<{ repo: string; client: Client }> {
  const repo = makeFixtureRepo();
  await runJson(['index'], repo);
  return { repo, client: await startServer(repo) };
}

/** The fixture repository with these files (path → text) committed on top, indexed, and `ocrag mcp` started in it. */
export async function serveFixtureWith(files: Record<string, string>): Promise<Client> {
  const repo = makeFixtureRepo();
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), content);
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'files of the test');
  await runJson(['index'], repo);
  return startServer(repo);
}

/** The same, with everything the server logs on stderr so far (its one-line notices). */
export async function startServerWithStderr(cwd: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    cwd,
    env: { ...(process.env as Record<string, string>), OCRAG_CACHE: TEST_CACHE, ...GIT_IDENTITY, ...env },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (b: Buffer) => (log += b));
  const client = new Client({ name: 'ocrag-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => log };
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export async function search(client: Client, query: string, args: Record<string, unknown> = {}): Promise<CodeResult[]> {
  const r = await call(client, 'search_code', { query, ...args });
  assert.ok(!r.isError, `search_code failed: ${text(r)}`);
  return (r.structuredContent as { results: CodeResult[] }).results;
}

export async function findSymbol(client: Client, name: string): Promise<SymbolResult[]> {
  const r = await call(client, 'find_symbol', { name });
  assert.ok(!r.isError, text(r));
  return (r.structuredContent as { results: SymbolResult[] }).results;
}

export function text(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

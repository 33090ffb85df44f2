import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Command } from 'commander';
import { registerMcp } from '../../src/cli/commands/mcp-command.js';
import { CLI, LONG_QUESTION_WITH_IDENTIFIER, PROJECT_ROOT, git, runCommand, tempDir } from '../helpers.js';
import { call, search, startServer, text, until, type CodeResult, servedFixture } from './mcp-helpers.js';

describe('ocrag mcp, driven by the MCP SDK client over stdio', () => {
  let repo: string;
  let client: Client;

  before(async () => {
    ({ repo, client } = await servedFixture());
  });

  after(async () => {
    await client?.close();
  });

  test('lists its tools, each with a description and input and output schemas with bounds', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual([...byName.keys()].sort(), ['add_source', 'find_symbol', 'index_cancel', 'index_codebase', 'index_status', 'list_sources', 'reindex', 'related', 'remove_source', 'search_code', 'set_root']);
    const program = new Command();
    registerMcp(program);
    assert.deepEqual(program.commands[0].description().split(': ')[1].split(', ').sort(), [...byName.keys()].sort(), '`ocrag mcp --help` names every tool');
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 80, `${tool.name} explains itself`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    }
    const input = byName.get('search_code')!.inputSchema as { properties: Record<string, { minimum?: number; maximum?: number; default?: number }>; required: string[] };
    assert.deepEqual(input.required, ['query']);
    assert.deepEqual([input.properties.k.minimum, input.properties.k.maximum, input.properties.k.default], [1, 50, 10]);
    assert.ok(['path_glob', 'language'].every((p) => p in input.properties));
  });

  test('search_code finds the fixture function, in structuredContent and as text', async () => {
    const r = await call(client, 'search_code', { query: 'parse command line arguments', k: 5 });
    assert.ok(!r.isError, text(r));
    const { query, results } = r.structuredContent as { query: string; results: CodeResult[] };
    assert.equal(query, 'parse command line arguments');
    assert.equal(results[0].path, 'src/cli/args.ts');
    const parser = results.find((x) => /function parseArgs/.test(x.code));
    assert.ok(parser, 'the argv parser is among the results');
    const lines = git(repo, 'show', 'HEAD:src/cli/args.ts').split('\n').slice(parser.startLine - 1, parser.endLine).join('\n');
    assert.equal(parser.code, lines, 'code holds exactly the lines it claims');
    assert.match(text(r), new RegExp(`src/cli/args\\.ts:${parser.startLine}-${parser.endLine}`));
  });

  test('filters by language and path glob, and keeps to a token budget', async () => {
    const python = await search(client, 'retry a database query when it is locked', { language: 'python', k: 5 });
    assert.ok(python.length > 0 && python.every((r) => r.language === 'python'), python.map((r) => r.path).join(', '));
    const server = await search(client, 'hash and verify user passwords', { path_glob: 'server/**' });
    assert.ok(server.length > 0 && server.every((r) => r.path.startsWith('server/')));
    const small = await call(client, 'search_code', { query: 'parse command line arguments', k: 10, max_tokens: 200 });
    const kept = (small.structuredContent as { results: CodeResult[] }).results;
    assert.ok(kept.length < 10 && text(small).length / 4 < 320, `${kept.length} results, ${text(small).length} chars`);
  });

  test('bad arguments and unknown tools are tool errors, and the server keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search_code', { query: 'x', k: 0 }, /k/],
      ['search_code', { query: 'x', k: 1000 }, /k/],
      ['search_code', { k: 3 }, /query/],
      ['search_code', { query: '   ' }, /query/],
      ['no_such_tool', {}, /no_such_tool/],
      ['related', { path: 'no/such/file.ts' }, /not in the index/],
    ];
    for (const [name, args, message] of cases) {
      const r = await call(client, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} is an error`);
      assert.match(text(r), message);
    }
    assert.equal((await search(client, 'parse command line arguments', { k: 1 }))[0].path, 'src/cli/args.ts');
  });

  test('search_code answers "no good match" to a question the code cannot answer, and min_score overrides the cut', async () => {
    for (const query of ['how to knit a wool sweater for winter', 'wedding dress shopping tips', 'kubernetes helm chart ingress annotations', '今天天气怎么样']) {
      const r = await call(client, 'search_code', { query });
      assert.ok(!r.isError, text(r));
      const { results, notice } = r.structuredContent as { results: CodeResult[]; notice?: string };
      assert.deepEqual(results, [], `${query}: no chunk`);
      assert.match(notice ?? '', /^no good match for ".+": .*an identifier you know \(find_symbol finds a definition by its name\), or min_score=0/);
      assert.match(text(r), /no good match for/);
      const all = await search(client, query, { min_score: 0, k: 3 });
      assert.equal(all.length, 3, 'min_score=0 keeps the closest chunks');
    }
    const real = await search(client, 'parse command line arguments', { k: 3 });
    assert.equal(real[0].path, 'src/cli/args.ts', 'a real question still gets its chunk');
    assert.equal((await search(client, 'parseArgs', { k: 1 }))[0].path, 'src/cli/args.ts', 'and an identifier');
    assert.equal((await search(client, LONG_QUESTION_WITH_IDENTIFIER, { k: 3 }))[0]?.path, 'src/cli/args.ts', 'and a long question naming a rare identifier');
  });

  test('find_symbol returns the definition by exact name first; related finds similar code but not the anchor', async () => {
    const r = await call(client, 'find_symbol', { name: 'parseArgs' });
    const found = (r.structuredContent as { results: (CodeResult & { match: string })[] }).results;
    assert.equal(found[0].match, 'exact');
    assert.equal(found[0].path, 'src/cli/args.ts');
    const line = found[0].startLine;
    const rel = await call(client, 'related', { path: 'src/cli/args.ts', startLine: line + 1, k: 5 });
    assert.ok(!rel.isError, text(rel));
    const { anchor, results } = rel.structuredContent as { anchor: { path: string; startLine: number; endLine: number }; results: CodeResult[] };
    assert.equal(anchor.path, 'src/cli/args.ts');
    assert.ok(results.length > 0);
    assert.ok(results.every((x) => x.path !== anchor.path || x.endLine < anchor.startLine || x.startLine > anchor.endLine), 'the anchor itself is left out');
  });

  test('repeated queries reuse the cached query vector', async () => {
    const status = async () => (await call(client, 'index_status')).structuredContent as { queryCache: { hits: number } };
    const hits = (await status()).queryCache.hits;
    await search(client, 'evict least recently used cache entry');
    await search(client, 'evict least recently used cache entry');
    assert.ok((await status()).queryCache.hits > hits);
  });

  test('every search sees the work tree and HEAD as they are now: edits, new folders, commits, branches', async () => {
    const marker = (word: string) => `export function ${word}Sprocket(): string {\n  return 'calibrate the ${word} sprocket flux capacitor';\n}\n`;
    // min_score 0: before the marker exists nothing matches it, and the test wants the closest chunk then.
    const top = async (query: string) => (await search(client, query, { k: 3, min_score: 0 }))[0];
    assert.doesNotMatch((await top('calibrate the sprocket flux capacitor')).code, /Sprocket/);

    fs.writeFileSync(path.join(repo, 'src/sprocket.ts'), marker('zinc'));
    assert.equal((await top('calibrate the zinc sprocket flux capacitor')).path, 'src/sprocket.ts', 'an untracked file');
    fs.writeFileSync(path.join(repo, 'src/sprocket.ts'), marker('cobalt'));
    assert.match((await top('calibrate the cobalt sprocket flux capacitor')).code, /cobaltSprocket/, 'an edit of it');
    fs.mkdirSync(path.join(repo, 'gears/inner'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'gears/inner/wheel.ts'), marker('nickel'));
    assert.equal((await top('calibrate the nickel sprocket flux capacitor')).path, 'gears/inner/wheel.ts', 'a file in new folders');
    fs.writeFileSync(path.join(repo, 'gears/inner/later.ts'), marker('copper'));
    assert.equal((await top('calibrate the copper sprocket flux capacitor')).path, 'gears/inner/later.ts', 'a file added later in a new folder');
    fs.rmSync(path.join(repo, 'gears'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'gears/inner'), { recursive: true });
    assert.doesNotMatch((await top('calibrate the copper sprocket flux capacitor')).code, /copperSprocket/, 'a deleted folder');
    fs.writeFileSync(path.join(repo, 'gears/inner/later.ts'), marker('tin'));
    assert.equal((await top('calibrate the tin sprocket flux capacitor')).path, 'gears/inner/later.ts', 'a file in a folder made again');
    fs.writeFileSync(path.join(repo, 'gears/inner/later.ts'), marker('iron'));
    assert.match((await top('calibrate the iron sprocket flux capacitor')).code, /ironSprocket/, 'an edit in a folder made again');

    git(repo, 'checkout', '-q', '-b', 'feature');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'sprockets');
    const committed = await call(client, 'index_status');
    assert.equal((committed.structuredContent as { branch: string }).branch, 'feature');
    assert.equal((await top('calibrate the cobalt sprocket flux capacitor')).path, 'src/sprocket.ts', 'after the commit');
    const status = (await call(client, 'index_status')).structuredContent as { upToDate: boolean; indexedCommit: string; head: string };
    assert.ok(status.upToDate && status.indexedCommit === status.head, 'the search indexed the new commit');

    git(repo, 'checkout', '-q', 'main');
    assert.ok((await search(client, 'calibrate the cobalt sprocket flux capacitor', { k: 5 })).every((r) => !/Sprocket/.test(r.code)), 'gone on main');
  });

  test('reindex runs in the background, reports progress through index_status, and index_cancel stops it cleanly', async () => {
    const started = await call(client, 'reindex', { full: true });
    assert.equal((started.structuredContent as { started: boolean }).started, true);
    const cancel = await call(client, 'index_cancel');
    assert.equal((cancel.structuredContent as { cancelled: boolean }).cancelled, true);
    const stopped = await until('the cancelled run to stop', async () => {
      const s = (await call(client, 'index_status')).structuredContent as { reindex: { state: string } };
      return ['cancelled', 'done'].includes(s.reindex.state) ? s.reindex.state : null;
    });
    assert.equal(stopped, 'cancelled');
    assert.equal((await search(client, 'parse command line arguments', { k: 1 }))[0].path, 'src/cli/args.ts', 'searchable again after a cancelled rebuild');

    await call(client, 'reindex', {});
    const done = await until('the incremental run', async () => {
      const s = (await call(client, 'index_status')).structuredContent as { reindex: { state: string; percent: number; errors: string[] }; upToDate: boolean };
      return s.reindex.state === 'done' ? s : null;
    });
    assert.equal(done.reindex.percent, 100);
    assert.deepEqual(done.reindex.errors, []);
    assert.equal(done.upToDate, true);
  });

  test('a long catch-up with HEAD answers "search again" with progress instead of blocking, then serves the new commit', async () => {
    git(repo, 'checkout', '-q', '-b', 'far-away');
    fs.writeFileSync(path.join(repo, 'src/far.ts'), 'export function farAwayGizmo(): number {\n  return 42;\n}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'far');
    const impatient = await startServer(repo, [], { OCRAG_MCP_WAIT_MS: '0' });
    try {
      const first = await call(impatient, 'search_code', { query: 'farAwayGizmo' });
      assert.equal(first.isError, true, text(first));
      assert.match(text(first), /catching up with HEAD \(\d+%.*search again in a moment/);
      await until('the catch-up to finish', async () => {
        const s = (await call(impatient, 'index_status')).structuredContent as { reindex: { state: string } };
        return s.reindex.state === 'done' ? true : null;
      });
      assert.equal((await search(impatient, 'farAwayGizmo', { k: 1 }))[0].path, 'src/far.ts');
    } finally {
      await impatient.close();
      git(repo, 'checkout', '-q', 'main');
    }
  });

  test('the same flow works through an independent client: @modelcontextprotocol/inspector-cli', async () => {
    const inspector = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
    // The inspector looks for its own package.json relative to its working directory, so it runs in its folder
    // and the server is pointed at the repository with --repo.
    const inspectorDir = path.dirname(inspector);
    const list = await runCommand(process.execPath, [inspector, process.execPath, CLI, 'mcp', '--repo', repo, '--method', 'tools/list'], inspectorDir);
    assert.equal(list.code, 0, list.stderr);
    assert.ok((JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.some((t) => t.name === 'search_code'));
    const r = await runCommand(process.execPath, [inspector, process.execPath, CLI, 'mcp', '--repo', repo, '--method', 'tools/call', '--tool-name', 'search_code', '--tool-arg', 'query=parse command line arguments', 'k=2'], inspectorDir);
    assert.equal(r.code, 0, r.stderr);
    const answer = JSON.parse(r.stdout) as { structuredContent: { results: CodeResult[] } };
    assert.equal(answer.structuredContent.results[0].path, 'src/cli/args.ts');
  });

  test('outside a repository the server still starts and says what to do', async () => {
    const outside = await startServer(tempDir('no-repo'));
    try {
      const r = await call(outside, 'search_code', { query: 'anything' });
      assert.equal(r.isError, true);
      assert.match(text(r), /not inside a git repository.*--repo/s);
      assert.equal((await outside.listTools()).tools.length, 11);
    } finally {
      await outside.close();
    }
  });
});

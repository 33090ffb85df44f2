import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, test } from 'node:test';
import { PROJECT_ROOT, runCli, runCommand, TEST_CACHE, tempDir, twoLanguageRepo } from '../helpers.js';
import { linkPluginPackage, offlineEnv, OPENCODE } from './opencode-env.js';

interface Tool {
  description: string;
  args: Record<string, unknown>;
  execute(args: Record<string, unknown>, ctx: Record<string, unknown>): Promise<{ title: string; output: string }>;
}

describe('the OpenCode plugin', () => {
  let repo: string;
  let tools: Record<string, Tool>;
  let docs: string;
  const ctx = () => ({ sessionID: 's', messageID: 'm', agent: 'build', directory: repo, worktree: repo, abort: new AbortController().signal, metadata: () => undefined, ask: async () => undefined });
  /** A tool's output as the agent reads it; every answer also has a title for OpenCode to show. */
  const run = async (name: string, args: Record<string, unknown>, context: Record<string, unknown> = ctx()): Promise<string> => {
    const { title, output } = await tools[name].execute(args, context);
    assert.ok(typeof title === 'string' && title.trim().length > 0 && !title.includes('\n'), `${name} has a one-line title: ${JSON.stringify(title)}`);
    return output;
  };

  before(async () => {
    repo = twoLanguageRepo();
    const r = await runCli(['setup', 'opencode'], repo);
    assert.equal(r.code, 0, r.stderr);
    linkPluginPackage(repo);
    docs = path.join(tempDir('docs'), 'design');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'retries.md'), '# Retry policy\n\nFailed uploads are retried with exponential backoff: 1 s, 2 s, 4 s, then the job gives up.\n');
    // The plugin's ocrag runs with the plugin's environment: this test's model cache.
    process.env.OCRAG_CACHE = TEST_CACHE;
    // Bun (OpenCode) loads the .ts as an ES module; Node 20 takes a .ts outside a "type": "module" package for
    // CommonJS, which cannot import the ESM-only plugin package: the same bytes as .mts load as OpenCode loads them.
    const written = path.join(repo, '.opencode', 'plugin', 'ocrag.ts');
    const asModule = path.join(tempDir('plugin-load'), 'ocrag.mts');
    fs.copyFileSync(written, asModule);
    fs.symlinkSync(path.join(repo, '.opencode', 'node_modules'), path.join(path.dirname(asModule), 'node_modules'));
    const plugin = (await import(pathToFileURL(asModule).href)) as Record<string, (input: unknown) => Promise<{ tool: Record<string, Tool> }>>;
    const hooks = await plugin.OcragPlugin({ directory: repo, worktree: repo, project: {}, client: {}, $: undefined, serverUrl: new URL('http://127.0.0.1:1') });
    tools = hooks.tool;
  });

  test('is written once, with the four tools, their zod arguments and the skill that says when to use them', async () => {
    assert.deepEqual(Object.keys(tools).sort(), ['ocrag_add', 'ocrag_remove', 'ocrag_search', 'ocrag_status']);
    const { tool } = await import('@opencode-ai/plugin');
    const search = tool.schema.object(tools.ocrag_search.args as never);
    assert.equal(search.safeParse({ query: 'x', k: 3, path: 'src/**', language: 'python', format: 'json' }).success, true);
    assert.equal(search.safeParse({ query: 'x', format: 'xml' }).success, false);
    assert.equal(search.safeParse({ query: '' }).success, false);
    assert.equal(search.safeParse({ query: 'x'.repeat(10_000) }).success, true, 'a pasted stack trace of 10,000 characters');
    assert.equal(search.safeParse({ query: 'x'.repeat(10_001) }).success, false);
    const skill = fs.readFileSync(path.join(repo, '.opencode/skills/ocrag/SKILL.md'), 'utf8');
    for (const name of Object.keys(tools)) assert.match(skill, new RegExp(`\`${name}\``));
    const again = await runCli(['setup', 'opencode'], repo);
    assert.equal(again.stderr.match(/unchanged/g)?.length, 3, again.stderr);
  });

  test('type-checks strictly against the package\'s own types', async () => {
    const tsc = path.join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', '--types', 'node', '--typeRoots', path.join(PROJECT_ROOT, 'node_modules', '@types')];
    const r = await runCommand(process.execPath, [tsc, ...flags, path.join(repo, '.opencode', 'plugin', 'ocrag.ts')], repo);
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });

  test('ocrag_search returns the CLI\'s markdown, narrowed by path and language; json on request', async () => {
    const text = await run('ocrag_search', { query: 'copy the database file to a dated backup', k: 2 });
    assert.match(text, /^### `tools\/backup\.py:1-3` · `[^`]*backup_database`/m, text);
    assert.match(text, /```python\ndef backup_database/);
    const python = await run('ocrag_search', { query: 'cache lookup by key', k: 5, language: 'python' });
    assert.ok(!/\.ts:/.test(python), python);
    const json = JSON.parse(await run('ocrag_search', { query: 'split a path into route segments', k: 1, path: 'src/**', format: 'json' })) as { path: string }[];
    assert.deepEqual(json.map((r) => r.path), ['src/router.ts']);
    const titled = await tools.ocrag_search.execute({ query: 'copy the database file to a dated backup', k: 2 }, ctx());
    assert.equal(titled.title, '2 results for "copy the database file to a dated backup"');
    const dashed = await run('ocrag_search', { query: '--help', k: 1 });
    assert.doesNotMatch(dashed, /Usage:/, 'a query that looks like a flag is searched, not parsed');
  });

  test('ocrag_add makes a folder searchable, ocrag_status lists it, ocrag_remove takes it out', async () => {
    const added = await run('ocrag_add', { paths: [docs], name: 'design' });
    assert.match(added, /added source "design" .*: 1 files indexed/);
    const found = await run('ocrag_search', { query: 'how are failed uploads retried', k: 3 });
    assert.match(found, /design:retries\.md/);
    assert.match((await tools.ocrag_status.execute({}, ctx())).title, /^main @ [0-9a-f]{8}, up to date: \d+ files, \d+ chunks$/);
    const status = await run('ocrag_status', {});
    assert.match(status, /^checked out main @ [0-9a-f]{8}$/m);
    assert.match(status, /up to date/);
    const removed = await run('ocrag_remove', { source: 'design' });
    assert.match(removed, /removed source "design"/);
    const after = await run('ocrag_search', { query: 'how are failed uploads retried', k: 3 });
    assert.doesNotMatch(after, /design:/);
  });

  test('errors come back as one line', async () => {
    await assert.rejects(tools.ocrag_remove.execute({ source: 'nothing-like-it' }, ctx()), (e: Error) => /^ocrag: /.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search.execute({ query: 'x', k: 3 }, { ...ctx(), directory: tempDir('not-a-repo'), worktree: tempDir('not-a-repo') }), (e: Error) => /^ocrag: .*git/i.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search.execute({ query: 'x', path: 'nonexistent/**' }, ctx()), (e: Error) => /^ocrag: no file matches the path glob "nonexistent\/\*\*"/.test(e.message) && !e.message.includes('\n'));
    await assert.rejects(tools.ocrag_search.execute({ query: 'x', language: 'kotlin' }, ctx()), (e: Error) => /^ocrag: no kotlin file among the \d+ files: the languages here are .*python \(2\)/.test(e.message));
  });

  test('one long-lived ocrag answers every call, sees settings changed between calls, and is started again when it dies', async () => {
    const hosts = () => execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).split('\n').filter((l) => l.includes('plugin-host'));
    for (let i = 0; i < 3; i++) await run('ocrag_search', { query: 'lookup by key', k: 1 });
    assert.equal(hosts().length, 1, hosts().join('\n'));
    // A file excluded between two calls is gone from the next answer: each call sees the settings of its moment.
    assert.match(await run('ocrag_search', { query: 'render report rows', k: 4 }), /tools\/report\.py/);
    assert.match(await run('ocrag_remove', { source: 'tools/report.py' }), /^excluded tools\/report\.py/);
    assert.doesNotMatch(await run('ocrag_search', { query: 'render report rows', k: 4 }), /tools\/report\.py/);
    const [pid] = hosts()[0].trim().split(/\s+/);
    process.kill(Number(pid), 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.match(await run('ocrag_search', { query: 'copy the database file to a dated backup', k: 1 }), /tools\/backup\.py/);
    assert.equal(hosts().length, 1, hosts().join('\n'));
  });

  test('setup --remove deletes the plugin and the skill, and takes the MCP entry out', async () => {
    const copy = twoLanguageRepo();
    await runCli(['setup', 'opencode'], copy);
    const r = await runCli(['setup', 'opencode', '--remove'], copy);
    assert.equal(r.code, 0, r.stderr);
    for (const file of ['opencode.json', '.opencode/plugin/ocrag.ts', '.opencode/skills/ocrag/SKILL.md']) assert.ok(!fs.existsSync(path.join(copy, file)), file);
    assert.ok(!fs.existsSync(path.join(copy, '.opencode')), 'the folders setup made go when empty');
  });
});

describe('OpenCode itself', () => {
  test('discovers the skill and the plugin\'s tools, and runs ocrag_search', async (t) => {
    const env = offlineEnv();
    const version = await runCommand(OPENCODE, ['--version'], PROJECT_ROOT, env).catch(() => null);
    if (!version || version.code !== 0) return t.skip(`opencode cannot start here: ${version?.stderr.trim() ?? 'not installed'}`);
    const repo = twoLanguageRepo();
    assert.equal((await runCli(['setup', 'opencode'], repo)).code, 0);
    linkPluginPackage(repo);
    const skills = await runCommand(OPENCODE, ['debug', 'skill'], repo, env);
    assert.equal(skills.code, 0, skills.stderr);
    const ocrag = (JSON.parse(skills.stdout) as { name: string; location: string; content: string }[]).find((s) => s.name === 'ocrag');
    assert.ok(ocrag, skills.stdout.slice(0, 500));
    assert.equal(ocrag.location, path.join(fs.realpathSync(repo), '.opencode/skills/ocrag/SKILL.md'));
    assert.match(ocrag.content, /ocrag_search/);
    const agent = await runCommand(OPENCODE, ['debug', 'agent', 'build'], repo, env);
    assert.equal(agent.code, 0, agent.stderr);
    const tools = (JSON.parse(agent.stdout) as { tools: Record<string, boolean> }).tools;
    for (const name of ['ocrag_search', 'ocrag_add', 'ocrag_remove', 'ocrag_status']) assert.equal(tools[name], true, JSON.stringify(tools));
    const run = await runCommand(OPENCODE, ['debug', 'agent', 'build', '--tool', 'ocrag_search', '--params', JSON.stringify({ query: 'copy the database file to a dated backup', k: 1 })], repo, env);
    assert.equal(run.code, 0, run.stderr);
    const { output, title } = (JSON.parse(run.stdout) as { result: { output: string; title?: string } }).result;
    assert.match(output, /tools\/backup\.py:1-3/);
    assert.equal(title, '1 result for "copy the database file to a dated backup"', 'the call shows a title');
  });
});

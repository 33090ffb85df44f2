// search_code's answers are never empty for the wrong reason: a small max_tokens still gets the best result (cut),
// a filter that cannot match says why, a pasted 10,000-character stack trace is read; every tool has a title.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { estimateTokens } from '../../src/render/budget.js';
import { MAX_QUERY_CHARS } from '../../src/search/query-limit.js';
import { makeFixtureRepo, runJson } from '../helpers.js';
import { fixtureStackTrace } from '../support/stack-trace.js';
import { call, startServer, text, type CodeResult } from './mcp-helpers.js';

interface Answer {
  query: string;
  results: CodeResult[];
  notice?: string;
  leftOut?: { dropped: number; cut: number; maxTokens: number };
}

describe('search_code through the MCP client: budgets, filters, long queries, titles', () => {
  let client: Client;

  before(async () => {
    const repo = makeFixtureRepo();
    await runJson(['index'], repo);
    client = await startServer(repo);
  });

  after(async () => {
    await client?.close();
  });

  test('max_tokens smaller than the best result answers that result cut to its path, lines and first lines, and says what was left out', async () => {
    for (const maxTokens of [100, 150]) {
      const r = await call(client, 'search_code', { query: 'parse command line arguments', k: 5, max_tokens: maxTokens });
      assert.ok(!r.isError, text(r));
      const { results, leftOut, notice } = r.structuredContent as unknown as Answer;
      assert.equal(results.length, 1, `max_tokens ${maxTokens}: one result`);
      const [best] = results;
      assert.deepEqual([best!.path, best!.symbol], ['src/cli/args.ts', 'function parseArgs']);
      assert.ok(best!.endLine - best!.startLine > 20, 'the location is the whole function');
      assert.match(best!.code, new RegExp(`⋮ \\d+ lines cut \\(\\d+-${best!.endLine}\\)$`));
      assert.ok(best!.shown && best!.shown.every((s) => s.startLine >= best!.startLine && s.endLine < best!.endLine), JSON.stringify(best!.shown));
      assert.deepEqual(leftOut, { dropped: 4, cut: 1, maxTokens });
      assert.match(notice ?? '', new RegExp(`the first result cut and 4 more left out to fit ${maxTokens} tokens`));
      assert.match(text(r), new RegExp(`### \`src/cli/args\\.ts:${best!.startLine}-${best!.endLine}\``));
      assert.match(text(r), new RegExp(`\\nThe first result cut and 4 more left out to fit ${maxTokens} tokens\\.\\n$`));
      assert.ok(estimateTokens(text(r)) <= maxTokens, `${estimateTokens(text(r))} tokens of text`);
    }
    const roomy = (await call(client, 'search_code', { query: 'parse command line arguments', k: 5, max_tokens: 100_000 })).structuredContent as unknown as Answer;
    assert.equal(roomy.leftOut, undefined, 'nothing left out, nothing said');
  });

  test('a path_glob that matches no file or is not a glob, a language no file is in or that does not exist: a one-line error saying so', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ path_glob: 'nonexistent/**' }, /^no file matches the path glob "nonexistent\/\*\*" \(of \d+ files searched\)/],
      [{ path_glob: '[' }, /^invalid path glob "\[": missing closing "\]"/],
      [{ language: 'klingon' }, /^unknown language "klingon"/],
      [{ language: 'kotlin' }, /^no kotlin file among the \d+ files: the languages here are /],
      [{ language: 'rust', path_glob: 'server/**' }, /^no rust file among the \d+ files matching "server\/\*\*"/],
    ];
    for (const [args, message] of cases) {
      const r = await call(client, 'search_code', { query: 'parse command line arguments', ...args });
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.match(text(r), message);
      assert.equal(text(r).split('\n').length, 1);
      assert.doesNotMatch(text(r), /no good match/);
    }
  });

  test(`a ${MAX_QUERY_CHARS.toLocaleString('en-US')}-character stack trace is accepted and finds the innermost own frame; past the limit is refused`, async () => {
    const trace = fixtureStackTrace(MAX_QUERY_CHARS);
    const started = performance.now();
    const r = await call(client, 'search_code', { query: trace, k: 3 });
    const ms = performance.now() - started;
    assert.ok(!r.isError, text(r).slice(0, 300));
    const { query, results } = r.structuredContent as unknown as Answer;
    assert.equal(results[0]?.path, 'src/http/router.ts', results.map((x) => x.path).join(', '));
    assert.match(results[0]!.symbol, /handle/);
    assert.equal(query, "TypeError: Cannot read properties of undefined (reading 'pathname')… (10,000 characters)", 'not echoed whole');
    assert.ok(text(r).length < 4000, `${text(r).length} characters of text`);
    assert.ok(ms < 10_000, `${Math.round(ms)} ms`);
    const over = await call(client, 'search_code', { query: `${trace}x` });
    assert.equal(over.isError, true);
    assert.match(text(over), /10000/);
  });

  test('every tool has a title, as its own field and as annotations.title', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      assert.ok(tool.title && tool.title.length > 3, `${tool.name} has a title`);
      assert.equal(tool.annotations?.title, tool.title, `${tool.name}: annotations.title, for clients of the older spec`);
    }
    const query = tools.find((t) => t.name === 'search_code')!.inputSchema.properties!.query as { maxLength?: number };
    assert.equal(query.maxLength, MAX_QUERY_CHARS);
  });
});

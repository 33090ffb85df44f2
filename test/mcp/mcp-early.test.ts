// A fresh clone's first search over MCP (the real server over stdio, the SDK's client, the real model and store):
// answered before the index is complete, said to be partial, while the index task goes on; the answer after the
// task is the normal one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { git, runJson, tempDir } from '../helpers.js';
import { call, startServer, text, until, type CodeResult } from './mcp-helpers.js';

interface Answer {
  results: CodeResult[];
  notice?: string;
}

async function ask(client: Client, query: string, extra: Record<string, unknown> = {}): Promise<{ answer: Answer; said: string }> {
  const r = await call(client, 'search_code', { query, k: 10, ...extra });
  assert.ok(!r.isError, text(r));
  return { answer: r.structuredContent as unknown as Answer, said: text(r) };
}

const QUERY = 'export the document feed digest';

describe('a fresh clone answers its first search before its index is complete', () => {
  let clone: string;
  let client: Client;

  before(async () => {
    const origin = path.join(tempDir('early-origin'), 'origin');
    await writeSyntheticRepo(origin, { files: 400 });
    clone = path.join(tempDir('early'), 'clone');
    git(path.dirname(clone), 'clone', '-q', origin, clone);
    client = await startServer(clone);
  });

  after(async () => {
    await client?.close();
  });

  test('the first search answers with the partial notice while the index task runs; after the task the answer is the normal one', async () => {
    const first = await ask(client, QUERY);
    assert.ok(first.answer.results.length > 0, 'the early answer has results');
    assert.match(first.answer.notice ?? '', /^partial answer: .*searched \d+ of 400 files.*task [0-9a-f]{12}/);
    assert.match(first.said, /partial answer/);
    const task = /task ([0-9a-f]{12})/.exec(first.answer.notice!)![1];
    const status = await call(client, 'index_status', { task_id: task });
    assert.ok(!status.isError, text(status));
    // The run stores what the answer embedded before it starts, so it has fewer files left to store than HEAD holds.
    const toStore = await until('the run to count what it has to store', async () => {
      const t = ((await call(client, 'index_status', { task_id: task })).structuredContent as { task: { state: string; files: { total: number } } }).task;
      return t.state !== 'running' ? Promise.reject(new Error(`the task ended (${t.state}) before it was seen storing`)) : t.files.total > 0 ? t.files.total : null;
    });

    // The task ends; the same question then has no notice and the answer a search of the finished index gives.
    await until('the index task to end', async () => {
      const s = (await call(client, 'index_status', { task_id: task })).structuredContent as { state?: string; task?: { state: string } };
      const state = s.task?.state ?? s.state;
      return state === 'done' ? true : state === 'failed' ? Promise.reject(new Error('index task failed')) : null;
    }, 300_000);
    const { blobs } = await runJson<{ blobs: number }>(['status', '--json'], clone);
    assert.ok(toStore < blobs, `the run stored ${toStore} of HEAD's ${blobs} contents itself`);
    const final = await ask(client, QUERY);
    assert.equal(final.answer.notice, undefined);
    const normal = await runJson<{ path: string; startLine: number; endLine: number }[]>(['search', QUERY, '-k', '10', '--no-update'], clone);
    const where = (r: { path: string; startLine: number; endLine: number }) => `${r.path}:${r.startLine}-${r.endLine}`;
    assert.deepEqual(final.answer.results.map(where), normal.map(where));
  });

  test('a query that starts with "-" is searched as words, never read as an option of git', async () => {
    const fresh = path.join(tempDir('early-dash'), 'clone');
    git(path.dirname(fresh), 'clone', '-q', clone, fresh);
    const other = await startServer(fresh);
    try {
      const pwned = path.join(fresh, 'pwned');
      // min_score 0: the question is mostly an attacker's option text, which the relevance cut would rightly call no
      // good match; here the early answer must run its lexical pass over those words and still answer.
      const { answer } = await ask(other, `--open-files-in-pager=touch ${pwned} -O document feed`, { min_score: 0 });
      assert.ok(answer.results.length > 0);
      assert.match(answer.notice ?? '', /partial answer/);
      assert.equal(fs.existsSync(pwned), false);
    } finally {
      await other.close();
    }
  });
});

// A long-lived MCP server whose own background reindex is still working for one branch when the user checks out
// another that was never indexed: it answers for the new branch once indexed, never from the old branch's files.
// The test holds the index lock, so the server's run is reliably still going when the branch switches.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { tryLock, type FileLock } from '../../src/util/file-lock.js';
import { git, makeFixtureRepo, runJson } from '../helpers.js';
import { call, search, startServerWithStderr, text, until } from './mcp-helpers.js';
import { layoutOf } from '../robustness/robustness-helpers.js';

const marker = (word: string) => `/** The ${word} marker: only one branch has it. */\nexport function ${word}(): string {\n  return '${word}';\n}\n`;

function commitFile(repo: string, rel: string, word: string): void {
  fs.writeFileSync(path.join(repo, rel), marker(word));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', word);
}

/**
 * A repository on an indexed branch `feature`, a server on it, and a reindex of that server's that has read HEAD
 * (feature) and now waits for the index lock this test holds.
 */
async function serverMidReindex(env: Record<string, string>): Promise<{ repo: string; client: Client; lock: FileLock }> {
  const repo = makeFixtureRepo();
  git(repo, 'checkout', '-q', '-b', 'feature');
  commitFile(repo, 'src/feature-only.ts', 'featureOnlyMarker');
  await runJson(['index'], repo);
  const { client, stderr } = await startServerWithStderr(repo, [], env);
  assert.equal((await search(client, 'featureOnlyMarker', { k: 1 }))[0]?.path, 'src/feature-only.ts');
  const lock = tryLock(layoutOf(repo).lock);
  assert.ok(lock, 'the test holds the index lock');
  const started = await call(client, 'reindex', {});
  assert.equal((started.structuredContent as { started: boolean }).started, true);
  await until('the reindex to wait for the lock', async () => (/waiting for another ocrag run/.test(stderr()) ? true : null));
  return { repo, client, lock };
}

const status = async (client: Client) => (await call(client, 'index_status')).structuredContent as { branch: string; upToDate: boolean; reindex: { state: string } };

describe('an MCP server whose reindex runs while the user switches to a branch never indexed', () => {
  test('a search waits for the run, catches up with the new branch and answers from it', async () => {
    const { repo, client, lock } = await serverMidReindex({ OCRAG_MCP_WAIT_MS: '600000' });
    try {
      git(repo, 'checkout', '-q', '-b', 'fresh', 'main');
      commitFile(repo, 'src/fresh-only.ts', 'freshOnlyMarker');
      const answers = Promise.all([search(client, 'freshOnlyMarker', { k: 1 }), search(client, 'featureOnlyMarker', { k: 10 })]);
      // Answered in order after both searches were read, so they arrive while the run still waits.
      assert.equal((await status(client)).reindex.state, 'running');
      lock.release();
      const [fresh, old] = await answers;
      assert.equal(fresh[0]?.path, 'src/fresh-only.ts');
      assert.ok(old.every((r) => r.path !== 'src/feature-only.ts'), 'nothing from the branch checked out before');
      const after = await status(client);
      assert.deepEqual([after.branch, after.upToDate], ['fresh', true]);
    } finally {
      lock.release();
      await client.close();
    }
  });

  test('with no time to wait, it says so (never answering from the old branch) and catches up unasked', async () => {
    const { repo, client, lock } = await serverMidReindex({ OCRAG_MCP_WAIT_MS: '0' });
    try {
      git(repo, 'checkout', '-q', '-b', 'fresh', 'main');
      commitFile(repo, 'src/fresh-only.ts', 'freshOnlyMarker');
      const r = await call(client, 'search_code', { query: 'featureOnlyMarker', k: 10 });
      assert.equal(r.isError, true, text(r));
      assert.match(text(r), /finishing a run for the commit checked out before, then catching up with HEAD.*search again in a moment/);
      lock.release();
      await until('the new branch to be indexed', async () => {
        const s = await status(client);
        return s.branch === 'fresh' && s.upToDate && s.reindex.state === 'done' ? true : null;
      });
      assert.equal((await search(client, 'freshOnlyMarker', { k: 1 }))[0]?.path, 'src/fresh-only.ts');
      assert.ok((await search(client, 'featureOnlyMarker', { k: 10 })).every((r) => r.path !== 'src/feature-only.ts'));
    } finally {
      lock.release();
      await client.close();
    }
  });
});

// Agents add sources through MCP only under the folders the user allowed (sourceRoots); what they add is searched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { runJson, tempDir, twoLanguageRepo } from '../helpers.js';
import { call, search, startServer, text } from './mcp-helpers.js';

describe('MCP add_source, list_sources, remove_source', () => {
  let repo: string;
  let allowed: string;
  let elsewhere: string;
  let client: Client;

  before(async () => {
    repo = twoLanguageRepo();
    const base = tempDir('mcp-src');
    allowed = path.join(base, 'allowed', 'runbooks');
    elsewhere = path.join(base, 'private');
    fs.mkdirSync(allowed, { recursive: true });
    fs.mkdirSync(elsewhere, { recursive: true });
    fs.writeFileSync(path.join(allowed, 'failover.md'), '# Failover\n\n## Database\n\nPromote the replica in the eu-west region, then repoint the DNS record.\n');
    fs.writeFileSync(path.join(elsewhere, 'keys.md'), '# Keys\n\nThe signing key lives in the vault.\n');
    await runJson(['index'], repo);
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ sourceRoots: [path.dirname(allowed)] }));
    client = await startServer(repo);
  });

  after(async () => {
    await client?.close();
  });

  test('a folder outside the allowed ones is refused with the setting that allows it, and nothing is added', async () => {
    const r = await call(client, 'add_source', { path: elsewhere });
    assert.equal(r.isError, true);
    assert.match(text(r), /agents may add sources only under the folders the user allows/);
    assert.match(text(r), /"sourceRoots":\[/);
    assert.deepEqual((await call(client, 'list_sources')).structuredContent, { sources: [] });
  });

  test('an allowed folder is added, listed, searched, and removed', async () => {
    const added = await call(client, 'add_source', { path: allowed, name: 'runbooks' });
    assert.equal(added.isError, undefined, text(added));
    assert.deepEqual((added.structuredContent as { added: { name: string; files: number }[] }).added.map((a) => [a.name, a.files]), [['runbooks', 1]]);
    const listed = (await call(client, 'list_sources')).structuredContent as { sources: { name: string; root: string }[] };
    assert.deepEqual(listed.sources.map((s) => s.name), ['runbooks']);
    const results = await search(client, 'how do I fail over the database to the replica', { k: 5 });
    assert.ok(results.some((r) => r.path === 'runbooks:failover.md'), results.map((r) => r.path).join(', '));
    const removed = await call(client, 'remove_source', { source: 'runbooks' });
    assert.equal(removed.isError, undefined, text(removed));
    const after = await search(client, 'how do I fail over the database to the replica', { k: 5 });
    assert.ok(after.every((r) => !r.path.startsWith('runbooks:')));
  });
});

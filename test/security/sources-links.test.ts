import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { git, runJson, tempDir, twoLanguageRepo } from '../helpers.js';
import { call, startServer, text } from '../mcp/mcp-helpers.js';

describe('an agent may add sources only where the user allows, whatever links the repository commits', () => {
  let repo: string;
  let home: string;
  let client: Client;

  before(async () => {
    repo = twoLanguageRepo();
    home = tempDir('sources-victim-home');
    fs.mkdirSync(path.join(home, '.aws'));
    fs.writeFileSync(path.join(home, '.aws', 'notes.md'), '# Keys\n\naws_secret_access_key lives here\n');
    // The user allows the repository's docs folder; the repository commits `docs` as a link to the home folder.
    fs.symlinkSync(home, path.join(repo, 'docs'));
    git(repo, 'add', 'docs');
    git(repo, 'commit', '-qm', 'docs');
    await runJson(['index'], repo);
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), JSON.stringify({ sourceRoots: ['docs'] }));
    client = await startServer(repo);
  });

  after(async () => {
    await client?.close();
  });

  test('a relative sourceRoots entry that the repository links out of it allows nothing', async () => {
    for (const asked of [home, path.join(home, '.aws'), 'docs', 'docs/.aws']) {
      const r = await call(client, 'add_source', { path: asked });
      assert.equal(r.isError, true, `${asked}: ${text(r)}`);
      assert.match(text(r), /agents may add sources only under the folders the user allows/);
    }
    assert.deepEqual((await call(client, 'list_sources')).structuredContent, { sources: [] });
  });
});

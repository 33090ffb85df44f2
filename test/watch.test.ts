// `ocrag watch` embeds a saved edit on its own: once it reports the index current, the edit's content is in the
// store (so a search that does no update has nothing to embed), and the search finds it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { storeLocation } from '../src/store/layout.js';
import { openStore } from '../src/store/open-store.js';
import { CLI, GIT_IDENTITY, git, makeFixtureRepo, runJson, TEST_CACHE } from './helpers.js';

const EDITED = 'src/util/color.ts';
const ADDED = '\n/** Picks a readable text colour (black or white) for a given background swatch. */\nexport function contrastingTextColour(background: string): string {\n  return luminanceOf(background) > 0.5 ? "#000000" : "#ffffff";\n}\n';

test('watch embeds an edit as it is saved; a search without update then finds it', async () => {
  const repo = makeFixtureRepo();
  await runJson(['index'], repo);
  const watcher = spawn(process.execPath, [CLI, 'watch'], { cwd: repo, env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1', ...GIT_IDENTITY }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  watcher.stderr.on('data', (b) => (stderr += b));
  const exited = new Promise<number | null>((resolve) => watcher.on('close', (code) => resolve(code)));
  const reports = () => stderr.split('\n').filter((l) => l.startsWith('ocrag: index current')).length;
  const until = async (what: string, done: () => boolean, onWait = () => {}) => {
    for (const deadline = Date.now() + 90_000; !done(); await new Promise((r) => setTimeout(r, 100))) {
      if (Date.now() > deadline || watcher.exitCode !== null) throw new Error(`watch: no ${what}; stderr:\n${stderr}`);
      onWait();
    }
  };
  try {
    await until('first report', () => reports() >= 1 && stderr.includes('watching'));
    const before = reports();
    const file = path.join(repo, EDITED);
    fs.appendFileSync(file, ADDED);
    // Saved again every few seconds while waiting: an editor saves often, and a watch still being set up may miss one.
    let saves = 0;
    await until('report after the edit', () => reports() > before, () => {
      if (++saves % 50 === 0) fs.writeFileSync(file, fs.readFileSync(file));
    });
  } finally {
    watcher.kill('SIGTERM');
  }
  assert.equal(await exited, 0, stderr);

  const blob = git(repo, 'hash-object', EDITED);
  const store = await openStore(storeLocation(path.join(repo, '.ocrag')), 512, { create: false });
  try {
    assert.equal((await store.blobState([blob])).get(blob), 'chunks', 'the watcher embedded the edited file');
  } finally {
    store.close();
  }
  const results = await runJson<{ path: string; text: string }[]>(['search', 'readable text colour for a background', '-k', '3', '--no-update'], repo);
  assert.ok(results.some((r) => r.path === EDITED && /contrastingTextColour/.test(r.text)), JSON.stringify(results.map((r) => r.path)));
});

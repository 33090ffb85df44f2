// `ocrag search` in a fresh clone of a 400-file repository (real git, model and store): the first answer comes
// before the index, says it is partial (a stderr line, a last --json element), and starts the index in the
// background; once that run is done the answer is the normal one.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { writeSyntheticRepo } from '../../fixtures/synthetic-repo.js';
import { git, runCli, runJson, tempDir } from '../helpers.js';

type Item = { path?: string; startLine?: number; endLine?: number; partial?: { searched: number; total: number; notice: string } };

test('a fresh clone\'s first CLI search is a partial answer; after the background index it is the normal one', async () => {
  const origin = path.join(tempDir('early-cli-origin'), 'origin');
  await writeSyntheticRepo(origin, { files: 400 });
  const clone = path.join(tempDir('early-cli'), 'clone');
  git(path.dirname(clone), 'clone', '-q', origin, clone);
  const query = 'export the document feed digest';

  const first = await runCli(['search', query, '-k', '10', '--json'], clone);
  assert.equal(first.code, 0, first.stderr);
  const items = JSON.parse(first.stdout) as Item[];
  const partial = items.at(-1)!.partial!;
  assert.ok(partial, 'a last element says the answer is partial');
  assert.equal(partial.total, 400);
  assert.ok(partial.searched > 0 && partial.searched < 400);
  assert.ok(items.slice(0, -1).length > 0 && items.slice(0, -1).every((r) => r.path));
  assert.equal(first.stderr.split('\n').filter((l) => l.includes('partial answer')).length, 1);

  // `ocrag index` waits for the background run and finds HEAD indexed (or indexes it, had the run not started yet).
  await runJson(['index', '--json'], clone);
  const after = JSON.parse((await runCli(['search', query, '-k', '10', '--json'], clone)).stdout) as Item[];
  assert.ok(after.every((r) => r.path), 'no partial element once indexed');
  const normal = await runJson<Item[]>(['search', query, '-k', '10', '--json', '--no-update'], clone);
  assert.deepEqual(after, normal);
});

// A plain folder's index run (no git) is recorded in `.ocrag/run.json` as a commit's run is, so every other process
// of the folder (the CLI, a panel, an MCP server) shows it and joins it: read while the run goes on, through a
// RepoSession's task over a real folder, the real model and LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { syntheticFiles } from '../../fixtures/synthetic-repo.js';
import { RepoSession } from '../../src/session/session.js';
import { lockHolder } from '../../src/util/file-lock.js';
import { tempDir } from '../helpers.js';

interface Record {
  id: string;
  pid: number;
  files: { done: number; total: number };
  chunks: number;
}

describe('a plain folder run', () => {
  test('writes the run record while it runs, under the index lock, and takes it out at the end', async () => {
    const folder = path.join(tempDir('folder-run'), 'kb');
    for (const f of syntheticFiles(120, 3, 'notes')) {
      fs.mkdirSync(path.dirname(path.join(folder, f.path)), { recursive: true });
      fs.writeFileSync(path.join(folder, f.path), f.content);
    }
    const dir = path.join(folder, '.ocrag');
    const session = new RepoSession({ cwd: folder, plain: 'create' });
    const seen: { record: Record | null; holder: number | null; done: number }[] = [];
    session.tasks.subscribe((task) => {
      if (task.state !== 'running' || task.files.done === 0) return;
      const file = path.join(dir, 'run.json');
      seen.push({ record: fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record) : null, holder: lockHolder(path.join(dir, 'index.lock')), done: task.files.done });
    });
    try {
      const { id } = await session.startTask('incremental');
      await session.tasks.settled();
      const final = session.tasks.status(id)!;
      assert.equal(final.state, 'done', final.errors.join('; '));
      assert.ok(seen.length > 0, 'the run reported stored files');
      for (const { record, holder } of seen) {
        assert.ok(record, 'a record while the run goes on');
        assert.deepEqual([record.id, record.pid, holder], [id, process.pid, process.pid], 'named by the task, written by the process holding the lock');
      }
      assert.equal(fs.existsSync(path.join(dir, 'run.json')), false, 'taken out at the end');
      // The finished task counts what search sees, as a repository's does.
      const status = await session.status();
      assert.deepEqual([final.files.total, final.chunks], [status.status!.files, status.status!.chunks]);
      assert.equal(final.files.total, 120);
    } finally {
      await session.close();
    }
  });
});

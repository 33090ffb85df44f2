// A one-shot `ocrag search` starts `git status` while it opens the repository (index/context.ts, `statusAtOpen`):
// its answer must still be the work tree as it is, asked from a subfolder too, and only commits with
// `--committed-only`. A real repository, its real index and the built CLI, answering in its own process.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { openContext } from '../../src/index/context.js';
import { GIT } from '../../src/index/kinds/git.js';
import { runCli, runJson, twoLanguageRepo } from '../helpers.js';

interface Result {
  path: string;
  text: string;
}

const QUERY = 'compress the archive with zstandard before upload';
const cold = { OCRAG_WARM: '0' };

describe('a one-shot search sees the work tree', () => {
  let repo: string;

  before(async () => {
    repo = twoLanguageRepo();
    const indexed = await runCli(['index'], repo);
    assert.equal(indexed.code, 0, indexed.stderr);
    // An untracked file and an edit of a committed one, neither committed.
    fs.writeFileSync(path.join(repo, 'tools', 'archive.py'), 'def compress_archive(path):\n    """Compresses the archive with zstandard before upload."""\n    return path + ".zst"\n');
    // And one in a folder git has never seen, which status shows collapsed until it is opened.
    fs.mkdirSync(path.join(repo, 'drafts'));
    fs.writeFileSync(path.join(repo, 'drafts', 'zstd_upload.py'), 'def zstandard_archive_upload(path):\n    """Uploads the archive compressed with zstandard before upload."""\n    return path\n');
    fs.appendFileSync(path.join(repo, 'src', 'router.ts'), 'export function uploadArchive(name: string): string {\n  return `zstandard upload of ${name}`;\n}\n');
  });

  it('answers from the untracked file and the edit, from the top and from a subfolder', async () => {
    for (const cwd of [repo, path.join(repo, 'src')]) {
      const results = await runJson<Result[]>(['search', QUERY, '-k', '4'], cwd, cold);
      const paths = results.map((r) => r.path);
      assert.ok(paths.includes('tools/archive.py'), `${cwd}: ${paths.join(', ')}`);
      assert.ok(paths.includes('drafts/zstd_upload.py'), `${cwd}: ${paths.join(', ')}`);
      assert.ok(results.some((r) => r.path === 'src/router.ts' && r.text.includes('uploadArchive')), `${cwd}: ${paths.join(', ')}`);
    }
  });

  it('hands the status started at open to the first view only: a later one asks git again', async () => {
    const ctx = await openContext(path.join(repo, 'src'), {}, undefined, true);
    // The status started at open is what the first view takes; a context opened without it asks git as ever.
    assert.notEqual(ctx.kind, GIT, 'git status started at open');
    assert.equal((await openContext(repo)).kind, GIT);
    const first = (await ctx.kind.workingChanges(ctx))!.map((c) => c.path);
    assert.ok(first.includes('tools/archive.py') && first.includes('src/router.ts'), first.join(', '));
    const later = path.join(repo, 'tools', 'later.py');
    fs.writeFileSync(later, 'def later():\n    return 1\n');
    try {
      const second = (await ctx.kind.workingChanges(ctx))!.map((c) => c.path);
      assert.ok(second.includes('tools/later.py'), second.join(', '));
    } finally {
      fs.rmSync(later);
    }
  });

  it('answers from commits alone with --committed-only', async () => {
    const results = await runJson<Result[]>(['search', QUERY, '-k', '4', '--committed-only'], path.join(repo, 'src'), cold);
    assert.ok(!results.some((r) => r.path === 'tools/archive.py' || r.text.includes('uploadArchive')), results.map((r) => r.path).join(', '));
  });
});

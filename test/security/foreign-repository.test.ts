import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli, twoLanguageRepo } from '../helpers.js';

/*
 * A repository another user owns (a shared folder, another account's clone, a mounted disk): git refuses it, since
 * its config could name programs to run. ocrag says so in one line with git's own fix, and writes nothing there.
 * As root the repository is given to uid 1000 for real; otherwise git's own switch for that check stands in.
 */
function foreignRepo(): { repo: string; env: NodeJS.ProcessEnv } {
  const repo = twoLanguageRepo();
  if (process.getuid?.() === 0) {
    fs.chownSync(repo, 1000, 1000);
    return { repo, env: {} };
  }
  return { repo, env: { GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' } };
}

describe('a repository owned by another user', () => {
  test('every command says git refuses it, with the safe.directory fix, exit 3, and writes nothing', async () => {
    const { repo, env } = foreignRepo();
    const before = fs.readdirSync(repo).sort();
    for (const args of [['search', 'password'], ['index'], ['status', '--json'], ['hooks', 'install']]) {
      for (const cwd of [repo, path.join(repo, 'src')]) {
        const r = await runCli(args, cwd, env);
        assert.equal(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        const lines = r.stderr.trim().split('\n');
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0], /^ocrag: git refuses .*: it belongs to another user; if you trust it, run "git config --global --add safe\.directory '.*'"$/);
      }
    }
    assert.deepEqual(fs.readdirSync(repo).sort(), before, 'no .ocrag/ was made');
    assert.deepEqual(fs.readdirSync(path.join(repo, '.git', 'hooks')).filter((f) => !f.endsWith('.sample')), []);
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runCli, twoLanguageRepo } from '../helpers.js';

describe('a user on the edges of a repository', () => {
  test('a config.json saved with a byte order mark (Notepad, PowerShell 5) is read as the JSON it holds (was: exit 2, "Unexpected token")', async () => {
    const repo = twoLanguageRepo();
    fs.mkdirSync(path.join(repo, '.ocrag'));
    fs.writeFileSync(path.join(repo, '.ocrag', 'config.json'), '\uFEFF{ "exclude": ["tools/**"] }\n');
    const r = await runCli(['search', 'backup the database file', '-k', '5', '--json', '--min-match', '0'], repo);
    assert.equal(r.code, 0, r.stderr);
    const paths = (JSON.parse(r.stdout) as { path: string }[]).map((x) => x.path);
    assert.ok(paths.length > 0 && paths.every((p) => p.startsWith('src/')), paths.join(', '));
  });

  test('a shell inside the .git folder is told where the work tree is, exit 3, and nothing is written (was: "bare repository")', async () => {
    const repo = twoLanguageRepo();
    const before = fs.readdirSync(path.join(repo, '.git')).sort();
    for (const cwd of [path.join(repo, '.git'), path.join(repo, '.git', 'objects')]) {
      for (const args of [['search', 'backup'], ['index']]) {
        const r = await runCli(args, cwd);
        assert.equal(r.code, 3, r.stderr);
        assert.deepEqual(r.stderr.trim().split('\n'), [`ocrag: ${cwd} is inside the git folder of ${repo}: run ocrag in its work tree (ocrag -C '${repo}' …)`]);
      }
    }
    assert.deepEqual(fs.readdirSync(path.join(repo, '.git')).sort(), before);
    assert.equal(fs.existsSync(path.join(repo, '.ocrag')), false);
  });
});

// Queries and paths never go through a shell: a repository whose own path and file names are shell
// commands is indexed, searched and kept current by the git hooks, and none of those commands ever runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { gitIn, marked } from '../../fixtures/hostile-repo.js';
import { installHooks } from '../../src/git/hook-files.js';
import { openRepo } from '../../src/git/repo.js';
import { PROJECT_ROOT, tempDir } from '../helpers.js';
import { cli, layoutOf } from './robustness-helpers.js';

const PAYLOADS = ['$(touch PWNED)', '`touch PWNED`', ';touch PWNED;', "'; touch PWNED; '", '"; touch PWNED; "', '| touch PWNED', '&& touch PWNED'];
const FILES: Record<string, string> = {
  '$(touch PWNED).ts': 'markerDollarParen',
  '`touch PWNED`.ts': 'markerBacktick',
  ';touch PWNED;.ts': 'markerSemicolon',
  "it's $HOME.ts": 'markerHomeVariable',
};

describe('shell syntax in repository paths, file names and queries', () => {
  let parent: string;
  let repo: string;
  /** Every folder a `touch PWNED` could have run in. */
  const pwned = () => [parent, repo, path.join(repo, '.git'), path.join(repo, '.git', 'hooks'), PROJECT_ROOT, path.join(PROJECT_ROOT, 'hooks'), process.cwd()].filter((d) => fs.existsSync(path.join(d, 'PWNED')));

  before(() => {
    parent = tempDir('shell');
    repo = path.join(parent, `repo ${PAYLOADS.join(' ')}`);
    fs.mkdirSync(repo);
    gitIn(repo, 'init', '-q', '-b', 'main');
    for (const [rel, word] of Object.entries(FILES)) fs.writeFileSync(path.join(repo, rel), marked(word));
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '-q', '-m', 'files named like shell commands');
  });

  test('index and search from inside the repository and with -C; queries with shell syntax are just words', async () => {
    const indexed = await cli(['index', '--json'], repo);
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.equal(JSON.parse(indexed.stdout).files, Object.keys(FILES).length);
    for (const [rel, word] of Object.entries(FILES).filter(([rel]) => rel.includes('PWNED'))) {
      const r = await cli(['-C', repo, 'search', `${word} $(touch PWNED) \`touch PWNED\`; touch PWNED`, '--json', '-k', '1', '--path', '*PWNED*'], parent);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(JSON.parse(r.stdout)[0]?.path, rel);
    }
    assert.deepEqual(pwned(), []);
  });

  test('hooks keep such a repository current in the background, and git never waits or fails', async () => {
    await installHooks(await openRepo(repo));
    fs.writeFileSync(path.join(repo, '&& touch PWNED.ts'), marked('markerAfterHook'));
    gitIn(repo, 'add', '-A');
    const started = performance.now();
    gitIn(repo, 'commit', '-q', '-m', '$(touch PWNED) `touch PWNED`');
    assert.ok(performance.now() - started < 5000, 'the commit does not wait for indexing');
    const head = gitIn(repo, 'rev-parse', 'HEAD').slice(0, 8);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const log = fs.existsSync(layoutOf(repo).log) ? fs.readFileSync(layoutOf(repo).log, 'utf8') : '';
      if (new RegExp(`post-commit: indexed main@${head}`).test(log)) break;
      assert.ok(Date.now() < deadline, `the hook did not index ${head}:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const r = await cli(['search', 'markerAfterHook', '--no-update', '--json', '-k', '1'], repo);
    assert.equal(JSON.parse(r.stdout)[0]?.path, '&& touch PWNED.ts');
    assert.deepEqual(pwned(), []);
  });
});

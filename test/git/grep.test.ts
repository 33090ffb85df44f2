// git grep over a real repository's tree: words are data (never options), counts per file and word, names of any bytes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { grepWordCounts } from '../../src/git/grep.js';
import { committedRepo, git, tempDir } from '../helpers.js';

test('counts each word per file of the tree, case-insensitively; a word starting with "-" is a pattern, not an option', async () => {
  const repo = committedRepo(path.join(tempDir('grep'), 'repo'), {
    'src/retry.ts': 'export function retryBackoff() {}\n// RETRY twice, retry again\n',
    'docs/flags.md': 'Pass --open-files-in-pager=less or -O to see it.\n',
    'src/中文.ts': '// 重试 重试\n',
    'line\nbreak.txt': 'retry\n',
  }, 'words');
  const tree = git(repo, 'rev-parse', 'HEAD^{tree}');
  // The work tree differs from the tree: what is counted is the commit's content.
  fs.writeFileSync(path.join(repo, 'src/retry.ts'), 'nothing here\n');
  const counts = await grepWordCounts(repo, tree, ['Retry', '-O', '--open-files-in-pager=touch pwned', '重试']);
  assert.equal(counts.get('src/retry.ts')?.get('retry'), 3);
  // `-o` in `--open` and `-O`.
  assert.equal(counts.get('docs/flags.md')?.get('-o'), 2);
  assert.equal(counts.get('docs/flags.md')?.get('--open-files-in-pager=touch pwned'), undefined);
  assert.equal(counts.get('src/中文.ts')?.get('重试'), 2);
  assert.equal(counts.get('"line\\nbreak.txt"')?.get('retry'), 1);
  assert.equal(fs.existsSync(path.join(repo, 'pwned')), false);
  assert.deepEqual(await grepWordCounts(repo, tree, ['no such word anywhere']), new Map());
});

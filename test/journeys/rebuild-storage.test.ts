// The disk refuses: a real small tmpfs that fills up, and `.ocrag` bind-mounted read-only (chmod does not stop
// root). Index runs say so in one line and exit 7, never "damaged … --rebuild"; searches answer from the index as
// it is, saying what they leave out; the previous answers come back byte-identical. Also a plain folder's rebuild,
// killed while it embeds. The built CLI, real git, the real model and LanceDB on disk.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { git, PROJECT_ROOT, tempDir } from '../helpers.js';
import { call, startServer, text } from '../mcp/mcp-helpers.js';
import { seamEnv } from '../support/seams.js';
import { answers, assertTidy, copyOf, ocrag, outside, QUERY, sandboxEnv, indexedFixture } from './rebuild-helpers.js';

const mounted: string[] = [];

/** Runs mount(8); false when this machine does not let us (not root, no mount namespace). A remount adds no mount. */
function mount(...args: string[]): boolean {
  try {
    execFileSync('mount', args, { stdio: 'pipe' });
    if (!args.some((a) => a.startsWith('remount'))) mounted.push(args.at(-1)!);
    return true;
  } catch {
    return false;
  }
}

after(() => {
  // Each one, whatever became of the others: a mount left behind would outlive the test run.
  for (const dir of mounted.reverse()) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    } catch (e) {
      console.error(`# could not unmount ${dir}: ${(e as Error).message}`);
    }
  }
  mounted.length = 0;
});

const freeKiB = (dir: string) => Number(execFileSync('df', ['-k', '--output=avail', dir], { encoding: 'utf8' }).split('\n')[1].trim());

/** Fills the file system holding `dir` until `leaveKiB` are free (a new filler file each time). */
function fill(dir: string, leaveKiB: number): void {
  const filler = path.join(dir, `filler-${fs.readdirSync(dir).length}`);
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, freeKiB(dir) - leaveKiB) * 1024));
}

const DISK_FULL = /^ocrag: no space left on the disk holding \S+\/\.ocrag.*: free some and run again; the index is as it was$/m;

describe('a disk that refuses to be written', () => {
  let base: string;
  let previous: string;

  before(async () => {
    ({ base, previous } = await indexedFixture());
  });

  test('disk full during a rebuild and during an index run: exit 7 saying so, the previous answers still come back', async (t) => {
    const mnt = path.join(tempDir('full'), 'mnt');
    fs.mkdirSync(mnt);
    if (!mount('-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mnt)) return t.skip('mounting a small tmpfs is not permitted here (needs root)');
    const repo = path.join(mnt, 'sample');
    fs.cpSync(base, repo, { recursive: true, verbatimSymlinks: true });
    sandboxEnv(repo);
    // A commit whose files take more room than is left, committed while there is room: the index is one behind.
    const generated = Array.from({ length: 40 }, (_, i) => `def handler_${i}(request):\n    return "${'x'.repeat(1500)}"\n`);
    generated.forEach((text, i) => fs.writeFileSync(path.join(repo, `src/gen${i}.py`), text));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'generated handlers');
    fill(mnt, 40);
    const untouched = outside(repo);

    // An incremental run that cannot store the new commit's chunks.
    const index = await ocrag(['index'], repo);
    assert.equal(index.code, 7, index.stderr);
    assert.match(index.stderr.trim(), DISK_FULL);
    // The search that would catch up answers from the index as it is, and says it is behind.
    const search = await ocrag(['search', QUERY, '-k', '3', '--json'], repo);
    assert.equal(search.code, 0, search.stderr);
    assert.equal(search.stdout, previous);
    assert.match(search.stderr, /no space left on the disk holding \S+: answering from the index as it is \([0-9a-f]{8}, behind HEAD\)/);

    // A rebuild needs room for a second copy of the index beside the first.
    const rebuild = await ocrag(['index', '--rebuild'], repo);
    assert.equal(rebuild.code, 7, rebuild.stderr);
    assert.match(rebuild.stderr.trim(), DISK_FULL);
    assert.match(rebuild.stderr, /need room for a second copy of the index/);
    assert.doesNotMatch(rebuild.stderr, /damaged/);
    assert.equal(await answers(repo), previous);
    // Adding a source is storing its chunks: refused, it exits 7 and the source is not left half added.
    const docs = path.join(tempDir('full-source'), 'design');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'design.md'), '# Rate limits\n\nEach client may send 100 requests a minute.\n');
    const add = await ocrag(['add', docs], repo);
    assert.equal(add.code, 7, add.stderr);
    assert.match(add.stderr.trim(), DISK_FULL);
    const recorded = path.join(repo, '.ocrag', 'sources.json');
    assert.ok(!fs.existsSync(recorded) || !fs.readFileSync(recorded, 'utf8').includes('design'), 'the source was taken back');
    const status = JSON.parse((await ocrag(['status', '--json'], repo)).stdout) as { indexed: { commit: string } | null };
    assert.equal(status.indexed?.commit, git(repo, 'rev-parse', 'HEAD~1'), 'status shows the index, behind HEAD');
    assertTidy(repo);
    const notFiller = (e: string) => !e.startsWith('filler-');
    assert.deepEqual(outside(repo).filter(notFiller), untouched.filter(notFiller));
  });

  test('a read-only .ocrag: search answers from it (saying what it leaves out), index and --rebuild exit 7', async (t) => {
    const repo = copyOf(base, 'read-only');
    const dir = path.join(repo, '.ocrag');
    if (!mount('--bind', dir, dir)) return t.skip('bind mounts are not permitted here (needs root)');
    if (!mount('-o', 'remount,bind,ro', dir)) return t.skip('a read-only remount is not permitted here');
    assert.throws(() => fs.writeFileSync(path.join(dir, 'probe'), ''), /EROFS/);
    const untouched = outside(repo);

    assert.equal(await answers(repo), previous, 'an index at HEAD answers as it always did');
    fs.appendFileSync(path.join(repo, 'src/cli/args.ts'), '\n// an uncommitted edit\n');
    const edited = await ocrag(['search', QUERY, '-k', '3', '--json'], repo);
    assert.equal(edited.code, 0, edited.stderr);
    assert.equal(edited.stdout, previous);
    assert.match(edited.stderr, /\.ocrag is read-only: answering without uncommitted edits/);

    for (const args of [['index'], ['index', '--rebuild']]) {
      git(repo, 'commit', '-qam', `a commit before ${args.join(' ')}`, '--allow-empty');
      const r = await ocrag(args, repo);
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr.trim(), /^ocrag: cannot write to \S+\/\.ocrag: the file system is read-only; make it writable and run again; the index is as it was$/);
    }
    const behind = await ocrag(['search', QUERY, '-k', '3', '--json'], repo);
    assert.equal(behind.code, 0, behind.stderr);
    assert.match(behind.stderr, /read-only: answering from the index as it is \([0-9a-f]{8}, behind HEAD\)/);
    // An agent's server catches up through a task: refused, it answers from the index as it is too.
    const client = await startServer(repo, [], sandboxEnv(repo) as Record<string, string>);
    try {
      const r = await call(client, 'search_code', { query: QUERY, k: 3 });
      assert.ok(!r.isError, text(r));
      const answer = r.structuredContent as { results: { path: string }[]; notice?: string };
      assert.deepEqual(answer.results.map((x) => x.path), (JSON.parse(previous) as { path: string }[]).map((x) => x.path));
      // The agent is told, in the answer it reads, what the results leave out (the server's stderr is not its context).
      assert.match(answer.notice ?? '', /read-only: answering from the index as it is \([0-9a-f]{8}, behind HEAD\)/);
      fs.appendFileSync(path.join(repo, 'src/cli/args.ts'), '\n// another uncommitted edit\n');
      const edits = (await call(client, 'search_code', { query: QUERY, k: 3 })).structuredContent as { notice?: string };
      assert.match(edits.notice ?? '', /read-only: answering without uncommitted edits/);
    } finally {
      await client.close();
    }
    assert.deepEqual(outside(repo), untouched);
  });

  test('a plain folder rebuild killed while it embeds: the folder still answers as before; a whole one swaps in', async () => {
    const folder = path.join(tempDir('plain'), 'notes');
    fs.cpSync(path.join(PROJECT_ROOT, 'fixtures', 'sample'), folder, { recursive: true });
    const indexed = await ocrag(['index'], folder);
    assert.equal(indexed.code, 0, indexed.stderr);
    const before = await answers(folder);
    assert.match(before, /args\.ts/);
    const killed = await ocrag(['index', '--rebuild'], folder, seamEnv({ crashAt: 'embed.written:1' }));
    assert.equal(killed.signal, 'SIGKILL', killed.stderr);
    assert.equal(await answers(folder), before);
    const rebuilt = await ocrag(['index', '--rebuild'], folder);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.equal(await answers(folder), before);
    assertTidy(folder);
  });
});

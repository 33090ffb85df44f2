// `ocrag index --rebuild` stopped at every phase, as a user stops it: Ctrl-C (SIGINT) or a SIGTERM to the CLI, a
// kill (SIGKILL), a model that is not there, a failure thrown inside a phase. Each time the previous answers come back
// byte-identical, `status` shows the index, nothing outside the repository changed, and the next command leaves no
// build folder behind. The built CLI, real git, the real model and LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { git } from '../helpers.js';
import { seamEnv } from '../support/seams.js';
import { answers, assertTidy, copyOf, gate, ocrag, outside, startOcrag, indexedFixture, type Ended } from './rebuild-helpers.js';

describe('a full rebuild stopped at any phase leaves the previous index answering', () => {
  let base: string;
  let previous: string;

  before(async () => {
    ({ base, previous } = await indexedFixture());
    assert.match(previous, /src\/cli\/args\.ts/);
  });

  /** Runs `stop` on a copy of the indexed repository, then checks what the user sees afterwards. */
  async function stoppedRebuild(label: string, stop: (repo: string) => Promise<Ended>, check: (ended: Ended) => void): Promise<string> {
    const repo = copyOf(base, label);
    const untouched = outside(repo);
    check(await stop(repo));
    assert.equal(await answers(repo), previous, 'the previous answers come back byte-identical');
    const status = await ocrag(['status', '--json'], repo);
    assert.equal(status.code, 0, status.stderr);
    const s = JSON.parse(status.stdout) as { indexed: { commit: string } | null; upToDate: boolean };
    assert.deepEqual([s.indexed?.commit, s.upToDate], [git(repo, 'rev-parse', 'HEAD'), true], 'status shows the index');
    assertTidy(repo);
    assert.deepEqual(outside(repo), untouched, 'nothing changed outside the repository');
    return repo;
  }

  const killedBy = (signal: NodeJS.Signals) => (e: Ended) => assert.equal(e.signal, signal, `ended by ${signal} (exit ${e.code}: ${e.stderr})`);

  // A kill at each phase: listing, the search-index build, as the swap starts, in the middle of it, and once every
  // entry moved but before its journal goes (embedding and just before the swap: the signals below).
  for (const [phase, point] of [
    ['listing', 'index.listed'],
    ['the search-index build', 'index.text-index'],
    ['the swap journal written', 'rebuild.journal'],
    ['the middle of the swap', 'rebuild.swap:4'],
    ['the swap done, its journal not yet removed', 'rebuild.swapped'],
  ]) {
    test(`SIGKILL at ${phase} (${point})`, async () => {
      await stoppedRebuild('kill', (repo) => ocrag(['index', '--rebuild'], repo, seamEnv({ crashAt: point })), killedBy('SIGKILL'));
    });
  }

  // A failure thrown before the swap discards the build; one thrown during it leaves the journal the next command completes.
  for (const [phase, point] of [
    ['just before the swap', 'rebuild.built'],
    ['during the swap', 'rebuild.swap:3'],
  ]) {
    test(`a failure ${phase} (${point}): exit 1 with its message`, async () => {
      await stoppedRebuild('fail', (repo) => ocrag(['index', '--rebuild'], repo, seamEnv({ crashAt: `${point}@THROW` })), (e) => {
        assert.equal(e.code, 1, e.stderr);
        assert.match(e.stderr, /injected failure at rebuild\./);
      });
    });
  }

  test('Ctrl-C (SIGINT to the CLI) while it embeds', async () => {
    await stoppedRebuild('sigint', async (repo) => {
      const gates = path.join(path.dirname(repo), 'gates');
      const held = gate(gates, 'embed.written');
      const run = startOcrag(['index', '--rebuild'], repo, seamEnv({ pauseDir: gates }));
      await held.reached();
      run.child.kill('SIGINT');
      const ended = await run.ended;
      held.release();
      fs.rmSync(gates, { recursive: true });
      return ended;
    }, killedBy('SIGINT'));
  });

  test('SIGTERM to the CLI just before the swap', async () => {
    await stoppedRebuild('sigterm', async (repo) => {
      const gates = path.join(path.dirname(repo), 'gates');
      const held = gate(gates, 'rebuild.built');
      const run = startOcrag(['index', '--rebuild'], repo, seamEnv({ pauseDir: gates }));
      await held.reached();
      run.child.kill('SIGTERM');
      const ended = await run.ended;
      held.release();
      fs.rmSync(gates, { recursive: true });
      return ended;
    }, killedBy('SIGTERM'));
  });

  test('a model that is not there (--model /nonexistent): exit 5, the index as it was', async () => {
    await stoppedRebuild('no-model', (repo) => ocrag(['--model', '/nonexistent', 'index', '--rebuild'], repo), (e) => {
      assert.equal(e.code, 5, e.stderr);
      assert.match(e.stderr, /model folder \/nonexistent does not exist/);
    });
  });

  test('--rebuild with a model that is not there where no index exists yet: exit 5 and its message, nothing else', async () => {
    const repo = copyOf(base, 'no-index');
    fs.rmSync(path.join(repo, '.ocrag'), { recursive: true });
    const r = await ocrag(['--model', '/nonexistent', 'index', '--rebuild'], repo);
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr.trim(), /^ocrag: model folder \/nonexistent does not exist/);
  });

  test('the re-index a chunker change starts (store.json of an older base chunker) killed while it embeds', async () => {
    await stoppedRebuild('chunker', async (repo) => {
      const meta = path.join(repo, '.ocrag', 'store.json');
      const record = JSON.parse(fs.readFileSync(meta, 'utf8')) as { chunkerVersion: string };
      fs.writeFileSync(meta, JSON.stringify({ ...record, chunkerVersion: record.chunkerVersion.replace(/^\d+/, '0') }));
      const killed = await ocrag(['index'], repo, seamEnv({ crashAt: 'embed.written:1' }));
      assert.match(killed.stderr, /the chunker changed \(0\+/);
      return killed;
    }, killedBy('SIGKILL'));
  });

  test('an import into a store of an older base chunker: refused, that store is as it was; accepted, it is swapped in', async () => {
    const repo = copyOf(base, 'stale-import');
    const artifact = path.join(path.dirname(repo), 'index.tar');
    const exported = await ocrag(['export', '--out', artifact], repo);
    assert.equal(exported.code, 0, exported.stderr);
    const meta = path.join(repo, '.ocrag', 'store.json');
    const record = JSON.parse(fs.readFileSync(meta, 'utf8')) as { chunkerVersion: string };
    const staleVersion = record.chunkerVersion.replace(/^\d+/, '0');
    fs.writeFileSync(meta, JSON.stringify({ ...record, chunkerVersion: staleVersion }));
    const stale = storeListing(repo);
    // Killed once the new store is built, and once it is in place in the build folder: the stale store still answers.
    for (const point of ['import.staged', 'import.placed']) {
      const killed = await ocrag(['import', artifact], repo, seamEnv({ crashAt: point }));
      assert.equal(killed.signal, 'SIGKILL', `killed at ${point} (exit ${killed.code}: ${killed.stderr})`);
      assert.deepEqual(storeListing(repo), stale, `the stale store, its record and manifests are as they were (${point})`);
    }
    // An artifact cut short: refused.
    const torn = path.join(path.dirname(repo), 'torn.tar');
    const bytes = fs.readFileSync(artifact);
    fs.writeFileSync(torn, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const refused = await ocrag(['import', torn], repo);
    assert.equal(refused.code, 4, refused.stderr);
    assert.deepEqual(storeListing(repo), stale, 'the stale store, its record and manifests are as they were');
    assertTidy(repo);

    const imported = await ocrag(['import', artifact], repo);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /the chunker changed \(0\+/);
    assert.notEqual((JSON.parse(fs.readFileSync(meta, 'utf8')) as { chunkerVersion: string }).chunkerVersion, staleVersion);
    assert.equal(await answers(repo), previous);
    assertTidy(repo);
  });

  test('a rebuild that completes swaps in the same answers, and its search snapshot with it', async () => {
    const repo = await stoppedRebuild('done', (repo) => ocrag(['index', '--rebuild'], repo), (e) => assert.equal(e.code, 0, e.stderr));
    assert.equal(fs.readdirSync(path.join(repo, '.ocrag', 'resident')).filter((n) => n.endsWith('.snap')).length, 1, 'the snapshot built beside was swapped in');
  });
});

/** The store's files with their sizes, its record and its manifests: what a refused import may not change. */
function storeListing(repo: string): string[] {
  const dir = path.join(repo, '.ocrag');
  const files = ['lance', 'manifests'].flatMap((sub) =>
    (fs.readdirSync(path.join(dir, sub), { recursive: true }) as string[]).map((f) => path.join(sub, f)).filter((f) => fs.statSync(path.join(dir, f)).isFile()),
  );
  return [...files.map((f) => `${f} ${fs.statSync(path.join(dir, f)).size}`).sort(), fs.readFileSync(path.join(dir, 'store.json'), 'utf8')];
}

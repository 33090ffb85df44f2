// A plain folder outside any git repository is a knowledge base of its own: `ocrag index` there indexes the folder,
// `add` puts sources beside it, `search`, `list`, `status`, `remove` and `gc` work; commands that need git say so.
// A real temp folder without git, the real model, LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makePdf } from '../fixtures/pdf.js';
import { runCli, runJson, tempDir } from './helpers.js';

interface Result {
  path: string;
  startLine: number;
  symbol: string;
  text: string;
  source?: string;
  absolutePath?: string;
}

interface Status {
  plainFolder: boolean;
  files: number;
  skipped: Record<string, { count: number; examples: string[] }>;
  sources: { name: string; files: number; skipped: number }[];
}

const search = (dir: string, q: string, ...more: string[]) => runJson<Result[]>(['search', q, '-k', '5', ...more], dir);

describe('a plain folder as a knowledge base', () => {
  let folder: string;
  let specs: string;
  before(() => {
    const base = tempDir('plain');
    folder = path.join(base, 'notes');
    specs = path.join(base, 'specs');
    const write = (file: string, bytes: Buffer | string) => {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, bytes);
    };
    write(path.join(folder, 'guide', 'install.md'), '# Install\n\n## Offline mode\n\nSet OCRAG_OFFLINE=1 and the installer never downloads anything.\n');
    write(path.join(folder, 'meeting.txt'), 'Backup policy\n\nNightly backups are kept for fourteen days, then deleted.\n');
    write(path.join(specs, 'quota.pdf'), makePdf([['Platform spec'], ['Quotas', 'Each tenant may store at most 500 gigabytes of backups.']]));
    write(path.join(specs, 'regions.csv'), 'region,datacenter\n' + Array.from({ length: 50 }, (_, i) => `r${i},dc-${i}-south`).join('\n') + '\n');
  });

  test('search before anything was indexed says how to start, with exit 3', async () => {
    const r = await runCli(['search', 'offline'], folder);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^ocrag: not inside a git repository or a folder indexed by ocrag: .*run "ocrag index"/);
    assert.equal(fs.existsSync(path.join(folder, '.ocrag')), false, 'nothing written');
  });

  test('ocrag index indexes the folder itself; search finds its files by their own paths', async () => {
    const summary = await runJson<{ files: number; chunksEmbedded: number; folder: string }>(['index'], folder);
    assert.deepEqual([summary.files, summary.folder], [2, folder]);
    assert.ok(summary.chunksEmbedded >= 2);
    const [hit] = await search(folder, 'how do I install without downloading anything');
    assert.deepEqual([hit!.path, hit!.symbol, hit!.source], ['guide/install.md', '# Install > ## Offline mode', undefined]);
    const again = await runJson<{ chunksEmbedded: number }>(['index'], folder);
    assert.equal(again.chunksEmbedded, 0, 'an unchanged folder embeds nothing');
    // From a subfolder, the folder indexed before is found, as git finds a repository.
    const [fromBelow] = await search(path.join(folder, 'guide'), 'offline installer');
    assert.equal(fromBelow!.path, 'guide/install.md');
  });

  test('sources sit beside the folder: a PDF page and a CSV row with its header', async () => {
    const added = await runJson<{ name: string; files: number }[]>(['add', specs], folder);
    assert.deepEqual(added.map((a) => [a.name, a.files]), [['specs', 2]]);
    const page = (await search(folder, 'how much backup storage may a tenant keep')).find((r) => r.path === 'specs:quota.pdf');
    assert.deepEqual([page?.startLine, page?.symbol, page?.absolutePath], [2, 'page 2', path.join(specs, 'quota.pdf')]);
    const row = (await search(folder, 'which datacenter serves region r37')).find((r) => r.path === 'specs:regions.csv');
    assert.ok(row?.text.startsWith('region,datacenter\n') && row.text.includes('r37,dc-37-south'), row?.text);
    const listed = await runJson<{ path: string; state: string }[]>(['list'], folder);
    assert.deepEqual(listed.map((r) => [r.path, r.state]), [['guide/install.md', 'folder'], ['meeting.txt', 'folder'], ['specs:quota.pdf', 'source'], ['specs:regions.csv', 'source']]);
    const status = await runJson<Status>(['status'], folder);
    // Files search sees: the folder's own and the added source's (service/index-counts.ts), as `ocrag list` lists them.
    assert.deepEqual([status.plainFolder, status.files, status.sources.map((s) => [s.name, s.files])], [true, 4, [['', 2], ['specs', 2]]]);
    const inside = await runCli(['add', path.join(folder, 'guide')], folder);
    assert.equal(inside.code, 2);
    assert.match(inside.stderr, /inside the folder .* indexed already/);
  });

  test('edits and deletions show at the next search; a removed source is gone', async () => {
    fs.writeFileSync(path.join(folder, 'meeting.txt'), 'Backup policy\n\nNightly backups are now kept for ninety days.\n');
    const [edited] = await search(folder, 'how long are nightly backups kept', '--path', '*.txt');
    assert.match(edited!.text, /ninety days/);
    fs.rmSync(path.join(folder, 'meeting.txt'));
    assert.ok((await search(folder, 'how long are nightly backups kept')).every((r) => r.path !== 'meeting.txt'));
    await runJson(['remove', 'specs'], folder);
    assert.ok((await search(folder, 'tenant backup storage quota')).every((r) => !r.path.startsWith('specs:')));
    const gc = await runJson<{ chunksRemoved: number }>(['gc'], folder);
    assert.ok(gc.chunksRemoved > 0, 'the removed source and the deleted file are collected');
    const [still] = await search(folder, 'offline installer');
    assert.equal(still!.path, 'guide/install.md', 'gc keeps what the folder holds');
  });

  test('commands that need git say so in one line, exit 3', async () => {
    for (const args of [['hooks', 'install'], ['export'], ['index', '--dry-run']]) {
      const r = await runCli(args, folder);
      assert.equal(r.code, 3, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /needs (one|a git repository)/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
  });
});

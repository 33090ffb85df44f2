// Hostile documents in a knowledge base never stop a run: a 1 GB CSV, a PDF of 10,000 pages, a locked and a broken
// PDF, archives and images under misleading names, a source past its size limit. Each is skipped with its reason
// (ocrag status, ocrag list) while the rest is searched. A plain folder without git, the real model, LanceDB on disk.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { makePdf } from '../../fixtures/pdf.js';
import { runJson, tempDir } from '../helpers.js';

interface Status {
  skipped: Record<string, { count: number; examples: string[] }>;
  sources: { name: string; files: number; skipped: number }[];
}

/** A zip whose first entry is `name`: what an Office document (or a zip bomb: its sizes are never read) begins with. */
function zipStartingWith(name: string): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt32LE(0xffffffff, 22); // declared uncompressed size: 4 GB
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name), Buffer.alloc(1024, 0x78)]);
}

describe('hostile documents in a knowledge base', () => {
  let folder: string;
  let archive: string;
  before(async () => {
    const base = tempDir('hostile-docs');
    folder = path.join(base, 'kb');
    archive = path.join(base, 'archive');
    fs.mkdirSync(folder);
    fs.mkdirSync(archive);
    const write = (file: string, bytes: Buffer | string) => fs.writeFileSync(path.join(folder, file), bytes);
    write('readme.md', '# Retention\n\nAudit logs are retained for seven years.\n');
    // 1 GB of CSV, sparse: it takes no disk and must never be read.
    fs.writeFileSync(path.join(folder, 'export.csv'), 'id,amount\n');
    fs.truncateSync(path.join(folder, 'export.csv'), 1024 ** 3);
    write('dump.pdf', makePdf(Array.from({ length: 10_000 }, (_, i) => [`record ${i}`])));
    write('locked.pdf', makePdf([['Salaries']], { encrypted: true }));
    write('broken.pdf', '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R\nthis file was cut off in tran');
    write('firmware.bin', makePdf([['Flashing guide'], ['Hold the reset button for ten seconds to enter recovery mode.']]));
    write('report.docx', zipStartingWith('[Content_Types].xml'));
    write('notes.txt', zipStartingWith('bomb/0000.txt'));
    write('photo', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(256, 7)]));
    write('page', '<!doctype html>\n<html><body><h1>Travel</h1><p>Trains to the coast leave every hour.</p></body></html>\n');
    const line = 'the same line of an overgrown export\n';
    fs.writeFileSync(path.join(archive, 'a.txt'), line.repeat(Math.ceil(600_000 / line.length)));
    fs.writeFileSync(path.join(archive, 'b.txt'), line.repeat(Math.ceil(600_000 / line.length)));
    await runJson(['index'], folder);
    await runJson(['add', archive, '--max-size', '1'], folder);
  });

  test('each hostile file is skipped with its reason, and the rest is searched', async () => {
    const status = await runJson<Status>(['status'], folder);
    const reasons = Object.fromEntries(Object.entries(status.skipped).map(([reason, s]) => [reason, s.examples]));
    assert.deepEqual(reasons, {
      'too large': ['export.csv'],
      'too many pages': ['dump.pdf'],
      encrypted: ['locked.pdf'],
      unreadable: ['broken.pdf'],
      'binary (office document)': ['report.docx'],
      'binary (zip)': ['notes.txt'],
      'binary (png)': ['photo'],
      'source size limit': ['archive:b.txt'],
    });
    assert.deepEqual(status.sources.map((s) => [s.name, s.files, s.skipped]), [['', 3, 7], ['archive', 1, 1]]);
    const [retention] = await runJson<{ path: string }[]>(['search', 'how long are audit logs retained', '-k', '1'], folder);
    assert.equal(retention!.path, 'readme.md');
  });

  test('a PDF named .bin and HTML without an extension are read for what they are', async () => {
    const [pdf] = await runJson<{ path: string; startLine: number; language: string }[]>(['search', 'how do I enter recovery mode', '-k', '1'], folder);
    assert.deepEqual([pdf!.path, pdf!.startLine, pdf!.language], ['firmware.bin', 2, 'pdf']);
    const [html] = await runJson<{ path: string; symbol: string; text: string }[]>(['search', 'trains to the coast', '-k', '1'], folder);
    assert.deepEqual([html!.path, html!.symbol, html!.text], ['page', '# Travel', 'Travel\nTrains to the coast leave every hour.']);
  });

  test('ocrag list shows a source file past the size limit with its reason', async () => {
    const rows = await runJson<{ path: string; state: string; reason?: string }[]>(['list', 'archive:**'], folder);
    assert.deepEqual(rows.map((r) => [r.path, r.state, r.reason]), [['archive:a.txt', 'source', undefined], ['archive:b.txt', 'skipped', 'source size limit']]);
  });
});

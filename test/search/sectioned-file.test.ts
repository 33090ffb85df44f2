// The file format of the resident snapshot: sections read back as written, lazy ones a slice at a time, and any
// file that is not whole, or whose bytes fail their checksums, reads as nothing rather than as wrong data.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'node:test';
import { tempDir } from '../helpers.js';
import { SectionDamageError, SectionedFile, writeSectionedFile, writeSectionedFilePausing } from '../../src/search/sectioned-file.js';
import { eagerLayout } from '../../src/search/eager-layout.js';
import { eventLoopYielder } from '../../src/util/event-loop.js';

const MAGIC = 'testSF01';

function sample(dir: string): string {
  const file = path.join(dir, 'sample.snap');
  const eager = {
    bytes: Buffer.from('héllo', 'utf8'),
    int8: Int8Array.from([-128, 0, 127]),
    u16: Uint16Array.from([1, 65535]),
    i32: Int32Array.from([-5, 7, 1 << 30]),
    u32: Uint32Array.from([4294967295]),
    f32: Float32Array.from([0.5, -1.25]),
    f64: Float64Array.from([Math.PI]),
    none: new Int32Array(0),
  };
  writeSectionedFile(file, MAGIC, { note: 'meta survives' }, eager, { texts: Buffer.from('first|second|third', 'utf8') });
  return file;
}

test('sections round-trip with their types, lazy bytes are read by slice, and detach keeps them readable', () => {
  const dir = tempDir('sf');
  const file = sample(dir);
  const opened = SectionedFile.open<{ note: string }>(file, MAGIC, ['bytes', 'int8', 'u16', 'i32', 'u32', 'f32', 'f64', 'none'])!;
  assert.ok(opened);
  assert.equal(opened.meta.note, 'meta survives');
  assert.equal(Buffer.from(opened.section('bytes')).toString('utf8'), 'héllo');
  assert.ok(opened.section('int8') instanceof Int8Array);
  assert.deepEqual([...opened.section('int8')], [-128, 0, 127]);
  assert.deepEqual([...opened.section('u16')], [1, 65535]);
  assert.deepEqual([...opened.section('i32')], [-5, 7, 1 << 30]);
  assert.deepEqual([...opened.section('u32')], [4294967295]);
  assert.deepEqual([...opened.section('f32')], [0.5, -1.25]);
  assert.deepEqual([...opened.section('f64')], [Math.PI]);
  assert.equal(opened.section('none').length, 0);
  assert.equal(Buffer.from(opened.slice('texts', 6, 12)).toString(), 'second');
  assert.throws(() => opened.slice('texts', 10, 99), /no bytes/);
  opened.detach();
  fs.rmSync(file);
  assert.equal(Buffer.from(opened.slice('texts', 13, 18)).toString(), 'third', 'detached: read from memory, not the file');
});

test('a torn, padded, foreign or missing file opens as null', () => {
  const dir = tempDir('sf');
  const file = sample(dir);
  const whole = fs.readFileSync(file);
  const eager = ['bytes', 'i32'];
  fs.writeFileSync(file, whole.subarray(0, whole.length - 1));
  assert.equal(SectionedFile.open(file, MAGIC, eager), null, 'torn');
  fs.writeFileSync(file, Buffer.concat([whole, Buffer.from([0])]));
  assert.equal(SectionedFile.open(file, MAGIC, eager), null, 'longer than its header says');
  fs.writeFileSync(file, whole);
  assert.equal(SectionedFile.open(file, 'otherMAG', eager), null, 'another magic');
  assert.equal(SectionedFile.open(file, MAGIC, ['bytes', 'absent']), null, 'a section it lacks');
  fs.writeFileSync(file, 'not a sectioned file at all');
  assert.equal(SectionedFile.open(file, MAGIC, eager), null, 'garbage');
  assert.equal(SectionedFile.open(path.join(dir, 'missing'), MAGIC, eager), null, 'missing');
  const reopened = SectionedFile.open(sample(dir), MAGIC, eager);
  assert.ok(reopened, 'the same file whole opens');
  reopened.close();
  assert.throws(() => reopened.slice('texts', 0, 5), /no bytes/, 'closed without detaching: lazy bytes are gone');
});

test('a flipped byte anywhere is caught: header or eager section → null; a lazy block → SectionDamageError where read, and by detach', () => {
  const dir = tempDir('sf');
  const file = path.join(dir, 'big.snap');
  const texts = Buffer.from(Array.from({ length: 3000 }, (_, i) => `text ${i} 校验|`).join(''), 'utf8');
  writeSectionedFile(file, MAGIC, { note: 'meta' }, { i32: Int32Array.from([1, 2, 3]) }, { texts });
  const whole = fs.readFileSync(file);
  const headerEnd = 16 + whole.readUInt32LE(8);
  const flipped = (at: number) => {
    const copy = Buffer.from(whole);
    copy[at] ^= 1;
    fs.writeFileSync(file, copy);
  };
  flipped(20);
  assert.equal(SectionedFile.open(file, MAGIC, ['i32']), null, 'a byte of the header JSON');
  flipped(12);
  assert.equal(SectionedFile.open(file, MAGIC, ['i32']), null, 'a byte of the header checksum');
  const i32At = whole.indexOf(Buffer.from(Int32Array.from([1, 2, 3]).buffer), headerEnd);
  flipped(i32At + 4);
  assert.equal(SectionedFile.open(file, MAGIC, ['i32']), null, 'a byte of an eager section');
  const textsAt = whole.indexOf(texts.subarray(0, 64), headerEnd);
  flipped(textsAt + 5000);
  const opened = SectionedFile.open(file, MAGIC, ['i32'])!;
  assert.ok(opened, 'lazy bytes are checked when read, not on open');
  assert.equal(Buffer.from(opened.slice('texts', 0, 10)).toString(), texts.subarray(0, 10).toString(), 'a block before the damage reads');
  assert.throws(() => opened.slice('texts', 4900, 5100), SectionDamageError);
  assert.throws(() => opened.detach(), SectionDamageError);
  assert.throws(() => opened.slice('texts', 0, 10), /no bytes/, 'a detach that failed closed the file');
  fs.writeFileSync(file, whole);
  const sound = SectionedFile.open(file, MAGIC, ['i32'])!;
  sound.detach();
  assert.equal(Buffer.from(sound.slice('texts', 0, texts.length)).toString(), texts.toString(), 'whole again: every byte as written');
});

test('a section asked for last is read after the others, ending where their bytes end; each reads its own bytes, damage still caught', () => {
  const dir = tempDir('sf');
  const file = sample(dir);
  const names = ['bytes', 'int8', 'u16', 'i32', 'u32', 'f32', 'f64', 'none'];
  const plain = SectionedFile.open(file, MAGIC, names)!;
  let given = 0;
  const allocate = (bytes: number) => new ArrayBuffer((given = bytes) + 64);
  const last = SectionedFile.open(file, MAGIC, names, { last: 'u16', allocate })!;
  const u16 = last.section('u16');
  assert.equal(u16.byteOffset + u16.byteLength, given, 'the bytes end with it: what follows is free');
  for (const name of names) assert.deepEqual([...last.section(name)], [...plain.section(name)], name);
  assert.equal(Buffer.from(last.slice('texts', 6, 12)).toString(), 'second', 'lazy sections, their block checksums read with the eager ones');
  plain.close();
  last.close();
  const whole = fs.readFileSync(file);
  for (const [name, bytes] of [['u16', Buffer.from(Uint16Array.from([1, 65535]).buffer)], ['f64', Buffer.from(Float64Array.from([Math.PI]).buffer)]] as const) {
    const copy = Buffer.from(whole);
    copy[copy.indexOf(bytes, 16 + whole.readUInt32LE(8)) + 1] ^= 1;
    fs.writeFileSync(file, copy);
    assert.equal(SectionedFile.open(file, MAGIC, names, { last: 'u16' }), null, `a flipped byte of ${name}`);
  }
});

test('a header that asks for more bytes than the file holds is refused before anything is allocated for it', () => {
  const dir = tempDir('sf');
  const file = sample(dir);
  const whole = fs.readFileSync(file);
  const length = whole.readUInt32LE(8);
  // A crafted header, its checksum made to fit: one section 6 GB long, the JSON kept its length.
  const json = whole.subarray(16, 16 + length).toString('utf8').replace('"note":"meta survives"', '"note":"m"').replace('"length":6,', '"length":6000000000,');
  assert.ok(Buffer.byteLength(json) <= length && json.includes('6000000000'));
  const header = Buffer.alloc(length, ' ');
  header.write(json);
  const copy = Buffer.from(whole);
  header.copy(copy, 16);
  copy.writeUInt32LE(zlib.crc32(header), 12);
  fs.writeFileSync(file, copy);
  let asked: number | undefined;
  const allocate = (bytes: number) => new ArrayBuffer(Math.min((asked = bytes), 1024));
  assert.equal(SectionedFile.open(file, MAGIC, ['bytes', 'int8'], { allocate }), null);
  assert.equal(asked, undefined, 'nothing allocated');
});

test('the eager layout cuts the last section out with its padding, and reads a header whose sections overlap it as one run', () => {
  const spans = [{ name: 'a', offset: 0, end: 5 }, { name: 'b', offset: 8, end: 12 }, { name: 'c', offset: 16, end: 24 }, { name: 'd', offset: 24, end: 24 }];
  assert.deepEqual(eagerLayout(spans, 'b'), {
    pieces: [{ from: 0, to: 0, length: 8 }, { from: 16, to: 8, length: 8 }, { from: 8, to: 16, length: 4 }],
    bytes: 20,
    at: [0, 16, 8, 16],
  });
  const oneRun = { pieces: [{ from: 0, to: 0, length: 24 }], bytes: 24, at: [0, 8, 16, 24] };
  assert.deepEqual(eagerLayout(spans, 'c'), oneRun, 'already last (a section of no bytes after it ends where it does)');
  assert.deepEqual(eagerLayout(spans, 'absent'), oneRun);
  assert.deepEqual(eagerLayout(spans, undefined), oneRun);
  const overlapping = [spans[0], spans[1], { name: 'c', offset: 10, end: 24 }];
  assert.deepEqual(eagerLayout(overlapping, 'b'), { pieces: [{ from: 0, to: 0, length: 24 }], bytes: 24, at: [0, 8, 10] });
  const inPadding = [spans[0], spans[1], { name: 'c', offset: 12, end: 24 }];
  assert.equal(eagerLayout(inPadding, 'b').pieces.length, 1, 'a section in its padding: one run');
});

test('a file of a few tiny sections has room for its header (its length was once measured with wrapped offsets)', () => {
  const dir = tempDir('sf-small');
  for (let sections = 1; sections <= 40; sections++) {
    const file = path.join(dir, `s${sections}.snap`);
    const eager = Object.fromEntries(Array.from({ length: sections }, (_, i) => [`s${i}`, Int32Array.from([i])]));
    writeSectionedFile(file, MAGIC, { sections }, eager, { texts: Buffer.from('\uFEFFx', 'utf8') });
    const opened = SectionedFile.open<{ sections: number }>(file, MAGIC, Object.keys(eager));
    assert.ok(opened, `${sections} sections: the file opens`);
    assert.deepEqual([...(opened.section(`s${sections - 1}`) as Int32Array)], [sections - 1]);
    opened.detach();
  }
});

test('written in paused steps (a server writing its snapshot), the file is byte for byte the one written at once', async () => {
  const dir = tempDir('sf-paused');
  // Sections past the 1 MiB step, so checksums and copies are cut mid-section.
  const big = new Uint8Array(3 * (1 << 20) + 12345).map((_, i) => (i * 31 + (i >> 9)) & 0xff);
  const eager = { big, i32: Int32Array.from({ length: 300_001 }, (_, i) => i * 7 - 5), none: new Int32Array(0) };
  const lazy = { texts: big.subarray(1000), more: Buffer.from('tail', 'utf8') };
  const atOnce = path.join(dir, 'once.snap');
  const paused = path.join(dir, 'paused.snap');
  writeSectionedFile(atOnce, MAGIC, { note: 'same' }, eager, lazy);
  let pauses = 0;
  const yielder = eventLoopYielder(0);
  await writeSectionedFilePausing(paused, MAGIC, { note: 'same' }, eager, lazy, () => (pauses++, yielder()));
  assert.ok(pauses > 4, `paused ${pauses} times`);
  assert.ok(fs.readFileSync(paused).equals(fs.readFileSync(atOnce)));
  const opened = SectionedFile.open<{ note: string }>(paused, MAGIC, ['big', 'i32'])!;
  assert.deepEqual(opened.section('big'), big);
  opened.close();
});

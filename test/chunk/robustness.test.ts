import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { chunkFile } from '../../src/chunk/index.js';
import { assertMaxLines, assertWellFormed, chunkWith } from './helpers.js';

const require = createRequire(import.meta.url);
const typescriptLib = dirname(require.resolve('typescript/lib/lib.es5.d.ts'));
const webTreeSitter = dirname(require.resolve('web-tree-sitter'));

/** Real source files on this machine: TypeScript's lib, web-tree-sitter, Python's stdlib. */
function realFiles(): string[] {
  const files = [
    join(typescriptLib, 'lib.es5.d.ts'),
    join(typescriptLib, 'lib.dom.d.ts'),
    join(typescriptLib, '_tsserver.js'),
    join(typescriptLib, 'typescript.js'),
    join(webTreeSitter, 'web-tree-sitter.js'),
    join(webTreeSitter, 'web-tree-sitter.d.ts'),
  ];
  const python = existsSync('/usr/lib') ? readdirSync('/usr/lib').find((name) => /^python3\.\d+$/.test(name)) : undefined;
  if (python) {
    const stdlib = join('/usr/lib', python);
    for (const name of ['argparse.py', 'dataclasses.py', 'json/decoder.py', 'asyncio/tasks.py', 'typing.py']) {
      if (existsSync(join(stdlib, name))) files.push(join(stdlib, name));
    }
  }
  return files.filter((file) => existsSync(file));
}

test('every non-blank line of real files is covered, and chunk text is exactly its lines', async () => {
  const files = realFiles();
  assert.ok(files.length >= 6);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const chunks = await chunkFile(file, text);
    assertWellFormed(text, chunks);
    assertMaxLines(chunks, 80);
    if (text.length < 1_000_000) {
      assert.ok(chunks.some((chunk) => chunk.symbols.length > 0), `${file} should have definition chunks`);
    }
  }
});

test('real files split along definitions: Python methods under their class', async (t) => {
  const argparse = realFiles().find((file) => file.endsWith('argparse.py'));
  if (!argparse) return t.skip('no Python stdlib on this machine');
  const chunks = await chunkFile(argparse, readFileSync(argparse, 'utf8'));
  const parser = chunkWith(chunks, 'class ArgumentParser', 'method parse_known_args');
  assert.match(parser.text, /^ {4}def parse_known_args\(self/);
  assert.ok(chunks.some((chunk) => chunk.symbols.join() === 'class ArgumentParser'), 'class head chunk');
});

test('same input gives the same output, also when files are chunked concurrently', async () => {
  const files = realFiles().slice(0, 5);
  const texts = files.map((file) => readFileSync(file, 'utf8'));
  const first = await Promise.all(files.map((file, i) => chunkFile(file, texts[i]!)));
  const second = await Promise.all([...files].reverse().map((file, i) => chunkFile(file, texts[files.length - 1 - i]!)));
  assert.deepEqual(second.reverse(), first);
});

test('CRLF files get the same line numbers and CR-free text', async () => {
  const lf = 'import x from "y";\n\n/** Adds. */\nexport function add(a: number, b: number) {\n  return a + b;\n}\n\nclass Box {\n  value = 1;\n}\n';
  const crlf = lf.replace(/\n/g, '\r\n');
  const fromLf = await chunkFile('a.ts', lf);
  const fromCrlf = await chunkFile('a.ts', crlf);
  assert.deepEqual(fromCrlf, fromLf);
  assert.ok(fromCrlf.every((chunk) => !chunk.text.includes('\r')));
  assert.deepEqual([chunkWith(fromCrlf, 'function add').startLine, chunkWith(fromCrlf, 'function add').endLine], [3, 6]);
});

test('a 2 MB minified one-line file is handled fast, with its line cut', async () => {
  const minified = 'var a=function(b){return b+1};'.repeat(70_000);
  const started = performance.now();
  const chunks = await chunkFile('dist/app.min.js', minified);
  assert.ok(performance.now() - started < 1000, 'under a second');
  assert.equal(chunks.length, 1);
  assert.equal(chunks[0]!.text, minified.slice(0, 1000));
  const fiveMegabytes = await chunkFile('data.json', 'x'.repeat(5_000_000));
  assert.deepEqual(fiveMegabytes.map((chunk) => chunk.text.length), [1000]);
});

test('an overlong line inside ordinary code is cut but keeps its line', async () => {
  const text = `function data() {\n  return "${'a'.repeat(5000)}";\n}\n`;
  const chunks = await chunkFile('data.ts', text, { maxLineChars: 100 });
  assert.equal(chunks.length, 1);
  assert.deepEqual(chunks[0]!.symbols, ['function data']);
  assert.equal(chunks[0]!.text.split('\n')[1]!.length, 100);
  assertWellFormed(text, chunks, 100);
});

test('unknown extensions and grammar-less languages fall back to line windows', async () => {
  const text = Array.from({ length: 150 }, (_, i) => `line ${i + 1}`).join('\n');
  for (const path of ['notes.xyz', 'styles.css', 'README.md']) {
    const chunks = await chunkFile(path, text);
    assert.deepEqual(chunks.map((chunk) => [chunk.startLine, chunk.endLine]), [[1, 60], [51, 110], [101, 150]], path);
    assert.ok(chunks.every((chunk) => chunk.symbols.length === 0));
  }
  const custom = await chunkFile('notes.xyz', text, { windowLines: 100, windowOverlap: 0 });
  assert.deepEqual(custom.map((chunk) => [chunk.startLine, chunk.endLine]), [[1, 100], [101, 150]]);
  assert.equal((await chunkFile('notes.txt', 'hello'))[0]!.language, 'text');
  // Plain text (.txt, no extension) goes by paragraphs: one of 150 lines is cut at 60 without overlap.
  const license = await chunkFile('LICENSE', text);
  assert.deepEqual(license.map((chunk) => [chunk.startLine, chunk.endLine]), [[1, 60], [61, 120], [121, 150]]);
});

test('blank windows are skipped and empty or whitespace-only files give no chunks', async () => {
  assert.deepEqual(await chunkFile('a.ts', ''), []);
  assert.deepEqual(await chunkFile('a.py', ' \n\t\n\r\n   '), []);
  const sparse = `first\n${'\n'.repeat(200)}last\n`;
  const chunks = await chunkFile('a.txt', sparse);
  assert.deepEqual(chunks.map((chunk) => [chunk.startLine, chunk.endLine]), [[1, 1], [202, 202]]);
});

test('an extensionless script is recognised by its #! line', async () => {
  const chunks = await chunkFile('bin/tool', '#!/usr/bin/env python3\n\ndef main():\n    print("hi")\n');
  assert.equal(chunks[0]!.language, 'python');
  assert.ok(chunks.some((chunk) => chunk.symbols.join() === 'function main'));
});

test('hostile input: NUL characters, a 10,000-line function, deep nesting, many definitions', async () => {
  const cases: Array<[string, string]> = [
    ['nul.ts', 'function a() {\n\0\0\0\n}\n\0class B { m() {} }\n'],
    ['long.ts', `function big() {\n${Array.from({ length: 10_000 }, (_, i) => `  const v${i} = ${i};`).join('\n')}\n}\n`],
    ['deep.ts', `${Array.from({ length: 1500 }, (_, i) => `function f${i}() {`).join('\n')}\n${'}\n'.repeat(1500)}`],
    ['deep.py', `${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}def f${i}():`).join('\n')}\n${' '.repeat(300)}pass\n`],
    ['parens.js', `x = ${'('.repeat(900)}1${')'.repeat(900)};\n`],
    ['many.go', `package p\n${Array.from({ length: 15_000 }, (_, i) => `func f${i}() {}`).join('\n')}\n`],
    ['garbage.rs', Array.from({ length: 3000 }, (_, i) => `${'{(['[i % 3]} fn ${'}'.repeat(i % 5)} impl <`).join('\n')],
  ];
  for (const [path, text] of cases) {
    const started = performance.now();
    const chunks = await chunkFile(path, text);
    assert.ok(performance.now() - started < 10_000, `${path} took too long`);
    assertWellFormed(text, chunks);
    assertMaxLines(chunks, 80);
  }
});

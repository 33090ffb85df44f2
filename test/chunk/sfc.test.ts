// Single-file components (.vue, .svelte): line windows, each under the name a Vue component gives itself; the blocks
// told apart (script, template, style) whatever the file holds; every chunk exactly the file's lines it names.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunkFile, type Chunk } from '../../src/chunk/index.js';
import { componentName, sfcBlocks } from '../../src/chunk/sfc-blocks.js';
import { chunkerVersionOf } from '../../src/chunk/version.js';
import { PROJECT_ROOT } from '../helpers.js';
import { assertWellFormed, describe, lineOf } from './helpers.js';

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'sfc');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const shape = (chunks: Chunk[]) => chunks.map((c) => [c.startLine, c.endLine, c.symbols.join(' > ')]);

async function chunked(name: string, text: string): Promise<Chunk[]> {
  const chunks = await chunkFile(name, text);
  assertWellFormed(text, chunks);
  // Byte for byte: each chunk's text is the file's own lines it names, Chinese comments and all (CR aside).
  const raw = text.split('\n');
  for (const c of chunks) assert.equal(c.text, raw.slice(c.startLine - 1, c.endLine).join('\n').replace(/\r$/gm, ''));
  return chunks;
}

/** The windows any file without rules gets: 60 lines, 10 shared (chunk/index.ts's defaults). */
async function plainWindows(text: string): Promise<(string | number)[][]> {
  return shape(await chunkFile('notes.unknown-extension', text));
}

test('Vue 2 options API: the windows of any file, each under the component\'s name, Chinese comments unharmed', async () => {
  const text = read('UserList.vue');
  const chunks = await chunked('src/views/system/user/index.vue', text);
  assert.ok(chunks.every((c) => c.language === 'vue'));
  assert.deepEqual(shape(chunks), (await plainWindows(text)).map(([s, e]) => [s, e, 'component UserList']), describe(chunks));
  assert.ok(chunks.some((c) => c.text.includes('/** 删除按钮操作：确认后删除所选用户 */')));
});

test('Vue 3 <script setup lang="ts">: named by defineOptions', async () => {
  const chunks = await chunked('DeptTree.vue', read('DeptTree.vue'));
  assert.deepEqual(chunks.map((c) => c.symbols), [['component SystemDeptTree']]);
});

test('a component that gives no name, and Svelte, keep the windows they had', async () => {
  const svelte = read('Counter.svelte');
  const chunks = await chunked('Counter.svelte', svelte);
  assert.ok(chunks.every((c) => c.language === 'svelte'));
  assert.deepEqual(shape(chunks), await plainWindows(svelte));
  const unnamed = read('DeptTree.vue').replace("defineOptions({ name: 'SystemDeptTree' })", '');
  assert.deepEqual(shape(await chunked('DeptTree.vue', unnamed)), await plainWindows(unnamed));
});

test('blocks: script, template (nested <template v-if> inside) and style, by their lines', () => {
  const text = read('UserList.vue');
  const blocks = sfcBlocks(text)!.map((b) => [b.tag, b.openLine, b.closeLine]);
  assert.deepEqual(blocks, [
    ['template', 1, lineOf(text, '<script>') - 2],
    ['script', lineOf(text, '<script>'), lineOf(text, '</script>')],
    ['style', lineOf(text, '<style lang="scss" scoped>'), lineOf(text, '</style>')],
  ]);
  const svelte = read('Counter.svelte');
  assert.deepEqual(sfcBlocks(svelte)!.map((b) => [b.tag, b.attrs.trim()]), [['script', 'context="module" lang="ts"'], ['script', 'lang="ts"'], ['style', '']]);
});

test('hostile input never throws: CRLF with a BOM, tags quoted in strings, unclosed blocks, a huge file', async () => {
  const lf = read('UserList.vue');
  const crlf = `\uFEFF${lf.replace(/\n/g, '\r\n')}`;
  assert.deepEqual(shape(await chunked('UserList.vue', crlf)), shape(await chunked('UserList.vue', lf)));

  // `<script>` in the template's text and `<template>`/`</script` quoted in the script are not blocks.
  const quoted = [
    '<template>', '  <pre>{{ "<script>alert(1)</script>" }}</pre>', '<script>not a block</script>', '</template>',
    '<script>', 'const html = `<template><div/></template>`', 'export default {', '  name: "Quoted",', '}', '</script>',
  ].join('\n');
  assert.deepEqual(sfcBlocks(quoted)!.map((b) => [b.tag, b.openLine, b.closeLine]), [['template', 1, 4], ['script', 5, 10]]);
  assert.deepEqual(shape(await chunked('Quoted.vue', quoted)), [[1, 10, 'component Quoted']]);

  // An unclosed block, or no block at all: plain windows, as before.
  const unclosed = '<template>\n  <div>\n</template>\n<script>\nexport default {\n  name: "Broken",\n';
  assert.equal(sfcBlocks(unclosed), null);
  assert.deepEqual(shape(await chunked('Broken.vue', unclosed)), [[1, 6, '']]);
  assert.deepEqual(shape(await chunked('Plain.vue', 'just text, no blocks\n')), [[1, 1, '']]);
  assert.equal(sfcBlocks(''), null);

  const huge = ['<template>', ...Array.from({ length: 30_000 }, (_, i) => `  <p>行 ${i}</p>`), '</template>', '<script>', 'export default {', '  name: "Huge",', ...Array.from({ length: 25_000 }, (_, i) => `  v${i}: ${i},`), '}', '</script>'].join('\n');
  const big = await chunked('Huge.vue', huge);
  assert.ok(big.every((c) => c.symbols.join() === 'component Huge'));
});

test('a component\'s own name: the options object\'s or defineOptions\', never a nested object\'s', () => {
  assert.equal(componentName('\nexport default {\n  components: { A },\n  name: \'Dept\',\n}'), 'Dept');
  assert.equal(componentName('export default defineComponent({\n  name: "Menu",\n})'), 'Menu');
  assert.equal(componentName("defineOptions({ name: 'SystemUser' })"), 'SystemUser');
  assert.equal(componentName('export default {\n  data() {\n    return { name: "form" }\n  }\n}'), null);
  assert.equal(componentName('const form = { name: "x" }'), null);
});

test('only .vue files leave their line windows\' version: their chunks alone are made again', () => {
  assert.equal(chunkerVersionOf('vue'), '1+vue.2');
  for (const language of ['svelte', 'astro', 'json']) assert.equal(chunkerVersionOf(language), '1+lines.2', language);
});

// Single-file components (.vue, .svelte) cut by their blocks: the script by its grammar with a .ts/.js file's rules,
// the template along its elements, the style along its rules; every chunk is exactly the file's lines it names.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { chunkFile, type Chunk } from '../../src/chunk/index.js';
import { componentName, sfcBlocks } from '../../src/chunk/sfc-blocks.js';
import { chunkerVersionOf } from '../../src/chunk/version.js';
import { PROJECT_ROOT } from '../helpers.js';
import { assertMaxLines, assertWellFormed, chunkWith, describe, lineOf } from './helpers.js';

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'sfc');
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
const span = (c: Chunk) => [c.startLine, c.endLine];

async function chunked(name: string, text: string): Promise<Chunk[]> {
  const chunks = await chunkFile(name, text);
  assertWellFormed(text, chunks);
  // Byte for byte: each chunk's text is the file's own lines it names, Chinese comments and all.
  const raw = text.split('\n');
  for (const c of chunks) assert.equal(c.text, raw.slice(c.startLine - 1, c.endLine).join('\n').replace(/\r$/gm, ''));
  return chunks;
}

test('Vue 2 options API: template, each method with its Chinese doc comment under the component\'s name, the style', async () => {
  const text = read('UserList.vue');
  const chunks = await chunked('src/views/system/user/index.vue', text);
  assert.ok(chunks.every((c) => c.language === 'vue'));
  const top = ['component UserList'];
  assert.deepEqual(span(chunks[0]!), [1, lineOf(text, '<script>') - 2], describe(chunks));
  assert.deepEqual(chunks[0]!.symbols, top);
  assert.deepEqual(span(chunkWith(chunks, ...top, 'method getList')), [lineOf(text, '/** 查询用户列表 */'), lineOf(text, 'this.loading = false;') + 2]);
  assert.equal(chunkWith(chunks, ...top, 'method handleDelete').startLine, lineOf(text, '/** 删除按钮操作'));
  assert.ok(chunkWith(chunks, ...top, 'method handleDelete').text.includes('是否确认删除用户编号为'));
  // The script's tags join its first and last chunks: no line of the file is left out.
  assert.equal(chunks.find((c) => c.text.startsWith('<script>'))!.endLine >= lineOf(text, 'name: "UserList"'), true);
  const style = chunks[chunks.length - 1]!;
  assert.deepEqual(span(style), [lineOf(text, '<style lang="scss" scoped>'), lineOf(text, '</style>')]);
});

test('Vue 3 <script setup lang="ts">: parsed as TypeScript (an interface and its members), named by defineOptions', async () => {
  const text = read('DeptTree.vue');
  const chunks = await chunked('DeptTree.vue', text);
  const top = ['component SystemDeptTree'];
  assert.deepEqual(span(chunkWith(chunks, ...top, 'interface TreeNode')), [lineOf(text, 'interface TreeNode'), lineOf(text, 'children?: TreeNode[]') + 1]);
  assert.equal(chunkWith(chunks, ...top, 'interface TreeNode', 'property label').startLine, lineOf(text, 'label: string'));
  assert.equal(chunkWith(chunks, ...top, 'function buildTree').startLine, lineOf(text, '/** 把扁平的部门列表转成树 */'));
  // The closing tag joins the script's last chunk.
  assert.equal(chunkWith(chunks, ...top, 'function handleNodeClick').endLine, lineOf(text, '</script>'));
  assert.equal(chunks[0]!.startLine, 1, 'the <script setup> line opens the first chunk');
});

test('a script block chunks as the same code in a .ts file does, its lines shifted to where it sits', async () => {
  const text = read('DeptTree.vue');
  const lines = text.split('\n');
  const open = lineOf(text, '<script lang="ts" setup>');
  const close = lineOf(text, '</script>');
  const asTs = await chunkFile('tree.ts', lines.slice(open, close - 1).join('\n'));
  const inVue = await chunkFile('DeptTree.vue', text);
  // The tag lines, which join the first and the last chunk, aside.
  const named = (cs: Chunk[], drop: number) => cs.filter((c) => c.symbols.length > drop).map((c) => `${Math.max(c.startLine, open + 1)}-${Math.min(c.endLine, close - 1)} ${c.symbols.slice(drop).join(' > ')}`);
  const shifted = asTs.map((c) => ({ ...c, startLine: c.startLine + open, endLine: c.endLine + open }));
  assert.deepEqual(named(inVue, 1), named(shifted, 0));
});

test('Svelte: both script blocks parsed, markup with its {#if} blocks, the style; language svelte', async () => {
  const text = read('Counter.svelte');
  const chunks = await chunked('Counter.svelte', text);
  assert.ok(chunks.every((c) => c.language === 'svelte'));
  assert.deepEqual(span(chunkWith(chunks, 'function increment')), [lineOf(text, 'function increment'), lineOf(text, "dispatch('change'") + 1]);
  const markup = chunks.find((c) => c.text.startsWith('<h1>'))!;
  assert.deepEqual(span(markup), [lineOf(text, '<h1>计数'), lineOf(text, '{/if}')]);
  assert.deepEqual(span(chunks[chunks.length - 1]!), [lineOf(text, '<style>'), lineOf(text, '</style>')]);
});

test('a long template is cut before the shallowest element late in each piece, not at a line count', async () => {
  const section = (name: string) => [`    <el-card class="${name}">`, ...Array.from({ length: 36 }, (_, i) => `      <p>${name} 第 ${i} 行</p>`), '    </el-card>'];
  const text = ['<template>', '  <div class="page">', ...section('search'), ...section('table'), ...section('dialog'), '  </div>', '</template>', '', '<script setup>', 'const a = 1', '</script>'].join('\n');
  const chunks = await chunked('Page.vue', text);
  assertMaxLines(chunks, 80);
  const template = chunks.filter((c) => c.endLine <= lineOf(text, '</template>'));
  assert.deepEqual(template.map(span), [[1, lineOf(text, 'el-card class="dialog"') - 1], [lineOf(text, 'el-card class="dialog"'), lineOf(text, '</template>')]], describe(chunks));
});

test('hostile input never throws: CRLF with a BOM, tags quoted in strings, unclosed blocks, a huge file', async () => {
  const lf = read('UserList.vue');
  const crlf = `\uFEFF${lf.replace(/\n/g, '\r\n')}`;
  const a = await chunked('UserList.vue', lf);
  const b = await chunked('UserList.vue', crlf);
  assert.deepEqual(b.map((c) => [c.startLine, c.endLine, c.symbols.join(' > ')]), a.map((c) => [c.startLine, c.endLine, c.symbols.join(' > ')]));

  // `<script>` in the template's text and `<template>`/`</script` quoted in the script are not blocks.
  const quoted = [
    '<template>', '  <pre>{{ "<script>alert(1)</script>" }}</pre>', '<script>not a block</script>', '</template>',
    '<script>', 'const html = `<template><div/></template>`', 'function render() {', '  return html', '}', '</script>',
  ].join('\n');
  const q = await chunked('Quoted.vue', quoted);
  assert.deepEqual(span(q[0]!), [1, 4], describe(q));
  assert.equal(chunkWith(q, 'function render').startLine, 7);

  // An unclosed block: the whole file in line windows, as before.
  const unclosed = '<template>\n  <div>\n</template>\n<script>\nexport default {\n  name: "Broken",\n';
  const u = await chunked('Broken.vue', unclosed);
  assert.deepEqual(u.map(span), [[1, 6]]);
  assert.deepEqual(sfcBlocks(unclosed), null);
  assert.equal((await chunked('Plain.vue', 'just text, no blocks\n')).length, 1);

  const huge = ['<template>', ...Array.from({ length: 30_000 }, (_, i) => `  <p>行 ${i}</p>`), '</template>', '<script>', ...Array.from({ length: 25_000 }, (_, i) => `const v${i} = ${i}`), '</script>'].join('\n');
  await chunked('Huge.vue', huge);
});

test('a component\'s own name: the options object\'s or defineOptions\', never a nested object\'s', () => {
  assert.equal(componentName('\nexport default {\n  components: { A },\n  name: \'Dept\',\n}'), 'Dept');
  assert.equal(componentName('export default defineComponent({\n  name: "Menu",\n})'), 'Menu');
  assert.equal(componentName("defineOptions({ name: 'SystemUser' })"), 'SystemUser');
  assert.equal(componentName('export default {\n  data() {\n    return { name: "form" }\n  }\n}'), null);
  assert.equal(componentName('const form = { name: "x" }'), null);
});

test('only .vue and .svelte files leave their line windows: their chunker version alone changes', () => {
  assert.equal(chunkerVersionOf('vue'), '1+vue.2');
  assert.equal(chunkerVersionOf('svelte'), '1+svelte.2');
  assert.equal(chunkerVersionOf('astro'), '1+lines.2');
  assert.equal(chunkerVersionOf('json'), '1+lines.2');
});

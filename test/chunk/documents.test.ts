// Documents are chunked where their authors cut them: at headings, with the outline as breadcrumb; tables carry
// their header row into every chunk.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkFile } from '../../src/chunk/index.js';

const crumbs = async (path: string, text: string) => (await chunkFile(path, text)).map((c) => [c.startLine, c.endLine, c.symbols.join(' > ')]);

test('Markdown: one chunk per section, the heading path as breadcrumb, code fences and front matter are not headings', async () => {
  const md = [
    '---', 'title: Guide', '---', '', 'Intro paragraph.', '',
    '# Install', '', 'Run the installer.', '',
    '## Offline mode', '', 'Copy the model first:', '', '```sh', '# not a heading', 'ocrag model pull', '```', '',
    '## Proxy', '', 'Set HTTPS_PROXY.', '',
    'Usage', '=====', '', 'Search with `ocrag search`.', '',
    '### [Flags](flags.md) and **options**', '', '--json prints JSON.',
  ].join('\n');
  assert.deepEqual(await crumbs('docs/guide.md', md), [
    [1, 5, ''],
    [7, 9, '# Install'],
    [11, 18, '# Install > ## Offline mode'],
    [20, 22, '# Install > ## Proxy'],
    [24, 27, '# Usage'],
    [29, 31, '# Usage > ### Flags and options'],
  ]);
});

test('Markdown: a heading with only sub-headings under it opens the first of them; a long section is split with its breadcrumb', async () => {
  const long = Array.from({ length: 120 }, (_, i) => (i % 10 === 9 ? '' : `Line ${i} of the reference.`));
  const md = ['# API', '## Search', '', 'Searches.', '', '## Reference', '', ...long].join('\n');
  const chunks = await chunkFile('README.md', md);
  assert.deepEqual(chunks[0]!.symbols, ['# API', '## Search']);
  assert.equal(chunks[0]!.startLine, 1, 'the empty parent heading is part of its first child section');
  const reference = chunks.filter((c) => c.symbols.join(' > ') === '# API > ## Reference');
  assert.ok(reference.length >= 2, 'split');
  assert.ok(reference.every((c) => c.endLine - c.startLine + 1 <= 83));
  const lines = md.split('\n');
  const lastText = lines.length - [...lines].reverse().findIndex((l) => l.trim());
  assert.equal(reference.at(-1)!.endLine, lastText, 'to the last line of text');
});

test('a setext underline after a paragraph of several lines, or a rule after a blank line, is not a heading', async () => {
  const md = ['# Notes', '', 'first line', 'second line', '---', '', 'after the rule', '', '---', '', 'more'].join('\n');
  assert.deepEqual((await chunkFile('n.md', md)).map((c) => c.symbols.join(' > ')), ['# Notes']);
});

test('reStructuredText and AsciiDoc sections', async () => {
  const rst = ['=======', 'Project', '=======', '', 'About it.', '', 'Install', '-------', '', 'pip install it::', '', '    Not a', '    -----', '', 'Usage', '-------', '', 'Run it.'].join('\n');
  assert.deepEqual(await crumbs('docs/index.rst', rst), [
    [1, 5, '# Project'],
    [7, 13, '# Project > ## Install'],
    [15, 18, '# Project > ## Usage'],
  ]);
  const adoc = ['= Manual', '', 'Intro.', '', '== Setup', '', '----', '== not a heading inside a listing', '----', '', '=== Linux', '', 'apt install.'].join('\n');
  assert.deepEqual(await crumbs('manual.adoc', adoc), [
    [1, 3, '# Manual'],
    [5, 9, '# Manual > ## Setup'],
    [11, 13, '# Manual > ## Setup > ### Linux'],
  ]);
});

test('CSV and TSV: every chunk starts with the header row and names the columns; spans are the rows', async () => {
  const rows = Array.from({ length: 95 }, (_, i) => `${i},widget ${i},${(i * 1.5).toFixed(2)}`);
  const chunks = await chunkFile('data/prices.csv', ['id,name,price', ...rows].join('\n') + '\n');
  assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine]), [[2, 41], [42, 81], [82, 96]]);
  for (const c of chunks) {
    assert.equal(c.language, 'csv');
    assert.ok(c.text.startsWith('id,name,price\n'), 'header carried');
    assert.deepEqual(c.symbols, ['table id, name, price']);
  }
  assert.ok(chunks[2]!.text.includes('94,widget 94,141.00'));
  const tsv = await chunkFile('x.tsv', 'city\tpopulation\nParis\t2100000\n');
  assert.deepEqual(tsv.map((c) => [c.text, c.symbols[0]]), [['city\tpopulation\nParis\t2100000', 'table city, population']]);
  assert.deepEqual((await chunkFile('only-header.csv', 'a,b\n')).map((c) => c.text), ['a,b']);
});

test('a Markdown file without headings is cut into windows as before', async () => {
  const text = Array.from({ length: 130 }, (_, i) => `plain line ${i}`).join('\n');
  const chunks = await chunkFile('notes.md', text);
  assert.ok(chunks.length >= 2);
  assert.ok(chunks.every((c) => c.symbols.length === 0));
});

test('HTML is read as the text it shows: tags, scripts, styles and comments gone, entities decoded, headings as breadcrumb', async () => {
  const html = [
    '<!DOCTYPE html>',
    '<html><head><title>Guide</title><style>p { color: red }</style></head>',
    '<body><script>var s = "<h1>not a heading</h1>";</script>',
    '<h1>User guide</h1>',
    '<p>Fish &amp; chips &mdash; caf&eacute; &#x263A; &#233; &lt;b&gt;</p>',
    '<h2 id="install">Install <code>ocrag</code></h2>',
    '<p>Run the installer',
    '   and wait.</p><!-- <h2>hidden</h2> -->',
    '<ul><li>one</li><li>two</li></ul>',
    '<h3>Offline</h3><p>Set OFFLINE=1.</p>',
    '<h2>Usage</h2><p>中文文档 stays as it is.</p>',
    '</body></html>',
  ].join('\n');
  const chunks = await chunkFile('site/guide.html', html);
  assert.deepEqual(chunks.map((c) => [c.startLine, c.endLine, c.symbols.join(' > ')]), [
    [4, 5, '# User guide'],
    [6, 9, '# User guide > ## Install ocrag'],
    [10, 10, '# User guide > ## Install ocrag > ### Offline'],
    [11, 11, '# User guide > ## Usage'],
  ]);
  assert.equal(chunks[0]!.text, 'User guide\nFish & chips — caf&eacute; ☺ é <b>');
  assert.equal(chunks[1]!.text, 'Install ocrag\nRun the installer and wait.\none\ntwo');
  assert.equal(chunks[3]!.text, 'Usage\n中文文档 stays as it is.');
  assert.ok(chunks.every((c) => c.language === 'html' && !/script|color|hidden|not a heading/.test(c.text)));
  // Without an extension, a doctype or <html> says what it is.
  assert.deepEqual((await chunkFile('export/page', html)).map((c) => c.symbols.join(' > ')), chunks.map((c) => c.symbols.join(' > ')));
  assert.equal((await chunkFile('export/page', '<html>\n<body><p>Hello</p></body></html>'))[0]!.language, 'html');
  // A template is code: its markup is kept, in line windows.
  const template = await chunkFile('templates/login.html', '<h1>{{ title }}</h1>\n<form method="post">{% csrf_token %}</form>\n');
  assert.deepEqual(template.map((c) => [c.startLine, c.endLine, c.symbols.length, c.text.includes('<form')]), [[1, 2, 0, true]]);
});

test('plain text goes by paragraphs, packed up to a window of lines, each chunk named by its title line', async () => {
  const para = (n: number, words: string) => Array.from({ length: n }, (_, i) => `${words} ${i}.`).join('\n');
  const text = ['Backup policy', '', para(3, 'Nightly backups are kept'), '', para(2, 'Weekly ones too'), '', 'Restore', '', para(70, 'Use the restore tool'), '', 'The end of the notes.'].join('\n');
  assert.deepEqual(await crumbs('notes.txt', text), [
    [1, 8, 'Backup policy'],
    [10, 69, 'Restore'],
    [70, 81, 'Restore'],
    [83, 83, 'Restore'],
  ]);
  // No title above: the chunk's first line names it. Another extension keeps line windows.
  assert.deepEqual(await crumbs('NOTES', 'The cache lives in the home folder, and it is small.\nIt is rebuilt on demand.'), [[1, 2, 'The cache lives in the home folder, and it is small.']]);
  assert.deepEqual(await crumbs('run.log', text), [[1, 60, ''], [51, 83, '']]);
});

test('HTML that is broken (a lone "<", tags never closed) gives chunks within its lines, never at line 0', async () => {
  // A test page of a formatter's own suite: every store read refuses a chunk at line 0, so the repository went unsearchable.
  for (const broken of ['<div><span>\n\n<   \n', '<   \n', '<p>a</p>\n<\n', '<div>\n<\n<b>x</b>\n']) {
    const chunks = await chunkFile('tests/broken.html', broken);
    const count = broken.split('\n').length;
    for (const c of chunks) assert.ok(c.startLine >= 1 && c.startLine <= c.endLine && c.endLine <= count, `${JSON.stringify(broken)}: lines ${c.startLine}-${c.endLine}`);
  }
  assert.deepEqual(await crumbs('tests/broken.html', '<div><span>\n\n<   \n'), [[3, 4, '']]);
});

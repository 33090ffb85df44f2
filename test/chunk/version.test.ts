// Chunker versions per language: each language's revision is in the ids of its chunks, and no id made before changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleRevisions } from '../../src/chunk/rules.js';
import { RULE_REVISIONS } from '../../src/chunk/revisions.js';
import { chunkerVersion, chunkerVersionOf, formatChunkerVersions, parseChunkerVersions } from '../../src/chunk/version.js';
import { chunkId } from '../../src/index/chunk-id.js';
import { withSeams } from '../support/seams.js';

const TODAY = '1+asciidoc.2+bash.2+c.4+c_sharp.3+cpp.4+csv.2+dart.2+elixir.3+go.2+haskell.2+html.3+java.2+javascript.2+kotlin.2+lines.2+lua.2+markdown.2+objective_c.2+pdf.3+php.3+python.2+rst.2+ruby.3+rust.2+scala.2+swift.2+text.2+tsv.2+tsx.2+typescript.2+vue.2+zig.2';

test('code languages moved to revision 2 together (members became chunks); documents and windows have their own', () => {
  assert.equal(chunkerVersion(), TODAY);
  for (const language of ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'bash', 'java']) {
    assert.equal(chunkerVersionOf(language), `1+${language}.2`, language);
  }
  // C and C++ (one set of rules) then named a class with an export macro (`class API logger {`) as the class.
  // Then (revision 4) read past attribute macros (`SPDLOG_INLINE void f() SPDLOG_NOEXCEPT {`) and let namespaces only
  // group; C#'s, PHP's braced namespaces and Ruby's modules then only grouped too (revision 3).
  for (const language of ['c', 'cpp']) assert.equal(chunkerVersionOf(language), `1+${language}.4`, language);
  for (const language of ['c_sharp', 'php', 'ruby']) assert.equal(chunkerVersionOf(language), `1+${language}.3`, language);
  // Documents are cut at headings (documents.ts), and CSV left the line windows of "text": their files re-chunk.
  assert.equal(chunkerVersionOf('markdown'), '1+markdown.2');
  for (const language of ['json', 'perl']) assert.equal(chunkerVersionOf(language), '1+lines.2', language);
  // Languages given rules later start at revision 2: their chunks leave the line windows' version.
  for (const language of ['kotlin', 'swift', 'scala', 'haskell', 'lua', 'zig', 'dart', 'objective_c']) {
    assert.equal(chunkerVersionOf(language), `1+${language}.2`, language);
  }
  // Elixir then made a function of several clauses one definition.
  assert.equal(chunkerVersionOf('elixir'), '1+elixir.3');
  // HTML is read as text, plain text by paragraphs: both left the line windows too.
  assert.equal(chunkerVersionOf('text'), '1+text.2');
  // HTML then started text that begins with a broken tag on its own line, never at line 0.
  assert.equal(chunkerVersionOf('html'), '1+html.3');
  // A chunk of a language at revision 1 keeps the id it had: the same blob, chunker, model and span give the same digits.
  assert.equal(chunkId('a'.repeat(40), chunkerVersionOf('perl'), 'model', 1, 5), chunkId('a'.repeat(40), '1+lines.2', 'model', 1, 5));
  assert.notEqual(chunkId('a'.repeat(40), chunkerVersionOf('kotlin'), 'model', 1, 5), chunkId('a'.repeat(40), '1+lines.2', 'model', 1, 5));
  assert.notEqual(chunkId('a'.repeat(40), chunkerVersionOf('rust'), 'model', 1, 5), chunkId('a'.repeat(40), '1', 'model', 1, 5));
});

test('the table of revisions a search reads says what the rules say', () => {
  // version.ts reads the table, so a search never loads the rules: a rule's revision raised without the table would
  // leave the chunks of its language under the old version.
  assert.deepEqual({ ...RULE_REVISIONS }, ruleRevisions());
});

test('only the languages that had rules when versions became per language may have rules at revision 1', () => {
  // A language given rules later starts at revision 2: until then its files were line windows (revision 1), and the
  // same version would claim their old chunks as its own.
  const atOne = Object.entries(ruleRevisions()).filter(([, revision]) => revision === 1).map(([language]) => language).sort();
  const original = ['bash', 'c', 'c_sharp', 'cpp', 'go', 'java', 'javascript', 'php', 'python', 'ruby', 'rust', 'tsx', 'typescript'];
  assert.deepEqual(atOne.filter((language) => !original.includes(language)), []);
});

test('raising one language changes its version alone; the line windows stand for every language without rules', () => {
  withSeams({ chunkerRevisions: { rust: 3 } }, () => {
    assert.equal(chunkerVersion(), TODAY.replace('rust.2', 'rust.3'));
    assert.equal(chunkerVersionOf('rust'), '1+rust.3');
    assert.equal(chunkerVersionOf('go'), '1+go.2');
    assert.equal(chunkerVersionOf('markdown'), '1+markdown.2');
  });
  withSeams({ chunkerRevisions: { lines: 3, python: 3 } }, () => {
    assert.equal(chunkerVersion(), TODAY.replace('lines.2', 'lines.3').replace('python.2', 'python.3'));
    assert.equal(chunkerVersionOf('markdown'), '1+markdown.2', 'documents have revisions of their own');
    assert.equal(chunkerVersionOf('json'), '1+lines.3');
    assert.equal(chunkerVersionOf('python'), '1+python.3');
    assert.equal(chunkerVersionOf('typescript'), '1+typescript.2');
  });
  withSeams({ chunkerRevisions: { rust: 1 } }, () => assert.equal(chunkerVersionOf('rust'), '1', 'a revision of 1 is the base alone'));
  assert.equal(chunkerVersion(), TODAY);
});

test('a recorded table reads back; an old "1" is every language at 1; anything else matches nothing', () => {
  const table = parseChunkerVersions('1+lines.3+rust.2');
  assert.deepEqual(table, { base: '1', revisions: { lines: 3, rust: 2 } });
  assert.equal(formatChunkerVersions(table), '1+lines.3+rust.2');
  assert.equal(chunkerVersionOf('rust', table), '1+rust.2');
  assert.equal(chunkerVersionOf('go', table), '1');
  assert.deepEqual(parseChunkerVersions('1'), { base: '1', revisions: {} });
  assert.deepEqual(parseChunkerVersions('1+Rust!'), { base: '1+Rust!', revisions: {} });
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeQuery } from '../../src/search/query.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

describe('prose words meet the forms code writes them in', () => {
  test('a query word brings in its short forms, and a short form its word, each weaker than what was written', () => {
    const q = analyzeQuery('authentication of incoming requests');
    assert.ok(q.terms.includes('auth'));
    assert.equal(q.termWeights.get('auth'), 0.6);
    assert.equal(q.termWeights.get('authentication'), undefined);
    assert.ok(analyzeQuery('where is the cfg read').terms.includes('config'));
    assert.ok(analyzeQuery('create a temporary directory').terms.includes('temp'));
    // Two- and three-letter forms are words of their own in code: `deserialization` does not look for `de`.
    assert.ok(!analyzeQuery('deserialization of maps').terms.includes('de'));
  });

  describe('on a repository', () => {
    let index: CodeIndex;
    before(async () => {
      const repo = committedRepo(path.join(tempDir('forms'), 'forms'), {
        'src/guard.ts': 'export function requireAuth(header: string): boolean {\n  return header.startsWith("Bearer ");\n}\n\nexport function authHeader(token: string): string {\n  return `Bearer ${token}`;\n}\n',
        'src/check.ts': 'export function validateInput(input: unknown): string[] {\n  const problems: string[] = [];\n  if (typeof input !== "object") problems.push("not an object");\n  return problems;\n}\n',
        'src/queue.ts': 'export class Queue<T> {\n  private items: T[] = [];\n  private incoming = 0;\n  push(item: T): void {\n    this.items.push(item);\n  }\n  shift(): T | undefined {\n    return this.items.shift();\n  }\n}\n',
      }, 'forms');
      index = await CodeIndex.open(repo);
      await index.index();
    });
    after(() => index.close());

    test('`authentication` finds the code that says auth, `input validation` the function that validates', async () => {
      for (const [query, file] of [['authentication of incoming requests', 'src/guard.ts'], ['input validation', 'src/check.ts']] as const) {
        const [top] = await index.search(query, { k: 3, update: false, committedOnly: true });
        assert.equal(top?.path, file, query);
      }
    });
  });
});

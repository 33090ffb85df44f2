import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/**
 * A chat client with no Chinese in it, and a support module whose words are the English of a Chinese task's frame
 * (fix, problem, issue, question, optimize, function): read word by word, `修复…的问题` would ask for the latter.
 */
const FILES: Record<string, string> = {
  'src/chat/MessageList.ts': `export class MessageList {\n  private items: string[] = [];\n  constructor(private el: HTMLElement) {}\n\n  append(message: string) {\n    this.items.push(message);\n    this.scrollToBottom();\n  }\n\n  scrollToBottom() {\n    this.el.scrollTop = this.el.scrollHeight;\n  }\n}\n`,
  'src/chat/Composer.ts': `export class Composer {\n  constructor(private send: (text: string) => void) {}\n\n  submit(text: string) {\n    if (text.trim()) this.send(text.trim());\n  }\n}\n`,
  'src/support/problems.ts': `/** A problem a user reports, the question they ask, and the fix support proposes. */\nexport interface Problem {\n  id: string;\n  question: string;\n  message: string;\n  fix?: string;\n}\n\nexport function listProblems(all: Problem[]): Problem[] {\n  return all.filter((p) => !p.fix);\n}\n\nexport function fixProblem(problem: Problem, fix: string): Problem {\n  return { ...problem, fix };\n}\n\nexport function openIssues(problems: Problem[]): number {\n  return problems.filter((p) => !p.fix).length;\n}\n`,
  'src/support/optimize.ts': `/** Optimizes a function of the support queue: problems asked most go first. */\nexport function optimizeFunction(order: string[], asked: Map<string, number>): string[] {\n  return [...order].sort((a, b) => (asked.get(b) ?? 0) - (asked.get(a) ?? 0));\n}\n`,
};

describe('a Chinese task is read for what it names, not for the words that frame it', () => {
  let index: CodeIndex;
  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir('task-frame'), 'chat'), FILES, 'chat'));
    await index.index();
  });
  after(() => index.close());
  const paths = async (query: string) => (await index.search(query, { k: 10, update: false, committedOnly: true })).map((r) => r.path);

  test('修复…的问题 finds the code the change is about, above the code of fixes and problems', async () => {
    for (const query of ['修复消息显示的问题', '优化消息相关功能']) {
      const found = await paths(query);
      assert.equal(found[0], 'src/chat/MessageList.ts', `${query}: ${found.join(', ')}`);
    }
  });
});

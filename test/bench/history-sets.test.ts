// The commit-history benchmark's own rules (bench/history): which subjects and files make questions, the BM25
// baseline's tokens, the scores, and that every committed set keeps to those rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bm25Tokens } from '../../bench/history/bm25.js';
import { cleanSubject, isAnswerPath, subjectLanguage, subjectProblem, withoutAnswerScope } from '../../bench/history/filters.js';
import { rankOf, scores, withIntervals } from '../../bench/history/score.js';
import { loadSets } from '../../bench/history/sets.js';

test('subjects lose issue links, numbers, bullets and emoji, and keep what was said', () => {
  assert.equal(cleanSubject('Fix slurping raw input (#1234, #99)'), 'Fix slurping raw input');
  assert.equal(cleanSubject('* 新增头的非空校验 [Issue #2236](https://github.com/o/r/issues/2236)'), '新增头的非空校验');
  assert.equal(cleanSubject('✨ feat(core): 销毁时调用所有插件的 destroy 方法'), 'feat(core): 销毁时调用所有插件的 destroy 方法');
  assert.equal(cleanSubject('- 11、【优化】执行器任务Bean扫描逻辑优化'), '【优化】执行器任务Bean扫描逻辑优化');
  assert.equal(cleanSubject('Clear trimmed lines after moving, from Antony Raj in GitHub issue 4790.'), 'Clear trimmed lines after moving');
  assert.equal(cleanSubject('Read config from environment'), 'Read config from environment');
});

test('vague, release, merge and chore subjects make no question; specific ones in either language do', () => {
  for (const vague of ['fix', 'update', 'WIP', '优化代码', '[代码完善](master): 代码优化', 'Merge branch dev', 'Revert "Add x"', 'Bump serde from 1.0.1 to 1.0.2', 'prepare 5.8.32', 'chore: update deps', 'Update AbstractVerifier.java', 'Add files via upload', 'fix typo in parser']) {
    assert.notEqual(subjectProblem(cleanSubject(vague)), null, vague);
  }
  for (const good of ['Fix preview process not killed on exit', '修复ArrayUtil.lastIndexOfSub死循环问题', 'fix(crm): 修复跟进记录详情越权读取', 'Add --version flag to the CLI']) {
    assert.equal(subjectProblem(cleanSubject(good)), null, good);
  }
});

test('answers are source files, not tests, docs, tools, build files or lockfiles', () => {
  for (const p of ['src/black/linegen.py', 'web/src/views/system.vue', 'hutool-core/src/main/java/cn/hutool/core/util/StrUtil.java', 'lua/lualine/components/diff.lua']) assert.ok(isAnswerPath(p), p);
  for (const p of ['tests/test_format.py', 'src/main_test.go', 'src/test/java/FooTest.java', 'docs/conf.py', 'scripts/release.py', 'okhttp/build.gradle.kts', 'mix.exs', 'Cargo.lock', 'README.md', 'static/js/jquery.min.js']) assert.ok(!isAnswerPath(p), p);
});

test('a leading scope that names an answer file is cut, other scopes stay', () => {
  assert.equal(withoutAnswerScope('Splits: handle comment between while and brace', ['core/Splits.scala']), 'handle comment between while and brace');
  assert.equal(withoutAnswerScope("fix(parser): Don't panic on conflicts", ['src/parser/parser.rs']), "fix: Don't panic on conflicts");
  assert.equal(withoutAnswerScope('fix(crm): 修复跟进记录详情越权读取', ['crm/FollowUpServiceImpl.java']), 'fix(crm): 修复跟进记录详情越权读取');
});

test('a subject is Chinese from two Han characters on', () => {
  assert.equal(subjectLanguage('修复 kg 歌单打开失败的问题'), 'zh');
  assert.equal(subjectLanguage('Fix 中 parsing'), 'en');
});

test('BM25 tokens split identifiers and read Han text as bigrams', () => {
  assert.deepEqual(bm25Tokens('getUserName'), ['getusername', 'get', 'user', 'name']);
  assert.deepEqual(bm25Tokens('max_line_length'), ['max_line_length', 'max', 'line', 'length']);
  assert.deepEqual(bm25Tokens('歌单打开'), ['歌单', '单打', '打开']);
});

test('a rank counts distinct files and the first answer among them; intervals are reproducible', () => {
  assert.equal(rankOf(['a.ts', 'a.ts', 'b.ts', 'c.ts'], ['c.ts', 'x.ts']), 3);
  assert.equal(rankOf(['a.ts'], ['c.ts']), 0);
  const ranks = [1, 0, 3, 6, 2, 1, 0, 11];
  assert.deepEqual(scores([1, 0, 5, 2]), { r1: 0.25, r5: 0.75, r10: 0.75, mrr: (1 + 0.2 + 0.5) / 4 });
  const a = withIntervals(ranks);
  assert.deepEqual(a, withIntervals(ranks));
  assert.ok(a.r5.low <= a.r5.value && a.r5.value <= a.r5.high);
});

test('every committed set keeps to the rules: pinned snapshot, clean subjects, answers that are source, no repeats', () => {
  const sets = loadSets();
  assert.ok(sets.length > 0);
  for (const set of sets) {
    assert.match(set.snapshot, /^[0-9a-f]{40}$/, set.repo);
    assert.match(set.url, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/, set.repo);
    const seen = new Set<string>();
    for (const q of set.questions) {
      const where = `${set.repo} ${q.commit}`;
      assert.equal(subjectProblem(q.subject), null, where);
      assert.equal(q.lang, subjectLanguage(q.subject), where);
      assert.ok(q.answers.length >= 1 && q.answers.length <= 8 && q.answers.every(isAnswerPath), where);
      assert.ok(!seen.has(q.subject.toLowerCase()), where);
      seen.add(q.subject.toLowerCase());
    }
  }
});

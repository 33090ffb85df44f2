import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { analyzeQuery } from '../../src/search/query.js';
import { cjkTerms } from '../../src/text/scripts.js';
import { codeTerms } from '../../src/text/terms.js';
import { cleanSenses } from '../../src/text/zh-lexicon-build.js';
import { agentNoun } from '../../src/text/zh-query.js';
import { loadZhLexicon, type ZhLexicon } from '../../src/text/zh-lexicon.js';
import { TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

describe('Chinese query analysis (the real lexicon, built from the npm-shipped data)', () => {
  let lexicon: ZhLexicon;
  before(async () => {
    lexicon = await loadZhLexicon();
  });

  test('a Han run is split into the most probable dictionary words', () => {
    assert.deepEqual(lexicon.segment('解析命令行参数'), ['解析', '命令行', '参数']);
    assert.deepEqual(lexicon.segment('中间件如何全局应用'), ['中间件', '如何', '全局', '应用']);
    assert.ok(lexicon.size > 100_000);
  });

  test('Chinese words add their English senses as weighted terms and path words; frames and function words do not', () => {
    const q = analyzeQuery('模板视图的查找和渲染', lexicon);
    for (const word of ['template', 'view', 'render']) {
      assert.ok(q.terms.includes(word), `${word} in ${q.terms.join(' ')}`);
      assert.ok(q.keywords.includes(word), `${word} in keywords ${q.keywords.join(' ')}`);
      assert.ok(q.termWeights.get(word)! < 1, 'a translation counts less than a word the user wrote');
    }
    assert.ok(q.terms.includes('模板') && q.terms.includes('渲染'), 'the Chinese bigrams are searched too');
    assert.ok(!q.keywords.some((k) => ['of', 'and'].includes(k)));
    assert.match(q.embedText, /^模板 视图 查找 渲染 .*template/, 'the vector reads the content words and their English, not 的 or 和');
  });

  test('one identifier in a Chinese frame is a name query; a sentence around an acronym is not', () => {
    for (const [query, name] of [['parseArgs 在哪里定义', 'parseArgs'], ['TypeAdapter 抽象类', 'TypeAdapter'], ['response 对象的定义', 'response'], ['Router 的实现', 'Router']]) {
      const q = analyzeQuery(query, lexicon);
      assert.equal(q.isName, true, query);
      assert.deepEqual(q.symbols, [name]);
      assert.equal(q.embedText, name);
    }
    const sentence = analyzeQuery('HTTP 基本认证中间件', lexicon);
    assert.equal(sentence.isName, false);
    assert.ok(sentence.terms.includes('middleware') && sentence.terms.includes('basic'));
  });

  test('identifiers inside Chinese stay whole; asking for tests in Chinese asks for tests', () => {
    const q = analyzeQuery('调用parseArgs解析', lexicon);
    assert.ok(q.symbols.includes('parseArgs'));
    assert.ok(q.terms.includes('parseargs') && q.terms.includes('parse'));
    assert.equal(analyzeQuery('命令行参数解析的单元测试', lexicon).wantsTests, true);
    assert.deepEqual(codeTerms('重跑gen-itgc后'), ['重跑', '后', 'gen', 'itgc']);
  });

  test('a one-word sense goes before a phrase; pronunciation notes are no senses', () => {
    assert.equal(lexicon.senses('一起')[0], 'together', 'CC-CEDICT lists "the same place" first');
    assert.deepEqual(cleanSenses(['Taiwan pr. [ti3]', 'body', 'short name for Chengdu 成都[Cheng2 du1]']), ['body']);
  });

  test('a lone 器 or 者 after a word makes its doer, and brings no sense of its own', () => {
    const q = analyzeQuery('位置参数校验器', lexicon);
    assert.ok(q.terms.includes('validator'), q.terms.join(' '));
    assert.ok(!q.terms.includes('device') && !q.terms.includes('utensil'), q.terms.join(' '));
    assert.match(q.embedText, /\bvalidator\b/);
    const doers = ['validate', 'extract', 'parse', 'run', 'wrap', 'handle', 'listen', 'compiler', 'visit', 'process'].map(agentNoun);
    assert.deepEqual(doers, ['validator', 'extractor', 'parser', 'runner', 'wrapper', 'handler', 'listener', 'compiler', 'visitor', 'processor']);
  });

  test('names spelled across Chinese and English words: JSON 元素 is JsonElement, 读取器 a reader', () => {
    assert.ok(analyzeQuery('JSON 元素的层次结构与树模型', lexicon).spelledNames.includes('jsonelement'));
    assert.ok(analyzeQuery('流式 JSON 读取器与 token 解析', lexicon).spelledNames.includes('jsonreader'));
    assert.ok(analyzeQuery('类型适配器工厂如何注册', lexicon).spelledNames.includes('typeadapterfactory'));
    // A function word stands between words that do not make one name: 元素 and 层次 are apart.
    assert.ok(!analyzeQuery('JSON 元素的层次结构', lexicon).spelledNames.some((key) => key.startsWith('elementhierarch')));
  });

  test('a lone character the glossary does not list counts half: 成 in 转换成 is no city', () => {
    const q = analyzeQuery('返回值转换成 HTTP 响应', lexicon);
    assert.ok(!q.terms.includes('chengdu'), q.terms.join(' '));
    assert.ok(q.terms.includes('convert') && q.terms.includes('response'));
    assert.ok(!/\b(?:succeed|finish)\b/.test(q.embedText), q.embedText);
  });

  test('each Chinese word is one concept, found by its characters or by its English; a name or a long query has none', () => {
    const q = analyzeQuery('修复合并单元格的样式 bug', lexicon);
    const of = (term: string) => q.concepts.find((c) => c.includes(term));
    assert.ok(of('合并')?.includes('merge'), JSON.stringify(q.concepts));
    assert.ok(of('单元')?.includes('元格') && of('单元')?.includes('cell'), JSON.stringify(q.concepts));
    assert.ok(of('样式')?.includes('style'), JSON.stringify(q.concepts));
    assert.ok(!q.concepts.some((c) => c.includes('的') || c.includes('并单')), 'no function word, no bigram across two words');
    assert.deepEqual(of('bug'), ['bug']);
    assert.deepEqual(analyzeQuery('parseArgs 在哪里定义', lexicon).concepts, []);
    assert.deepEqual(analyzeQuery(`修复 ${'很长的问题描述 '.repeat(40)}`, lexicon).concepts, []);
  });

  test('the words that frame a task are not read: 修复…的问题 is about what it names, not fixes or problems', () => {
    const q = analyzeQuery('修复消息列表滚动的问题', lexicon);
    for (const word of ['fix', 'problem', 'question', 'issue']) assert.ok(!q.terms.includes(word), `${word} in ${q.terms.join(' ')}`);
    assert.ok(['message', 'list', 'scroll'].every((w) => q.terms.includes(w)), q.terms.join(' '));
    assert.ok(!q.concepts.some((c) => c.includes('修复') || c.includes('问题')), JSON.stringify(q.concepts));
    assert.doesNotMatch(q.embedText, /修复|问题/);
    assert.ok(!analyzeQuery('【功能完善】优化导出相关逻辑', lexicon).terms.some((t) => ['function', 'optimize', 'related', 'perfect'].includes(t)));
    // What a descriptive question asks for, and the verbs that name code (addX, supportsX), are still read.
    const described = analyzeQuery('错误处理函数的实现', lexicon).terms;
    assert.ok(described.includes('handler') && described.includes('implementation'), described.join(' '));
    const add = analyzeQuery('新增支持导出用户', lexicon).terms;
    assert.ok(add.includes('add') && add.includes('support'), add.join(' '));
  });

  test('CJK bigrams: Chinese, Japanese and Korean alike, lone characters stand for themselves', () => {
    assert.deepEqual(cjkTerms('解析参数'), ['解析', '析参', '参数']);
    assert.deepEqual(cjkTerms('設定ファイル'), ['設定', '定フ', 'ファ', 'ァイ', 'イル']);
    assert.deepEqual(cjkTerms('세션 정리'), ['세션', '정리']);
    assert.deepEqual(cjkTerms('a 字 b'), ['字']);
    assert.deepEqual(cjkTerms('no cjk here 🚀'), []);
  });
});

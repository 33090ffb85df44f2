import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Candidate } from '../../src/search/candidates.js';
import { topEntries } from '../../src/search/lexical.js';
import { analyzeQuery } from '../../src/search/query.js';
import { isBarrel } from '../../src/search/rank/signals/barrels.js';
import { DEFAULT_RANKING } from '../../src/search/rank/config.js';
import { RANKING_SIGNALS } from '../../src/search/rank/signals/index.js';
import { definitionStrength } from '../../src/search/rank/signals/definitions.js';
import { conceptCoverage, fileCoverage } from '../../src/search/rank/signals/file-coverage.js';
import { fileSize } from '../../src/search/rank/signals/file-size.js';
import { legacy } from '../../src/search/rank/signals/legacy.js';
import { pathRole, pathRoles } from '../../src/search/rank/signals/path-roles.js';
import { proseAndConfig } from '../../src/search/rank/signals/prose-config.js';
import { PathScorer } from '../../src/search/rank/signals/path-words.js';
import { wordsMatch } from '../../src/text/path-words.js';
import type { Hit } from '../../src/search/rank/hit.js';
import { selectTop } from '../../src/search/rank/select.js';
import { relevance } from '../../src/search/search.js';
import { describePath } from '../../src/search/view.js';

describe('query analysis', () => {
  test('a bare identifier is a name query; a sentence names its code-shaped words', () => {
    assert.equal(analyzeQuery('parseArgs').isName, true);
    assert.deepEqual(analyzeQuery('Sinatra::Base').symbols, ['Base', 'Sinatra::Base']);
    assert.equal(analyzeQuery('how are retries configured').isName, false);
    assert.deepEqual(analyzeQuery('how app.handle dispatches requests').symbols, ['handle', 'app.handle']);
    assert.deepEqual(analyzeQuery('ZodType base class and .refine()').symbols, ['ZodType', 'refine']);
    assert.deepEqual(analyzeQuery('e.g. a helper. Then more').symbols, []);
    // A file or a product is not a member: `Node.js`, `package.json`, `a .env file`; `process.env` and `.refine` are.
    assert.deepEqual(analyzeQuery('run as a Node.js server reading package.json').symbols, []);
    assert.deepEqual(analyzeQuery('load variables from a .env file').symbols, []);
    assert.deepEqual(analyzeQuery('read process.env values').symbols, ['env', 'process.env']);
    assert.deepEqual(analyzeQuery('how .refine adds custom validation').symbols, ['refine']);
  });

  test('asking for tests, docs or old versions is noticed', () => {
    assert.equal(analyzeQuery('test runner for CLI commands').wantsTests, true);
    assert.equal(analyzeQuery('parse command line arguments').wantsTests, false);
    assert.equal(analyzeQuery('v3 compatibility error types').wantsLegacy, true);
  });

  test('a question on how to use the project is told from one on how its code works', () => {
    for (const q of ['How do I install it offline?', 'enable the search plugin', 'Why does the build fail on warnings?', 'keep my virtualenv in the project', '--style option to hide the grid', '怎么把文档发布到 GitHub Pages？'])
      assert.equal(analyzeQuery(q).asksHowTo, true, q);
    for (const q of ['how app.handle dispatches requests through the middleware stack', 'async file I/O operations', 'store creation and dispatch lifecycle', 'where is createStore defined', 'createStore 函数在哪里定义', '路由是怎么注册的', 'what happens when a handler panics', 'Handle CSS attribute selector value ending with `I` flag'])
      assert.equal(analyzeQuery(q).asksHowTo, false, q);
    assert.equal(analyzeQuery('set a base uri for all requests').asksHowToByInstruction, true);
    assert.equal(analyzeQuery('how do I set a base uri').asksHowToByInstruction, false);
  });

  test('an instruction that asks for a change to the code is told from one on using the project', () => {
    for (const q of ['Add --debug option to flask run', 'remove the deprecated --legacy flag', 'avoid copying the buffer in --fast mode', 'feat(cli): add --json to list', 'Fix --color=never being ignored'])
      assert.equal(analyzeQuery(q).asksForChange, true, q);
    for (const q of ['Install packages offline from a folder of downloaded archives', 'Set the project name with -p or an environment variable', '--style option to hide line numbers', 'how do I add a plugin', 'add a plugin'])
      assert.equal(analyzeQuery(q).asksForChange, q === 'add a plugin', q);
  });

  test('translations, changelogs, libraries copied into the web root and kept copies are told by their path', () => {
    for (const p of ['frontend/src/lang/modules/zh.ts', 'core/core-frontend/src/locales/zh-CN.ts', 'src/i18n/en.js', 'locale/zh_hans/LC_MESSAGES/django.po', 'src/main/resources/i18n/messages_zh_CN.properties', 'zh-CN.json'])
      assert.equal(pathRole(p).translation, true, p);
    for (const p of ['hutool-core/src/main/java/cn/hutool/core/lang/Validator.java', 'src/io.go', 'src/id.ts', 'java/lang/String.java', 'src/lang/parser.ts'])
      assert.equal(pathRole(p).translation, false, p);
    for (const p of ['CHANGELOG.md', 'CHANGELOG-3.2.md', 'docs/changelog_2x.md', 'NEWS', 'History.markdown', 'changes/1234.bugfix.rst', 'docs/release/1.1.md', 'version_logs_md/V3.5.5_2020-04-13.md', 'website/blog/2019-06-06-1.18.0.md'])
      assert.equal(pathRole(p).changelog, true, p);
    for (const p of ['src/history.go', 'scripts/release.py', 'src/views/history.vue', 'releases/notes.go', 'docs/upgrading.md', 'lib/1.2.3.js'])
      assert.equal(pathRole(p).changelog, false, p);
    for (const p of ['admin/src/main/resources/static/plugins/codemirror/lib/codemirror.js', 'public/vendor/jquery.js', 'static/css/app.min.css', 'admin/core/old/Scheduler.java', 'src/kg/temp/songList-new.js', 'src/Foo.java.bak'])
      assert.equal(pathRole(p).secondary, true, p);
    for (const p of ['static/js/app.js', 'src/window-copy.c', 'src/lib/temp.js', 'public/index.html'])
      assert.equal(pathRole(p).secondary, false, p);
  });

  test('a question on how the code works or where it is handled is noticed, a how-to or a noun phrase is not', () => {
    for (const q of ['how does Flask select which error handler to invoke', 'where are routes registered', 'axum 是如何分发请求的', '路由是怎么注册的', 'what happens when a handler panics'])
      assert.equal(analyzeQuery(q).asksHowItWorks, true, q);
    for (const q of ['How do I install it offline?', 'HTTP router and middleware composition', 'Router', '怎么把文档发布到 GitHub Pages？', 'count how many times an option is repeated', 'what happens when I run the build twice'])
      assert.equal(analyzeQuery(q).asksHowItWorks, false, q);
  });

  test('an old version is asked for by its name, not by the name of the current one', () => {
    const factor = (query: string, path: string) => {
      const hit = { candidate: { chunk: {} }, file: { path, display: path, legacy: path.includes('/v3/') } } as unknown as Parameters<ReturnType<typeof legacy.prepare>>[0];
      return legacy.prepare({ q: analyzeQuery(query), cfg: DEFAULT_RANKING } as unknown as Parameters<typeof legacy.prepare>[0])(hit);
    };
    assert.equal(factor('v3 error types and ZodError', 'src/v3/errors.ts'), 1);
    assert.equal(factor('legacy error types', 'src/v3/errors.ts'), 1);
    assert.equal(factor('classic Zod v4 string schema', 'src/v3/types.ts'), DEFAULT_RANKING.legacyPenalty);
    assert.equal(factor('classic Zod v4 string schema', 'src/v4/classic/schemas.ts'), 1);
    assert.equal(factor('string schema', 'src/v3/types.ts'), DEFAULT_RANKING.legacyPenalty);
  });

  test('documents answer how-to questions above code, changelogs do not', () => {
    const factor = (query: string, path: string, language = 'markdown') => {
      const hit = { candidate: { chunk: { language } }, file: { path, display: path } } as unknown as Parameters<ReturnType<typeof proseAndConfig.prepare>>[0];
      return proseAndConfig.prepare({ q: analyzeQuery(query), cfg: DEFAULT_RANKING } as unknown as Parameters<typeof proseAndConfig.prepare>[0])(hit);
    };
    assert.equal(factor('how do I configure the theme', 'docs/config.md'), DEFAULT_RANKING.howToProse);
    assert.equal(factor('how do I configure the theme', 'CHANGELOG.md'), DEFAULT_RANKING.prosePenalty);
    assert.equal(factor('theme configuration loading', 'docs/config.md'), DEFAULT_RANKING.prosePenalty);
    assert.equal(factor('how do I configure the theme', 'src/theme.ts', 'typescript'), 1);
    // An instruction is how code questions are phrased too: prose inside a source folder is not lifted for it.
    assert.equal(factor('declare a named option with a value', 'Sources/Parser/Documentation.docc/Options.md'), DEFAULT_RANKING.sourceDocsInstructionProse);
    assert.equal(factor('declare a named option with a value', 'docs/options.md'), DEFAULT_RANKING.instructionProse);
    assert.equal(factor('how do I declare a named option', 'src/docs/options.md'), DEFAULT_RANKING.howToProse);
    // An instruction that asks for a change to the code lifts no document.
    assert.equal(factor('add a timeout to every request', 'docs/options.md'), DEFAULT_RANKING.changeRequestProse);
    assert.notEqual(DEFAULT_RANKING.changeRequestProse, DEFAULT_RANKING.instructionProse);
  });

  test('a change to the code is told however it is phrased: a verb that changes code, a commit type, Chinese', () => {
    for (const q of ['fix: account for caret notation width in text wrapping', 'feat(cli): list as JSON', 'refactor!: one parser for both dialects', 'Fix --color=never being ignored', 'add eqSql method', '修复 kg 歌单打开失败的问题', 'fix: 修复节点拖拽时文本跟随移动', '新增 freemarker 集成插件'])
      assert.equal(analyzeQuery(q).describesChange, true, q);
    for (const q of ['HTTParty::Parser', 'parse the response body as JSON', 'how does the router dispatch requests', 'docs: explain the config file', 'Note: the cache is cleared on exit', '路由是怎么注册的', 'parseArgs'])
      assert.equal(analyzeQuery(q).describesChange, false, q);
  });

  test('for a change to the code, a larger file ranks higher; for a question on what code does, size is no evidence', () => {
    const visible = { meanFileLength: 100, fileLength: new Map([['big', 10_000], ['mean', 100], ['small', 1]]) };
    const factor = (query: string, blob: string) => {
      const hit = { candidate: { chunk: {} }, file: { path: `${blob}.ts`, display: `${blob}.ts`, blob } } as unknown as Parameters<ReturnType<typeof fileSize.prepare>>[0];
      return fileSize.prepare({ q: analyzeQuery(query), cfg: DEFAULT_RANKING, candidates: { visible } } as unknown as Parameters<typeof fileSize.prepare>[0])(hit);
    };
    const change = 'fix: wrap lines at the width of caret notation';
    assert.ok(factor(change, 'big') > factor(change, 'mean') && factor(change, 'mean') > factor(change, 'small'));
    assert.equal(factor(change, 'mean'), 1);
    assert.equal(factor(change, 'big'), 100 ** DEFAULT_RANKING.fileSizeExponent);
    assert.equal(factor(change, 'unknown'), 1, 'a file the visible set does not measure keeps its score');
    for (const blob of ['big', 'small']) assert.equal(factor('wrap lines at the width of caret notation', blob), 1);
  });

  test('a file holding more of the query\'s concepts, in either spelling, ranks higher; rarer concepts count more', () => {
    // Chunks 0-1 in blob a, 2 in b, 3 in c, 4 in d; the word 'list' is in every file, so it counts least.
    const blobs = ['a', 'a', 'b', 'c', 'd'];
    const words: Record<string, number[]> = { 批注: [0], comment: [2], read: [1, 3], list: [0, 2, 3, 4] };
    const resident = { info: blobs.map((blob) => ({ blob })), postings: { get: (w: string) => (words[w] ? { docs: words[w], tfs: words[w].map(() => 1) } : undefined) } };
    const visible = { mask: Uint8Array.from([1, 1, 1, 1, 1]), fileLength: new Map(['a', 'b', 'c', 'd'].map((b) => [b, 10])) };
    const concepts = [['批注', 'comment', 'annotation'], ['读取', 'read'], ['列表', 'list']];
    const coverage = conceptCoverage(resident as never, visible as never, concepts);
    assert.equal(coverage.get('a'), 1, 'every concept, 批注 in Chinese');
    assert.ok(coverage.get('b')! > coverage.get('c')! - 1e-9 && coverage.get('b') === coverage.get('c'), 'comment in English counts as 批注 does, as read does');
    assert.ok(coverage.get('c')! > coverage.get('d')!, 'the common word is worth least');
    const factor = (query: string) => {
      const hit = { candidate: { chunk: {} }, file: { path: 'a.ts', display: 'a.ts', blob: 'd' } } as unknown as Parameters<ReturnType<typeof fileCoverage.prepare>>[0];
      return fileCoverage.prepare({ q: { ...analyzeQuery(query), concepts }, cfg: DEFAULT_RANKING, candidates: { resident, visible } } as unknown as Parameters<typeof fileCoverage.prepare>[0])(hit);
    };
    assert.ok(factor('读取列表批注') < 1 && factor('读取列表批注') > 1 / (1 + DEFAULT_RANKING.fileCoverageWeight));
    assert.equal(factor('read the comments of a list'), 1, 'an English question is not measured so (public benchmark −0.011)');
  });

  test('translation tables and changelogs count less unless the question asks for them', () => {
    const factor = (query: string, path: string) => {
      const hit = { candidate: { chunk: { language: 'typescript' } }, file: { path, display: path } } as unknown as Parameters<ReturnType<typeof pathRoles.prepare>>[0];
      return pathRoles.prepare({ q: analyzeQuery(query), cfg: DEFAULT_RANKING } as unknown as Parameters<typeof pathRoles.prepare>[0])(hit);
    };
    assert.equal(factor('container list shown by default', 'src/lang/modules/zh.ts'), DEFAULT_RANKING.translationPenalty);
    assert.equal(factor('container list i18n strings', 'src/lang/modules/zh.ts'), 1);
    assert.equal(factor('container list shown by default', 'CHANGELOG.md'), DEFAULT_RANKING.changelogPenalty);
    assert.equal(factor('changelog of the container list', 'CHANGELOG.md'), 1);
    assert.equal(factor('container list shown by default', 'src/kg/temp/list.js'), DEFAULT_RANKING.secondaryPenalty);
    assert.ok(DEFAULT_RANKING.translationPenalty < 1 && DEFAULT_RANKING.changelogPenalty < 1);
  });
});

describe('definitions', () => {
  test('the breadcrumb names the definition; members and impls are weaker', () => {
    assert.equal(definitionStrength('class Router', 'class Router {}', 'Router'), 'defines');
    assert.equal(definitionStrength('interface $ZodType', 'export interface $ZodType {}', 'ZodType'), 'defines');
    assert.equal(definitionStrength('class Router > method handle', 'handle() {}', 'Router'), 'member');
    assert.equal(definitionStrength('class Engine > constructor Engine', 'Engine() {}', 'Engine'), 'member', 'a constructor is a member of its class');
    assert.equal(definitionStrength('struct Command > field Args', 'Args PositionalArgs', 'Args'), 'member', 'a field defines its name, weakly');
    assert.equal(definitionStrength('interface Store > signature Evict', 'Evict(now int) int', 'Evict'), 'member', 'so does a signature');
    assert.equal(definitionStrength('class Engine > method retryWithBackoff', 'void retryWithBackoff() {}', 'retryWithBackoff'), 'defines');
    assert.equal(definitionStrength('impl<S> Router<S> > fn route', 'fn route() {}', 'Router'), 'member');
    assert.equal(definitionStrength('impl Serializer for Foo', 'impl Serializer for Foo {}', 'Serializer'), 'none');
    assert.equal(definitionStrength('impl Serializer for Foo', 'impl Serializer for Foo {}', 'Foo'), 'member');
    // A name asked in lower case is the thing in any case; one asked with capitals is that spelling only.
    assert.equal(definitionStrength('function View', 'function View(name, options) {}', 'view'), 'defines');
    assert.equal(definitionStrength('function view', 'function view() {}', 'View'), 'none');
    assert.equal(definitionStrength('', 'pub struct Router<S> {\n}', 'Router'), 'text');
    assert.equal(definitionStrength('', 'app.response = Object.create(res)', 'response'), 'none');
    assert.equal(definitionStrength('', 'pub use axum_core::extract::{FromRequest, FromRequestParts};', 'FromRequest'), 'reexport');
  });

  test('barrels re-export without documenting', () => {
    assert.equal(isBarrel("export * from './a.js';\nexport * from './b.js';"), true);
    // Each way a line re-exports everything, by the letter it starts with (isBarrel tests WILDCARD_LINE only there).
    for (const text of ["import x from './x';\nexport default x;", 'pub use self::a::*;\npub(crate) use self::b::*;', 'use self::a::*;\nuse self::b::*;', 'from .a import *\nfrom .b import *', "module.exports = require('./lib');"]) {
      assert.equal(isBarrel(text), true, text);
    }
    assert.equal(isBarrel("export { Reporter } from '../node/reporters.js';"), false);
    assert.equal(isBarrel('//! Async file I/O.\n//! Use File to open files.\n//! More docs.\npub use self::file::File;'), false);
    assert.equal(isBarrel('export function f() {\n  return 1;\n}'), false);
  });
});

describe('paths', () => {
  test('roles: tests, examples, vendored code, declaration stubs, hidden tool folders', () => {
    assert.equal(pathRole('pkg/cache/lru_test.go').test, true);
    assert.equal(pathRole('src/__tests__/a.ts').test, true);
    assert.equal(pathRole('src/runtime/runners/test.ts').test, false);
    assert.equal(pathRole('docs_src/app/main.py').example, true);
    assert.equal(pathRole('third_party/x/y.c').secondary, true);
    assert.equal(pathRole('types/index.d.ts').declaration, true);
    assert.equal(pathRole('.github/workflows/ci.yml').hidden, true);
    assert.equal(pathRole('pkg/.agents/skills/pkg/SKILL.md').hidden, true);
    assert.equal(pathRole('src/.eslintrc.js').hidden, false);
    assert.equal(pathRole('src/app.ts').hidden, false);
  });

  test('path words meet across inflections and common abbreviations', () => {
    for (const [a, b] of [['routing', 'router'], ['implementations', 'impls'], ['context', 'ctx'], ['utility', 'utils'], ['dependencies', 'dependency']]) assert.ok(wordsMatch(a, b), `${a} ~ ${b}`);
    for (const [a, b] of [['form', 'format'], ['json', 'jsonl']]) assert.ok(!wordsMatch(a, b), `${a} !~ ${b}`);
  });

  test('a module root stands for its directory', () => {
    const scorer = new PathScorer(['middleware'], new Set(['middleware']), { dirWeight: 0.5, aboveWeight: 0.3 });
    assert.equal(scorer.score(describePath('src/middleware/mod.rs')), 1);
    assert.equal(scorer.score(describePath('src/middleware/from_fn.rs')), 0.5);
    assert.equal(scorer.score(describePath('src/routing/mod.rs')), 0);
  });
});

describe('selection', () => {
  const hit = (path: string, score: number): Hit => ({
    candidate: { chunk: { startLine: score * 10 } } as unknown as Candidate,
    file: describePath(path),
    base: score,
    score,
    parts: { definition: 0, path: 0, file: 0, hub: 0, penalty: 1, coherence: 0 },
  });

  test('one file cannot take every slot', () => {
    const hits = [hit('a.ts', 1), hit('a.ts', 0.99), hit('a.ts', 0.98), hit('b.ts', 0.6), hit('c.ts', 0.5)];
    assert.deepEqual(selectTop(hits, 3, DEFAULT_RANKING).map((h) => h.file.path), ['a.ts', 'b.ts', 'c.ts']);
    assert.deepEqual(selectTop(hits, 3, { ...DEFAULT_RANKING, saturation: false }).map((h) => h.file.path), ['a.ts', 'a.ts', 'a.ts']);
  });

  test('top entries are the best n, best first', () => {
    const entries: [number, number][] = [[1, 0.2], [2, 0.9], [3, 0.5], [4, 0.7]];
    assert.deepEqual(topEntries(entries, 2), [[2, 0.9], [4, 0.7]]);
  });

  test('shown scores are 0..1 and keep the order', () => {
    assert.equal(relevance(0), 0);
    assert.ok(relevance(0.5) < relevance(1) && relevance(6) < 1);
  });
});

describe('settings', () => {
  test("each signal declares its own switch and weights, and the defaults gather them all", () => {
    const declared = new Set<string>();
    for (const signal of RANKING_SIGNALS) {
      assert.equal(typeof (signal.defaults as Record<string, unknown>)[signal.name], 'boolean', `${signal.name} is a switch of its own settings`);
      for (const [key, value] of Object.entries(signal.defaults)) {
        assert.ok(!declared.has(key), `${key} is declared once`);
        declared.add(key);
        assert.equal(DEFAULT_RANKING[key as keyof typeof DEFAULT_RANKING], value);
      }
    }
    assert.ok(Object.isFrozen(DEFAULT_RANKING));
    assert.equal(DEFAULT_RANKING.definitionBoost, 3);
  });
});

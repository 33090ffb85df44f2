import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { SearchResult } from '../../src/search/search.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { PROJECT_ROOT, runCli, runJson, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** The fixture repository plus fixtures/sample-cjk (Chinese, Japanese and Korean code and documents). */
function makeCjkRepo(): string {
  const dir = path.join(tempDir('cjk'), 'sample');
  execFileSync('bash', [path.join(PROJECT_ROOT, 'fixtures', 'make-cjk-repo.sh'), dir], { stdio: 'pipe' });
  return dir;
}

// Real git, the real default model and LanceDB on disk: these judge retrieval.
describe('Chinese, Japanese and Korean search', () => {
  let repo: string;
  let index: CodeIndex;
  const search = (query: string, k = 5): Promise<SearchResult[]> => index.search(query, { k, update: false, committedOnly: true });
  const paths = (results: SearchResult[]) => results.map((r) => `${r.path}:${r.startLine}`).join(', ');

  before(async () => {
    repo = makeCjkRepo();
    index = await CodeIndex.open(repo);
    await index.index();
  });
  after(() => index.close());

  test('a function documented only by a Chinese comment is first for that phrase and for a paraphrase', async () => {
    for (const query of ['指数退避算法重试失败的网络请求', '网络请求出错以后怎样自动重新尝试']) {
      const [top] = await search(query);
      assert.equal(top.path, 'src/net/remote.ts', `${query} → ${paths(await search(query))}`);
    }
    for (const query of ['用信号量对并发操作进行限流', '限制同时运行的任务数量']) {
      const [top] = await search(query);
      assert.equal(top.path, 'src/limit/gate.ts', `${query} → ${paths(await search(query))}`);
    }
  });

  test('code documented only in Chinese is found by an English question', async () => {
    const results = await search('retry failed network requests with exponential backoff', 3);
    assert.ok(results.some((r) => r.path === 'src/net/remote.ts'), paths(results));
  });

  test('a function documented only in English is in the top 3 for a purely Chinese query', async () => {
    const results = await search('解析命令行参数', 3);
    assert.ok(results.some((r) => r.path === 'src/cli/args.ts' && /function parseArgs/.test(r.text)), paths(results));
  });

  test('an identifier inside a Chinese question ranks its definition first', async () => {
    for (const query of ['parseArgs 在哪里定义', 'parseArgs函数的实现', 'TaskGate 类']) {
      const [top] = await search(query);
      const name = query.match(/[A-Za-z]+/)![0];
      assert.match(top.text, new RegExp(`(function|class) ${name}\\b`), `${query} → ${paths(await search(query))}`);
    }
  });

  test('a section of a Chinese Markdown document answers a Chinese question', async () => {
    // Prose ranks below code unless asked for (the database code is about connection pools too): top 3, not first.
    // Documents are chunked by heading: the answer is the section, under its breadcrumb.
    const pool = /^## 数据库连接池\n\n连接池的大小由环境变量 DB_POOL_SIZE 控制/;
    const logs = /^## 日志轮转\n\n日志文件每天午夜轮转一次/;
    for (const [query, section, crumb] of [['数据库连接池的大小怎么配置', pool, '# 运维手册 > ## 数据库连接池'], ['连接池空闲多久会被关闭', pool, '# 运维手册 > ## 数据库连接池'], ['日志文件保留几天', logs, '# 运维手册 > ## 日志轮转']] as const) {
      const results = await search(query, 3);
      const doc = results.find((r) => r.path === 'docs/运维手册.md');
      assert.ok(doc, `${query} → ${paths(results)}`);
      assert.match(doc.text, section, query);
      assert.equal(doc.symbol, crumb);
    }
  });

  test('Japanese and Korean text is indexed and found by its own phrases', async () => {
    assert.equal((await search('設定ファイルを読み込む'))[0].path, 'src/config/loader.ts');
    assert.equal((await search('만료된 사용자 세션을 정리'))[0].path, 'src/session/sweep.ts');
  });

  test('mixed scripts, emoji and full-width punctuation neither crash nor get lost', async () => {
    assert.equal((await search('🚀 启动横幅'))[0].path, 'src/ui/banner.ts');
    for (const query of ['调用parseArgs解析', '重跑gen-itgc后', '😀😀😀', '（）！？、。', 'ｐａｒｓｅＡｒｇｓ', 'ㄅㄆㄇ', '\u200b零宽\u200d字符']) {
      const results = await search(query);
      assert.ok(Array.isArray(results), query);
    }
  });

  test('results, XML and markdown carry Chinese text unharmed', async () => {
    const [top] = await runJson<SearchResult[]>(['search', '每次失败后等待时间翻倍', '-k', '1', '--no-update'], repo);
    assert.match(top.text, /使用指数退避算法重试失败的网络请求：每次失败后等待时间翻倍/);
    for (const format of ['xml', 'markdown']) {
      const r = await runCli(['search', '每次失败后等待时间翻倍', '-k', '1', '--no-update', '--format', format], repo);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.includes('使用指数退避算法重试失败的网络请求：每次失败后等待时间翻倍，最多重试五次。'), r.stdout);
    }
    const text = await runCli(['search', '运维手册 日志轮转', '-k', '1', '--no-update'], repo);
    assert.ok(text.stdout.includes('docs/运维手册.md'), text.stdout);
  });

  test('an index of the previous default model is re-embedded by itself, with one notice', async () => {
    const other = makeCjkRepo();
    await runJson(['index'], other);
    const metaFile = path.join(other, '.ocrag', 'store.json');
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    fs.writeFileSync(metaFile, JSON.stringify({ ...meta, modelId: 'ocrag/use-static-v1' }));
    const doctor = await runCli(['doctor'], other);
    assert.match(doctor.stdout, /built with the previous default model ocrag\/use-static-v1[\s\S]*re-embeds everything once/);
    const r = await runCli(['search', '解析命令行参数', '--json'], other);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stderr.trim().split('\n'), ['ocrag: the default model changed (ocrag/use-static-v1 → ocrag/use-static-v2: it reads Chinese now); re-indexing everything once']);
    assert.ok((JSON.parse(r.stdout) as SearchResult[]).some((x) => x.path === 'src/cli/args.ts'));
    assert.equal(JSON.parse(fs.readFileSync(metaFile, 'utf8')).modelId, 'ocrag/use-static-v2');
  });
});

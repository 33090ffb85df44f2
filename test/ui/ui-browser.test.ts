// The index panel in a real headless browser (Debian's chromium, driven by playwright-core) against the real
// `ocrag ui` on a generated repository, the real model and LanceDB: the page loads, an index run's progress bar
// moves and Cancel stops it, a search shows highlighted results. Screenshots go to a temp folder, printed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openPage, skipWithoutChromium } from './browser.js';
import { tempDir, twoLanguageRepo } from '../helpers.js';
import { bigRepo, startUi, type RunningUi } from './ui-helpers.js';

/** 1,200 files of 4 functions: an index run of several seconds here, reported in steps the panel can show. */
const FILES = 1200;

describe('ocrag ui in chromium', { skip: skipWithoutChromium }, () => {
  let ui: RunningUi;
  let repo: string;
  let browser: Browser;
  let page: Page;
  let requested: string[];
  /** Console errors (a failed request is one), script errors and failed requests, over every test of the page. */
  let problems: string[];
  const shots = tempDir('ui-shots');
  const shot = async (name: string) => {
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot: ${file}`);
  };

  before(async () => {
    repo = bigRepo(FILES);
    ui = await startUi(repo);
    ({ browser, page, problems, requested } = await openPage({ width: 1200, height: 900 }));
  });
  after(async () => {
    await browser?.close();
    await ui?.stop();
  });

  test('the page loads and shows the repository, its branch and that nothing is indexed yet, without one console error', async () => {
    await page.goto(ui.url);
    await page.waitForFunction(() => document.getElementById('branch')?.textContent === 'main');
    assert.match((await page.textContent('#root')) ?? '', /panel-fixture$/);
    assert.match((await page.textContent('#badges')) ?? '', /not indexed/);
    assert.equal(await page.textContent('#indexed-at'), 'never');
    assert.equal(await page.textContent('#task'), 'idle');
    await page.waitForSelector('#doctor li[data-status]');
    assert.match((await page.textContent('#doctor')) ?? '', /fix: run "ocrag index"/, 'doctor checks come with their fixes');
    await page.waitForFunction(() => /^nothing indexed for this commit yet/.test(document.getElementById('files-summary')?.textContent ?? ''));
    assert.deepEqual(problems, [], 'no script error, none blocked by the page policy, no failed request (never indexed is a state, not an error)');
    await shot('1-loaded');
  });

  test('Index shows the progress bar moving, and Cancel stops it where it was', async () => {
    await page.click('#index');
    const seen = new Set<number>();
    const deadline = Date.now() + 120_000;
    // Two values strictly between 0 and 100: the bar moved, and the run is not over yet.
    while ([...seen].filter((v) => v > 0 && v < 100).length < 2) {
      assert.ok(Date.now() < deadline, `the bar never moved twice: saw ${[...seen].join(', ')}`);
      const { value, state } = await page.$eval('#progress', (p) => ({ value: (p as HTMLProgressElement).value, state: p.dataset.state }));
      assert.ok(state === 'running' || state === 'idle', `the run ended (${state}) before it could be cancelled: saw ${[...seen].join(', ')}`);
      seen.add(value);
      await page.waitForTimeout(100);
    }
    await shot('2-progress');
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('progress')?.dataset.state === 'cancelled', undefined, { timeout: 60_000 });
    const stopped = await page.$eval('#progress', (p) => (p as HTMLProgressElement).value);
    assert.ok(stopped > 0 && stopped < 100, `stopped part way: ${stopped}%`);
    assert.match((await page.textContent('#task')) ?? '', /incremental run cancelled/);
    await page.waitForTimeout(1500);
    assert.equal(await page.$eval('#progress', (p) => (p as HTMLProgressElement).value), stopped, 'nothing moves after Cancel');
    assert.equal(await page.isDisabled('#index'), false, 'Index can be pressed again');
    assert.ok(requested.includes('/api/events'), 'the page follows the task as server-sent events');
    assert.ok(!requested.includes('/api/task'), 'the bar moved by events, without falling back to polling');
    await shot('3-cancelled');
  });

  test('Index again finishes the run; the header says up to date and the sources list every file', async () => {
    await page.click('#index');
    await page.waitForFunction(() => document.getElementById('progress')?.dataset.state === 'done', undefined, { timeout: 180_000 });
    assert.equal(await page.$eval('#progress', (p) => (p as HTMLProgressElement).value), 100);
    await page.waitForFunction(() => /up to date with HEAD/.test(document.getElementById('badges')?.textContent ?? ''));
    await page.waitForFunction((n) => document.getElementById('files-summary')?.textContent?.startsWith(`${n} files`), FILES + 2);
  });

  test('a search shows path:lines, symbol, score and the code with the query words marked', async () => {
    await page.fill('#query', 'retry with exponential backoff');
    await page.click('#search-form button');
    await page.waitForSelector('#results li');
    const first = await page.$eval('#results li', (li) => ({
      location: li.querySelector('.location')?.textContent,
      symbol: li.querySelector('.symbol')?.textContent,
      score: li.querySelector('.score')?.textContent,
      marks: [...li.querySelectorAll('mark')].map((m) => m.textContent),
    }));
    assert.equal(first.location, 'src/retry.ts:1-12');
    assert.match(first.symbol ?? '', /retryWithBackoff/);
    assert.match(first.score ?? '', /^score \d\.\d{3}$/);
    assert.ok(first.marks.some((m) => m?.toLowerCase() === 'backoff'), `marks: ${first.marks.join(', ')}`);
    assert.ok(first.marks.some((m) => m?.toLowerCase() === 'retry'), `marks: ${first.marks.join(', ')}`);
    assert.ok(!first.marks.some((m) => m?.toLowerCase() === 'with'), `a stop word is not marked: ${first.marks.join(', ')}`);
    await shot('4-search');
  });

  test('Chinese is shown unharmed and markup in a file is shown as text, never run', async () => {
    await page.fill('#query', '重试策略');
    await page.click('#search-form button');
    await page.waitForFunction(() => [...document.querySelectorAll('#results .location')].some((l) => l.textContent?.startsWith('docs.md:')));
    const hit = await page.$eval('#results', (ol) => {
      const li = [...ol.querySelectorAll('li')].find((l) => l.querySelector('.location')?.textContent?.startsWith('docs.md:'))!;
      return { code: li.querySelector('pre')?.textContent ?? '', marks: [...li.querySelectorAll('mark')].map((m) => m.textContent), scripts: li.querySelectorAll('script').length };
    });
    assert.match(hit.code, /# 重试策略/);
    assert.match(hit.code, /网络请求失败时按指数退避重试，最多五次。<script>alert\(1\)<\/script>/);
    assert.equal(hit.scripts, 0);
    assert.ok(hit.marks.includes('重试策略'), `marks: ${hit.marks.join(', ')}`);
    await shot('5-chinese');
  });

  test('indexing, cancelling and searching logged not one console error', () => {
    assert.deepEqual(problems, []);
  });

  test('an uncommitted edit shows the work tree dirty', async () => {
    fs.appendFileSync(path.join(repo, 'src', 'retry.ts'), '// edited\n');
    await page.reload();
    await page.waitForFunction(() => /dirty: 1 uncommitted change\b/.test(document.getElementById('badges')?.textContent ?? ''));
    assert.match((await page.textContent('#head')) ?? '', /^[0-9a-f]{8}$/);
  });

  test('a run that selects no file says so under the bar', async () => {
    const empty = await startUi(twoLanguageRepo(), ['--include', 'nothing/**']);
    const other = await browser.newPage();
    try {
      await other.goto(empty.url);
      await other.waitForFunction(() => document.getElementById('branch')?.textContent === 'main');
      await other.click('#index');
      await other.waitForFunction(() => document.getElementById('progress')?.dataset.state === 'done', undefined, { timeout: 60_000 });
      await other.waitForSelector('#task-warning:not([hidden])');
      assert.match((await other.textContent('#task-warning')) ?? '', /^0 files selected for indexing with include nothing\/\*\*/);
      await other.screenshot({ path: path.join(shots, '6-no-files.png'), fullPage: true });
      console.log(`screenshot: ${path.join(shots, '6-no-files.png')}`);
    } finally {
      await other.close();
      await empty.stop();
    }
  });
});

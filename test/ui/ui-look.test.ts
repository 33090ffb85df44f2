// How the index panel looks and behaves for a person, in a real headless browser (Debian's chromium, driven by
// playwright-core) against the real `ocrag ui` on an indexed repository with an added source, the real model and
// LanceDB: no horizontal overflow at phone, laptop and wide-screen widths (a 400-character line and a very long
// path in the results), dark mode, results that open in the editor, syntax highlighting, whole-word marks, the
// search filters, the skipped files, "last indexed", a confirmation before Rebuild, switching to a plain folder
// indexed on the same machine and back, and not one console error.
// Screenshots (light and dark at each width) go to a temp folder, printed; OCRAG_KEEP_TEMP=1 keeps them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openPage, skipWithoutChromium } from './browser.js';
import { runCli, tempDir } from '../helpers.js';
import { lookRepo, startUi, WIDE_LINE, type RunningUi } from './ui-helpers.js';
import { seamEnv } from '../support/seams.js';

const WIDTHS = [390, 1280, 1920];

/** The address VS Code opens a file at, as the panel should make it: each part of the absolute path URL-encoded. */
const vscodeUrl = (absolute: string, line: number) => `vscode://file${absolute.split('/').map(encodeURIComponent).join('/')}:${line}`;

interface Shown {
  location: string;
  href: string | null;
  language: string;
  code: string;
  marks: string[];
  tokens: Record<string, string[]>;
}

describe('the panel as a person sees it, in chromium', { skip: skipWithoutChromium }, () => {
  let ui: RunningUi;
  let repo: string;
  let notes: string;
  let handbook: string;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let requested: string[];
  const shots = tempDir('ui-look-shots');

  /** The results shown now, each with its link, language, code, marked words and highlighted pieces by class. */
  const results = (): Promise<Shown[]> =>
    page.$$eval('#results li', (items) =>
      items.map((li) => {
        const tokens: Record<string, string[]> = {};
        for (const span of li.querySelectorAll('pre span[class^="tok-"]')) (tokens[span.className] ??= []).push(span.textContent ?? '');
        return {
          location: li.querySelector('.location')?.textContent ?? '',
          href: li.querySelector('a.location')?.getAttribute('href') ?? null,
          language: li.querySelector('pre')?.dataset.language ?? '',
          code: li.querySelector('pre')?.textContent ?? '',
          marks: [...li.querySelectorAll('mark')].map((m) => m.textContent ?? ''),
          tokens,
        };
      }),
    );
  const search = async (query: string, filters: Record<string, string> = {}) => {
    for (const name of ['path', 'language']) await page.fill(`#${name}`, filters[name] ?? '');
    await page.fill('#k', filters.k ?? '10');
    await page.selectOption('#source', filters.source ?? '');
    await page.fill('#query', query);
    await page.click('#search-form button');
    await page.waitForFunction(() => /^\d+ results?\b/.test(document.getElementById('search-info')?.textContent ?? ''));
    return results();
  };

  before(async () => {
    ({ repo, notes, handbook } = lookRepo());
    // This machine's list of indexed roots, this file's own: the repository and the handbook, recorded by their runs.
    const env = seamEnv({ knownRootsDir: path.join(tempDir('ui-look-roots'), 'roots') }) as Record<string, string>;
    const runs: [string[], string][] = [[['index'], repo], [['add', notes, '--name', 'notes'], repo], [['index'], handbook]];
    for (const [args, cwd] of runs) {
      const r = await runCli(args, cwd, env);
      assert.equal(r.code, 0, r.stderr);
    }
    repo = fs.realpathSync(repo);
    notes = fs.realpathSync(notes);
    handbook = fs.realpathSync(handbook);
    ui = await startUi(repo, [], env);
    ({ browser, page, problems, requested } = await openPage({ width: 1280, height: 900 }, { failedRequests: true }));
  });
  after(async () => {
    await browser?.close();
    await ui?.stop();
  });

  test('the header says when the index was made, the task line says idle, and the skipped file is listed with its reason', async () => {
    await page.goto(ui.url);
    await page.waitForFunction(() => /up to date with HEAD/.test(document.getElementById('badges')?.textContent ?? ''));
    await page.waitForSelector('#doctor li[data-status]');
    const indexedAt = (await page.textContent('#indexed-at')) ?? '';
    assert.match(indexedAt, /\(just now\)$/, `last indexed: ${indexedAt}`);
    assert.match((await page.textContent('#task')) ?? '', /^idle · last indexed just now$/);
    await page.waitForSelector('#skipped tr[data-reason="binary"]');
    assert.deepEqual(await page.$eval('#skipped tr[data-reason="binary"]', (tr) => [...(tr as HTMLTableRowElement).cells].map((c) => c.textContent)), ['binary', '1', 'assets/logo.ts']);
    assert.match((await page.textContent('#skipped-info')) ?? '', /^1 file left out of the index \(binary: 1\)$/);
    assert.equal(await page.isVisible('#skipped'), true);
    // The doctor's rows line up: every check's name and detail start at the same x as the first one's.
    const columns = await page.$$eval('#doctor li[data-status]', (lis) => lis.map((li) => [li.querySelector('.check-name'), li.querySelector('.check-detail')].map((e) => Math.round(e!.getBoundingClientRect().left))));
    assert.ok(columns.length >= 5, `doctor rows: ${columns.length}`);
    for (const c of columns) assert.deepEqual(c, columns[0], `doctor columns: ${JSON.stringify(columns)}`);
  });

  test('a result links to the editor at its file and line; code is highlighted, and query words are marked only as whole words', async () => {
    const shown = await search('resident user id');
    const py = shown.find((r) => r.location.startsWith('src/residents.py:'));
    assert.ok(py, `results: ${shown.map((r) => r.location).join(', ')}`);
    const line = Number(/:(\d+)-/.exec(py.location)![1]);
    assert.equal(py.href, vscodeUrl(path.join(repo, 'src', 'residents.py'), line));
    assert.equal(py.language, 'python');
    assert.ok(py.tokens['tok-k']?.includes('def') && py.tokens['tok-k'].includes('class'), `keywords: ${py.tokens['tok-k']}`);
    assert.ok(py.tokens['tok-c']?.some((c) => c.startsWith('# every resident')), `comments: ${py.tokens['tok-c']}`);
    assert.ok(py.tokens['tok-s']?.some((s) => s.startsWith('"""Every resident')), `strings: ${py.tokens['tok-s']}`);
    assert.ok(py.marks.includes('resident') && py.marks.includes('id') && py.marks.includes('user'), `marks: ${py.marks}`);
    // "id" is marked as a word (an id; user_id; by_id), never inside "resident".
    const inside = await page.$$eval('#results mark', (marks) => marks.filter((m) => m.textContent?.toLowerCase() === 'id' && /\p{L}$/u.test(m.previousSibling?.textContent ?? '')).length);
    assert.equal(inside, 0, 'an "id" marked inside a word');
    assert.deepEqual(
      await page.evaluate(() => Highlight.marker('id')('resident userId user_id ID idx').filter(([, hit]) => hit).map(([text]) => text)),
      ['Id', 'id', 'ID'],
    );
    const odd = (await search('oddly named helper')).find((r) => r.location.startsWith('src/odd name#1.ts:'));
    assert.equal(odd?.href, vscodeUrl(path.join(repo, 'src', 'odd name#1.ts'), 1), 'a space and a # in a name are URL-encoded');
  });

  test('the filters narrow a search: k, a path glob, a language, a source (whose link points into its folder)', async () => {
    assert.equal((await search('feature flags', { k: '2' })).length, 2);
    const inSrc = await search('smtp relay pool', { path: 'src/platform-services/**' });
    assert.ok(inSrc.length > 0 && inSrc.every((r) => r.location.startsWith('src/platform-services/')), inSrc.map((r) => r.location).join(', '));
    assert.match((await page.textContent('#search-info')) ?? '', /\(path src\/platform-services\/\*\*\)/);
    const python = await search('resident registry', { language: 'python' });
    assert.ok(python.length > 0 && python.every((r) => r.language === 'python'), python.map((r) => r.language).join(', '));
    await page.waitForFunction(() => [...(document.getElementById('source') as HTMLSelectElement).options].some((o) => o.value === 'notes'));
    const fromNotes = await search('pager incident on-call', { source: 'notes' });
    assert.ok(fromNotes.length > 0 && fromNotes.every((r) => r.location.startsWith('notes:')), fromNotes.map((r) => r.location).join(', '));
    assert.equal(fromNotes[0].href, vscodeUrl(path.join(notes, 'on-call.md'), 1));
  });

  test('an off-topic question says "no good match" and offers the closest chunks anyway', async () => {
    await page.fill('#query', 'how to knit a wool sweater for winter');
    await page.click('#search-form button');
    await page.waitForFunction(() => /^no good match for /.test(document.getElementById('search-info')?.textContent ?? ''));
    assert.equal((await results()).length, 0);
    await page.click('#search-info button');
    await page.waitForFunction(() => /^\d+ results?\b/.test(document.getElementById('search-info')?.textContent ?? ''));
    assert.ok((await results()).length > 0);
  });

  test('the switcher offers the repository and the plain folder indexed here; the folder shows its own status, search, index run and skipped files, without git words', async () => {
    const options = await page.$$eval('#roots option', (os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    assert.deepEqual(options, [['', `look-fixture · ${repo}`], [handbook, `escalation handbook (folder) · ${handbook}`]]);
    assert.equal(await page.isVisible('#switcher'), true);
    const inRepo = await search('who is paged when nobody acknowledges');
    assert.ok(inRepo.length > 0 && inRepo.every((r) => !r.location.startsWith('escalation')), inRepo.map((r) => r.location).join(', '));
    // The query typed is searched again in the folder switched to.
    await page.selectOption('#roots', handbook);
    await page.waitForFunction(() => document.getElementById('root-label')?.textContent === 'folder');
    await page.waitForFunction(() => /^\d+ results?\b/.test(document.getElementById('search-info')?.textContent ?? ''));
    assert.equal((await results())[0].location, 'escalation.md:1-3');
    assert.equal(await page.textContent('#root'), handbook);
    assert.equal(new URL(page.url()).searchParams.get('root'), handbook, 'the address keeps the root shown');
    await page.waitForFunction(() => /searched as it is now/.test(document.getElementById('badges')?.textContent ?? ''));
    assert.match((await page.textContent('#indexed-at')) ?? '', /\((just now|\d+ min ago)\)$/, 'a folder\'s last index run');
    assert.doesNotMatch(await page.innerText('header'), /branch|HEAD|commit|dirty|clean work tree/);
    await page.waitForSelector('#skipped tr[data-reason="binary"]');
    assert.deepEqual(await page.$eval('#skipped tr[data-reason="binary"]', (tr) => [...(tr as HTMLTableRowElement).cells].map((c) => c.textContent)), ['binary', '1', 'diagram.bin']);
    await page.waitForSelector('#doctor li[data-status]');
    assert.match((await page.textContent('#doctor')) ?? '', /a plain folder \(no git\), indexed as a knowledge base/);
    assert.equal((await search('备用值班工程师'))[0]?.location, '升级流程.md:1-3');
    // An index run of the folder, followed in the page as any run is; its end has the page ask for the rest again.
    const askedAgain = ['/api/state', '/api/sources', '/api/doctor'].map((p) => page.waitForEvent('requestfinished', { predicate: (r) => new URL(r.url()).pathname === p, timeout: 60_000 }));
    // The bar may still show an earlier run as done when the click returns (a loaded machine saw it): wait for the
    // line of the run this click started, named by the id its request answered with.
    const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/index' && r.request().method() === 'POST');
    await page.click('#index');
    const { id } = (await (await started).json()) as { id: string };
    await page.waitForFunction((task) => document.getElementById('progress')?.dataset.state === 'done' && (document.getElementById('task')?.textContent ?? '').endsWith(`task ${task}`), id, { timeout: 60_000 });
    assert.match((await page.textContent('#task')) ?? '', /^incremental run done at /);
    await Promise.all(askedAgain);
    // A reload stays on the folder; switching back shows the repository, its branch, and its own answers.
    await page.reload();
    await page.waitForFunction(() => document.getElementById('root-label')?.textContent === 'folder');
    assert.equal(await page.$eval('#roots', (s) => (s as HTMLSelectElement).value), handbook);
    await page.selectOption('#roots', '');
    await page.waitForFunction(() => document.getElementById('branch')?.textContent === 'main');
    assert.equal(await page.textContent('#root'), repo);
    assert.equal(await page.isVisible('#branch'), true);
    assert.equal(new URL(page.url()).searchParams.get('root'), null);
    const back = await search('retry with exponential backoff');
    assert.ok(back[0]?.location.startsWith('src/retry.ts:'), back.map((r) => r.location).join(', '));
  });

  test('at 390, 1280 and 1920 px, light and dark, nothing overflows sideways, even with a 400-character line shown', async () => {
    const shown = await search('feature flags checkout smtp relay pool configuration');
    assert.ok(shown.some((r) => r.code.includes(WIDE_LINE)), 'the 400-character line is among the results');
    assert.ok(shown.some((r) => r.location.startsWith('src/platform-services/notification-delivery-pipeline/')), 'the long path is among the results');
    for (const width of WIDTHS) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme });
        const { scrollWidth, clientWidth, background, searchButton } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
          background: getComputedStyle(document.body).backgroundColor,
          searchButton: document.querySelector('#search-form button')!.getBoundingClientRect().right,
        }));
        assert.ok(scrollWidth <= clientWidth, `${width} px ${colorScheme}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`);
        assert.ok(searchButton <= clientWidth, `${width} px ${colorScheme}: the Search button ends at ${searchButton}`);
        const [r, g, b] = background.match(/\d+/g)!.map(Number);
        const dark = r + g + b < 3 * 80;
        assert.equal(dark, colorScheme === 'dark', `${width} px ${colorScheme}: body background ${background}`);
        const file = path.join(shots, `${width}-${colorScheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`screenshot: ${file}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('Rebuild asks first: dismissed, nothing starts; accepted, a full run starts and ends', async () => {
    const asked: string[] = [];
    const before = requested.filter((p) => p === '/api/rebuild').length;
    page.once('dialog', (d) => (asked.push(`${d.type()}: ${d.message()}`), void d.dismiss()));
    await page.click('#rebuild');
    await page.waitForTimeout(300);
    assert.equal(asked.length, 1);
    assert.match(asked[0], /^confirm: Rebuild the whole index\?/);
    assert.equal(requested.filter((p) => p === '/api/rebuild').length, before, 'no rebuild was asked for');
    assert.match((await page.textContent('#task')) ?? '', /^idle/);
    page.once('dialog', (d) => (asked.push(d.message()), void d.accept()));
    await page.click('#rebuild');
    await page.waitForFunction(() => document.getElementById('progress')?.dataset.state === 'done', undefined, { timeout: 120_000 });
    assert.equal(asked.length, 2);
    assert.match((await page.textContent('#task')) ?? '', /^full run done at .* in \d+ s · /);
  });

  test('not one console error, failed request or script error in all of it; the icon is inline, so /favicon.ico is never asked for', async () => {
    // An abort is no failure: the task feeds the page ends on a switch of root, and whatever the panel still had in
    // flight (its sources, its doctor) when the test reloads it. A server's refusal or a broken connection still is.
    assert.deepEqual(problems.filter((p) => !/^request failed: http:\/\/127\.0\.0\.1:\d+\/api\/[a-z-]+(\?[^ ]+)? \(net::ERR_ABORTED\)$/.test(p)), []);
    assert.ok(!requested.includes('/favicon.ico'), 'the browser asked for /favicon.ico');
  });
});

declare const Highlight: { marker(query: string): (text: string) => [string, boolean][] };

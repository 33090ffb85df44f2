// Chromium as the panel's tests drive it: Debian's binary through playwright-core, and what a page did wrong.
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.OCRAG_CHROMIUM ?? '/usr/bin/chromium';
/** A describe's `skip`: false where chromium is installed, else why the browser tests cannot run. */
export const skipWithoutChromium = fs.existsSync(CHROMIUM) ? false : `no chromium at ${CHROMIUM} (.ci/run installs Debian's; OCRAG_CHROMIUM names another)`;

export interface WatchedPage {
  browser: Browser;
  page: Page;
  /** Console errors and script errors (and failed requests, when asked) over the page's whole life. */
  problems: string[];
  /** The path of every request the page made. */
  requested: string[];
}

export async function openPage(viewport: { width: number; height: number }, opts: { failedRequests?: boolean } = {}): Promise<WatchedPage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  if (opts.failedRequests) page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  return { browser, page, problems, requested };
}

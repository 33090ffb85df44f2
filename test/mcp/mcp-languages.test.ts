// find_symbol and search over the languages given rules later (Kotlin, Swift, Elixir fixtures), and a Java method
// inside a 30-line class as its own result for a question about it: real model, real LanceDB, real server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PROJECT_ROOT } from '../helpers.js';
import { findSymbol, search, serveFixtureWith } from './mcp-helpers.js';

const FIXTURES = path.join(PROJECT_ROOT, 'fixtures', 'languages');

// 30 lines: a class kept whole as one chunk, its methods members inside it.
const SCHEDULER_JAVA = `package com.acme.jobs;

import java.time.Duration;

public class RetryScheduler {
    private final Duration base;
    private final int maxAttempts;

    public RetryScheduler(Duration base, int maxAttempts) {
        this.base = base;
        this.maxAttempts = maxAttempts;
    }

    /** The pause before the given attempt: the base doubled for each attempt so far, capped at one minute. */
    public Duration backoffDelay(int attempt) {
        long millis = base.toMillis() << Math.min(attempt, 16);
        return Duration.ofMillis(Math.min(millis, 60_000));
    }

    /** Whether another attempt is allowed after this many failures. */
    public boolean shouldRetry(int failures) {
        return failures < maxAttempts;
    }

    /** Writes the attempt and its outcome to the job log. */
    public void logAttempt(String job, int attempt, boolean ok) {
        System.out.printf("%s attempt %d: %s%n", job, attempt, ok ? "ok" : "failed");
    }
}
`;

describe('the languages given rules later, through find_symbol and search', () => {
  let client: Client;

  before(async () => {
    const fixtures = fs.readdirSync(FIXTURES).map((name) => [`polyglot/${name}`, fs.readFileSync(path.join(FIXTURES, name), 'utf8')]);
    client = await serveFixtureWith({ ...Object.fromEntries(fixtures), 'polyglot/RetryScheduler.java': SCHEDULER_JAVA });
  });

  after(async () => {
    await client?.close();
  });

  test('Kotlin, Swift and Elixir definitions are found by name and qualified by what holds them', async () => {
    const expected: Array<[string, string, string]> = [
      ['tryAcquire', 'polyglot/RateLimiter.kt', 'class RateLimiter > method tryAcquire'],
      ['RateLimiter.refill', 'polyglot/RateLimiter.kt', 'class RateLimiter > method refill'],
      ['RateLimiter', 'polyglot/RateLimiter.kt', 'class RateLimiter'],
      ['evictIfNeeded', 'polyglot/ImageCache.swift', 'class ImageCache > method evictIfNeeded'],
      ['ImageCache.store', 'polyglot/ImageCache.swift', 'class ImageCache > method store'],
      ['expire_idle', 'polyglot/session_registry.ex', 'defmodule Acme.SessionRegistry > defp expire_idle'],
      ['SessionRegistry.register', 'polyglot/session_registry.ex', 'defmodule Acme.SessionRegistry > def register'],
    ];
    for (const [name, file, symbol] of expected) {
      const [found] = await findSymbol(client, name);
      assert.deepEqual([found?.path, found?.symbol], [file, symbol], `find_symbol ${name}`);
    }
  });

  test('a search naming a Kotlin method ranks its own chunk first', async () => {
    const ranked = await search(client, 'tryAcquire', { k: 5 });
    assert.equal(ranked[0]?.symbol, 'class RateLimiter > method tryAcquire', ranked.map((r) => r.symbol).join(' | '));
  });

  test('a Java method inside a 30-line class is its own result for a question about it', async () => {
    for (const query of ['backoffDelay', 'how is the backoffDelay before the next attempt computed']) {
      const ranked = await search(client, query, { k: 5 });
      const first = ranked[0];
      assert.equal(first?.symbol, 'class RetryScheduler > method backoffDelay', `${query}: ${ranked.map((r) => `${r.path} ${r.symbol}`).join(' | ')}`);
      assert.equal(first.endLine - first.startLine + 1, 5, 'the method alone, with its comment');
    }
  });
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isImportPreamble } from '../../src/search/rank/signals/imports.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

const LICENSE = '/*\n * Copyright (C) 2024 The Authors.\n * Licensed under the Apache License, Version 2.0.\n */\n';

/** A router whose imports name every word of the question, and the class that answers it. */
const FILES: Record<string, string> = {
  'src/main/java/app/Router.java': `${LICENSE}package app;\n\nimport app.http.HandlerChain;\nimport app.http.HandlerChainBuilder;\nimport app.http.RequestHandler;\nimport app.http.RetryingRequestHandler;\nimport app.http.TimeoutRequestHandler;\nimport java.util.List;\n\n/** Routes paths to their endpoints. */\npublic final class Router {\n  private final List<String> paths;\n\n  public Router(List<String> paths) {\n    this.paths = paths;\n  }\n\n  public boolean routes(String path) {\n    return paths.contains(path);\n  }\n}\n`,
  'src/main/java/app/http/HandlerChain.java': `${LICENSE}package app.http;\n\n/** Runs each request through its handlers in order, stopping at the first that answers. */\npublic final class HandlerChain {\n  private final RequestHandler[] handlers;\n\n  public HandlerChain(RequestHandler... handlers) {\n    this.handlers = handlers;\n  }\n\n  public String handle(String request) {\n    for (RequestHandler handler : handlers) {\n      String answer = handler.handle(request);\n      if (answer != null) return answer;\n    }\n    return null;\n  }\n}\n`,
  'src/main/java/app/http/RequestHandler.java': `${LICENSE}package app.http;\n\n/** Answers a request, or returns null to pass it on. */\npublic interface RequestHandler {\n  String handle(String request);\n}\n`,
};

const QUERY = 'chain of request handlers with retrying and timeout handler';

describe("a file's imports", () => {
  let index: CodeIndex;
  const search = (ranking?: { imports?: boolean; importsInFileEvidence?: boolean }) => index.search(QUERY, { k: 10, update: false, committedOnly: true, ...(ranking ? { ranking } : {}) });
  const preambleRank = (results: { path: string; startLine: number }[]): number => results.findIndex((r) => r.path === 'src/main/java/app/Router.java' && r.startLine === 1);

  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir('imports'), 'app'), FILES, 'app'));
    await index.index();
  });
  after(() => index.close());

  test('are no answer in a language whose imports only import: the class they name ranks above them', async () => {
    const results = await search();
    const list = results.map((r) => `${r.path}:${r.startLine}`).join(', ');
    const chain = results.findIndex((r) => r.path === 'src/main/java/app/http/HandlerChain.java');
    const preamble = preambleRank(results);
    assert.ok(chain >= 0 && (preamble === -1 || chain < preamble), list);
    // Without the penalty the imports, which spell out the query's words, score closer to the best result.
    const unpenalised = await search({ imports: false });
    const share = (r: { score: number }[], at: number) => (at === -1 ? 0 : r[at]!.score / r[0]!.score);
    assert.ok(share(unpenalised, preambleRank(unpenalised)) > share(results, preamble), list);
  });

  test("still count in full for their file's evidence, so the file they head keeps its standing", async () => {
    const best = (results: { path: string; score: number }[], file: string) => results.find((r) => r.path === file)?.score ?? 0;
    const standing = (results: { path: string; score: number }[]) => best(results, 'src/main/java/app/Router.java') / results[0]!.score;
    const full = await search();
    const discounted = await search({ importsInFileEvidence: true });
    assert.ok(standing(full) > standing(discounted), `${standing(full)} vs ${standing(discounted)}`);
  });

  test('a preamble is imports and comments only, with no doc comment', () => {
    assert.equal(isImportPreamble(`${LICENSE}package app;\n\nimport a.B;\nimport static a.C.d;`), true);
    assert.equal(isImportPreamble('using System;\nusing System.Linq;\nnamespace App.Core;'), true);
    assert.equal(isImportPreamble('#pragma once\n#include <string>\n#include "app/log.h"'), true);
    assert.equal(isImportPreamble('package cache\n\nimport (\n\t"sync"\n\tlog "example.com/log"\n)'), true);
    assert.equal(isImportPreamble("require 'json'\nrequire_relative 'cache/store'"), true);
    // A statement over several lines: the names inside its brackets are part of it.
    assert.equal(isImportPreamble('use std::{\n    fs,\n    io::{self, Read},\n};\nuse crate::cache;'), true);
    assert.equal(isImportPreamble("import type {\n  Store,\n  Dispatch\n} from './types/store'\nimport { kindOf } from './utils/kindOf'"), true);
    // A module's own description, one import alone, or code among them: not a preamble.
    assert.equal(isImportPreamble('//! Async file I/O.\nuse std::io;\nuse std::fs;'), false);
    assert.equal(isImportPreamble('package app;'), false);
    assert.equal(isImportPreamble('import a.B;\nimport a.C;\nclass D {}'), false);
    assert.equal(isImportPreamble("import {\n  a,\n  b\n} from './x'\nconst c = a(b)"), false);
  });
});

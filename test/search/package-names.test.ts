import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CodeIndex } from '../../src/service/code-index.js';
import { packageKey, packageNames } from '../../src/search/rank/signals/package-names.js';
import type { SearchView } from '../../src/search/view.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

/** A package directory of dozens of modules, whose class of the package's own name is one of them. */
const MODULES = Object.fromEntries(
  Array.from({ length: 22 }, (_, i) => [`fastkit/part_${i}.py`, `def part_${i}(value):\n    """Step ${i} of the pipeline."""\n    return value + ${i}\n`]),
);
const FILES: Record<string, string> = {
  ...MODULES,
  'fastkit/app.py': [
    'class FastKit:',
    '    """The application: holds the routes and serves requests."""',
    '    def __init__(self):',
    '        self.routes = []',
    '',
    '    def add_route(self, path, endpoint):',
    '        self.routes.append((path, endpoint))',
    '',
  ].join('\n'),
  'fastkit/concurrency.py': [
    'import asyncio',
    '',
    'async def run_in_threadpool(func, *args):',
    '    """Run a sync route function in a worker thread so that it does not block the event loop."""',
    '    loop = asyncio.get_running_loop()',
    '    return await loop.run_in_executor(None, func, *args)',
    '',
  ].join('\n'),
  'tests/fixtures/widget_box/sample.py': 'class WidgetBox:\n    pass\n',
};

describe('a package named in a sentence', () => {
  let index: CodeIndex;
  before(async () => {
    index = await CodeIndex.open(committedRepo(path.join(tempDir('packages'), 'packages'), FILES, 'a package'));
    await index.index();
  });
  after(() => index.close());
  const scores = async (query: string, definitions: boolean) =>
    (await index.search(query, { k: 10, update: false, committedOnly: true, ranking: { definitions } })).map((r) => [r.path, r.score]);

  test('are directories near the root that hold dozens of files', () => {
    const view = { files: Object.keys(FILES).map((p) => ({ path: p })) } as unknown as SearchView;
    assert.deepEqual([...packageNames(view)], ['fastkit']);
    assert.equal(packageKey('Fast_Kit'), 'fastkit');
  });

  test('means the project, not its class of that name; the bare name still asks for the class', async () => {
    const sentence = 'how does FastKit run sync route functions without blocking';
    assert.deepEqual(await scores(sentence, true), await scores(sentence, false), 'no definition boost for the class');
    const [on, off] = [await scores('FastKit', true), await scores('FastKit', false)];
    assert.equal(on[0]![0], 'fastkit/app.py');
    assert.ok(on[0]![1]! > off.find(([p]) => p === 'fastkit/app.py')![1]!, 'the bare name boosts its definition');
  });
});

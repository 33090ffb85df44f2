import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadEmbedder, type Embedder } from '../../src/embed/index.js';
import { CODE_SNIPPETS, cosine, freshCacheWithDefaultModel } from './helpers.js';

/** [query, the snippet it describes, an unrelated snippet it must score lower]. */
const PAIRS: Array<[string, keyof typeof CODE_SNIPPETS, keyof typeof CODE_SNIPPETS]> = [
  ['parse command line arguments', 'argv', 'color'],
  ['convert a hex colour code to rgb', 'color', 'argv'],
  ['look up a user in the database', 'sql', 'debounce'],
  ['compute the sha256 hash of a file', 'hash', 'lru'],
  ['load settings from a json file', 'pyjson', 'gohealth'],
  ['least recently used cache eviction', 'lru', 'sql'],
  ['read all lines of a text file', 'rustlines', 'color'],
];

describe('semantic sanity of the default model', () => {
  let embedder: Embedder;
  const docs = new Map<string, Float32Array>();

  before(async () => {
    await freshCacheWithDefaultModel();
    embedder = await loadEmbedder();
    const keys = Object.keys(CODE_SNIPPETS);
    (await embedder.embed(keys.map((k) => CODE_SNIPPETS[k]))).forEach((v, i) => docs.set(keys[i], v));
  });
  after(() => embedder.close());

  for (const [query, relevant, unrelated] of PAIRS) {
    test(`"${query}" is closer to ${relevant} than to ${unrelated}`, async () => {
      const q = await embedder.embedQuery(query);
      const good = cosine(q, docs.get(relevant)!);
      const bad = cosine(q, docs.get(unrelated)!);
      assert.ok(good > bad, `${relevant} ${good.toFixed(3)} <= ${unrelated} ${bad.toFixed(3)}`);
    });
  }

  test('most queries rank their snippet first among all snippets', async () => {
    let first = 0;
    for (const [query, relevant] of PAIRS) {
      const q = await embedder.embedQuery(query);
      const ranked = [...docs].sort((a, b) => cosine(q, b[1]) - cosine(q, a[1]));
      if (ranked[0][0] === relevant) first++;
    }
    assert.ok(first >= Math.ceil(PAIRS.length * 0.6), `${first}/${PAIRS.length} ranked first`);
  });

  test('identifier styles meet: parseArgs, parse_args and "parse args" embed alike', async () => {
    const [camel, snake, words, other] = await embedder.embed(['parseArgs', 'parse_args', 'parse args', 'hexToRgb']);
    assert.ok(cosine(camel, snake) > 0.99);
    assert.ok(cosine(camel, words) > 0.99);
    assert.ok(cosine(camel, other) < 0.9);
  });
});

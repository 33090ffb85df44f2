// The asynchronous ranking stage after the signals (src/search/rank/rerank.ts), where a model that reads the
// question and each chunk together will go. Off by default; given one, it reorders the best hits it reads and
// leaves the rest, and the score scale, as the signals made them. A real repository, the real model and store;
// the reranker is a stand-in named so (what is checked is the order it asks for, not relevance).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Reranker } from '../../src/search/rank/rerank.js';
import type { SearchResult } from '../../src/search/search.js';
import { CodeIndex } from '../../src/service/code-index.js';
import { committedRepo, tempDir, TEST_CACHE } from '../helpers.js';

process.env.OCRAG_CACHE ??= TEST_CACHE;

const FILES: Record<string, string> = {
  'src/config.py': 'def load_config(path):\n    """Parse the config file into a dict."""\n    with open(path) as f:\n        return parse(f.read())\n',
  'src/parse.py': 'def parse(text):\n    """Parse key = value lines of a config file."""\n    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)\n',
  'src/defaults.py': 'DEFAULTS = {"port": 8080, "host": "localhost"}  # config values used when the file lacks them\n',
  'src/cli.py': 'def main(argv):\n    """Read --config and start the server."""\n    config = load_config(argv[1])\n    serve(config)\n',
  'src/server.py': 'def serve(config):\n    """Listen on the configured host and port."""\n    return (config["host"], config["port"])\n',
  'README.md': '# tool\n\nThe config file holds key = value lines; see src/config.py.\n',
};

const where = (r: SearchResult) => `${r.path}:${r.startLine}`;

describe('a ranking stage after the signals', () => {
  let index: CodeIndex;
  before(async () => {
    index = await CodeIndex.open(committedRepo(tempDir('rerank'), FILES, 'a small config reader'));
    await index.index();
  });
  after(() => index.close());

  test('is off by default; one given reorders the best hits it reads, and leaves the rest and the scores', async () => {
    const plain = await index.search('parse the config file', { k: 5 });
    assert.equal(plain.length, 5);
    const read: string[][] = [];
    const reverse: Reranker = {
      name: 'reverse (test stand-in)',
      depth: 3,
      async score(query, passages) {
        read.push([query, ...passages.map((p) => p.path)]);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return passages.map((_, i) => i);
      },
    };
    const reranked = await index.search('parse the config file', { k: 5, reranker: reverse });
    assert.deepEqual(read, [['parse the config file', ...plain.slice(0, 3).map((r) => r.path)]]);
    assert.deepEqual(reranked.slice(0, 3).map(where), plain.slice(0, 3).map(where).reverse());
    assert.deepEqual(reranked.slice(3).map(where), plain.slice(3).map(where));
    // The signals' scale stays: relevance and --min-score read the same numbers.
    assert.deepEqual(reranked.map((r) => r.score), plain.map((r) => r.score));
  });

  test('a reranker that answers for other passages than it was given fails the search rather than reorder it', async () => {
    const short: Reranker = { name: 'short (test stand-in)', depth: 3, score: async () => [1, 2] };
    await assert.rejects(index.search('parse the config file', { k: 5, reranker: short }), /gave 2 scores for 3 passages/);
    const nan: Reranker = { name: 'nan (test stand-in)', depth: 3, score: async () => [1, Number.NaN, 2] };
    await assert.rejects(index.search('parse the config file', { k: 5, reranker: nan }), /not a number/);
  });
});

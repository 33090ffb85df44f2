import assert from 'node:assert/strict';
import { residentLoads } from '../../src/search/resident.js';
import { openWorkspace } from '../../src/workspace/index.js';

/** Where the set of a first in-process search of a fixture repository came from: chunks restored from its snapshot, or read from the store. */
export async function firstSearchLoads(repo: string): Promise<{ fromStore: number; fromSnapshot: number }> {
  const before = { ...residentLoads };
  const workspace = await openWorkspace(repo);
  try {
    assert.equal((await workspace.search('parseArgs', { k: 1 }))[0]?.path, 'src/cli/args.ts');
  } finally {
    await workspace.close();
  }
  return { fromStore: residentLoads.fromStore - before.fromStore, fromSnapshot: residentLoads.fromSnapshot - before.fromSnapshot };
}

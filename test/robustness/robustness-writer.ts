// Child process of robustness-concurrency.test.ts: for each "<store folder> <start at ms>" line on stdin, opens
// the store, waits for the moment, writes the shared rows, and answers "done".
import readline from 'node:readline';
import { storeLocation } from '../../src/store/layout.js';
import { openStore } from '../../src/store/open-store.js';
import { sharedRows } from './robustness-helpers.js';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [dir, at] = line.split(' ');
  const store = await openStore(storeLocation(dir), 4);
  await new Promise((resolve) => setTimeout(resolve, Number(at) - Date.now()));
  await store.addChunks(sharedRows(), true);
  store.close();
  process.stdout.write('done\n');
}

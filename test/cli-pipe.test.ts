// A reader that stops early (`ocrag search --help | head -1`) ends ocrag quietly, never with an EPIPE crash.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from './helpers.js';

test('a pipe closed before ocrag writes ends the process with exit 0 and nothing on stderr', async () => {
  const child = spawn(process.execPath, [CLI, 'search', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Closed before the first byte: every write ocrag makes meets a pipe nobody reads.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});

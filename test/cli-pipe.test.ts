// A reader that stops early (`ocrag search --help | head -1`) ends ocrag quietly, never with an EPIPE crash.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from './helpers.js';

test('a pipe closed after the first bytes ends the process with exit 0 and nothing on stderr', async () => {
  const child = spawn(process.execPath, [CLI, 'search', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr += b));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(stderr, '');
  assert.equal(code, 0);
});

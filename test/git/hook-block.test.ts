// The hook block's fallback (no `ocrag` on PATH: node and this installation's entry, recorded at install) run by a
// real sh in a real repository: it defers NODE_EXTRA_CA_CERTS as the installed command's launcher does.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { hookBlock } from '../../src/git/hook-block.js';

/** Runs post-commit's block with a stand-in for node that records the environment it was started with. */
function environmentOfFallback(env: Record<string, string>): Record<string, string | undefined> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-hook-block-'));
  try {
    execFileSync('git', ['init', '-q', dir]);
    const out = path.join(dir, '.git', 'seen.json');
    // A stand-in for node, named here and outside the work tree, as installedCli() records process.execPath. It
    // writes its record whole (mv), since the block starts it in the background and the test polls for the file.
    const fakeNode = path.join(os.tmpdir(), `${path.basename(dir)}-node`);
    fs.writeFileSync(fakeNode, `#!/bin/sh\necho "{\\"extra\\":\\"\${NODE_EXTRA_CA_CERTS-unset}\\",\\"deferred\\":\\"\${OCRAG_NODE_EXTRA_CA_CERTS-unset}\\"}" > ${out}.part && mv ${out}.part ${out}\n`, { mode: 0o755 });
    const entry = path.join(os.tmpdir(), `${path.basename(dir)}-main.js`);
    fs.writeFileSync(entry, '');
    try {
      const script = `${hookBlock('post-commit', { node: fakeNode, entry })}\nwait\n`;
      execFileSync('sh', ['-c', script], { cwd: dir, env: { PATH: '/usr/bin:/bin', ...env } });
      for (let i = 0; i < 100 && !fs.existsSync(out); i++) execFileSync('sleep', ['0.05']);
      const seen = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, string>;
      return Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v === 'unset' ? undefined : v]));
    } finally {
      fs.rmSync(fakeNode, { force: true });
      fs.rmSync(entry, { force: true });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('the fallback moves NODE_EXTRA_CA_CERTS aside, as the launcher does', () => {
  assert.deepEqual(environmentOfFallback({ NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }), { extra: undefined, deferred: '/etc/ssl/certs/ca-certificates.crt' });
});

test('the fallback drops a deferred file inherited without NODE_EXTRA_CA_CERTS (Node would not trust it)', () => {
  assert.deepEqual(environmentOfFallback({ OCRAG_NODE_EXTRA_CA_CERTS: '/tmp/planted.pem' }), { extra: undefined, deferred: undefined });
});

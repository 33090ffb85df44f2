import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, runCli } from '../helpers.js';
import { emptyRepo, readJson } from './files.js';

// npm links `ocrag` to the bundled command (package.json "bin"); when that link is this installation, setup writes
// the bare name, which survives moves and can be shared in a committed config.
test('setup starts the MCP server as `ocrag` when the ocrag on PATH is this installation, by absolute path otherwise', async () => {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'ocrag-bin-'));
  try {
    fs.symlinkSync(path.join(PROJECT_ROOT, 'dist', 'cli', 'ocrag.cjs'), path.join(bin, 'ocrag'));
    const linked = emptyRepo('setup-linked');
    const setUp = await runCli(['setup', 'gemini'], linked, { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    assert.equal(setUp.code, 0, setUp.stderr);
    assert.deepEqual(readJson(linked, '.gemini/settings.json').mcpServers.ocrag, { command: 'ocrag', args: ['mcp'] });

    fs.rmSync(path.join(bin, 'ocrag'));
    fs.writeFileSync(path.join(bin, 'ocrag'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const other = emptyRepo('setup-other');
    assert.equal((await runCli(['setup', 'gemini'], other, { PATH: `${bin}${path.delimiter}${process.env.PATH}` })).code, 0);
    assert.equal(readJson(other, '.gemini/settings.json').mcpServers.ocrag.command, process.execPath);
  } finally {
    fs.rmSync(bin, { recursive: true, force: true });
  }
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { CLI, runCli, runJson } from '../helpers.js';
import { emptyRepo, read, readJson, write } from './files.js';

const node = process.execPath;

/** A JSONC file as a user keeps it: comments, a trailing comma, other servers and settings. */
const ZED_SETTINGS = `// Zed settings for this project
{
  "tab_size": 2, // team style
  /* servers the team shares */
  "context_servers": {
    "other": { "source": "custom", "command": "other-server", "args": [] },
  },
}
`;
const VSCODE_MCP = `{
  // inputs for the GitHub server
  "inputs": [{ "type": "promptString", "id": "token", "password": true }],
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }
  }
}
`;

describe('ocrag setup for VS Code, Gemini CLI, Zed and Roo Code', () => {
  test('each gets its project MCP entry beside the user\'s servers; a second run changes nothing', async () => {
    const repo = emptyRepo('agents');
    write(repo, '.vscode/mcp.json', VSCODE_MCP);
    write(repo, '.gemini/settings.json', JSON.stringify({ theme: 'Dracula', mcpServers: { git: { command: 'uvx', args: ['mcp-server-git'] } } }, null, 2));
    write(repo, '.zed/settings.json', ZED_SETTINGS);
    write(repo, '.roo/mcp.json', JSON.stringify({ mcpServers: { other: { command: 'o', alwaysAllow: ['x'] } } }));
    const first = await runCli(['setup', 'vscode', 'gemini', 'zed', 'roo'], repo);
    assert.equal(first.code, 0, first.stderr);

    const vscode = read(repo, '.vscode/mcp.json');
    assert.ok(vscode.startsWith('{\n  // inputs for the GitHub server\n  "inputs": [{ "type": "promptString", "id": "token", "password": true }],\n  "servers": {\n    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },\n'), vscode);
    const vscodeValue = JSON.parse(vscode.replace(/^\s*\/\/.*$/gm, '')) as Record<string, any>;
    assert.deepEqual(vscodeValue.servers.ocrag, { type: 'stdio', command: node, args: [CLI, 'mcp', '--repo', '${workspaceFolder}'] });
    assert.equal(vscodeValue.inputs[0].id, 'token');

    const gemini = readJson(repo, '.gemini/settings.json');
    assert.equal(gemini.theme, 'Dracula');
    assert.deepEqual(gemini.mcpServers.git, { command: 'uvx', args: ['mcp-server-git'] });
    assert.deepEqual(gemini.mcpServers.ocrag, { command: node, args: [CLI, 'mcp'] });
    assert.match(read(repo, 'GEMINI.md'), /<!-- ocrag:begin[\s\S]*search_code[\s\S]*<!-- ocrag:end -->/);

    const zed = read(repo, '.zed/settings.json');
    for (const kept of ['// Zed settings for this project', '"tab_size": 2, // team style', '/* servers the team shares */', '"other": { "source": "custom", "command": "other-server", "args": [] },']) assert.ok(zed.includes(kept), `${kept} kept:\n${zed}`);
    const zedValue = JSON.parse(zed.replace(/\/\/.*$/gm, '').replace(/\/\*.*?\*\//g, '').replace(/,(\s*[}\]])/g, '$1')) as Record<string, any>;
    assert.deepEqual(zedValue.context_servers.ocrag, { source: 'custom', command: node, args: [CLI, 'mcp'], env: {} });
    assert.equal(zedValue.tab_size, 2);

    const roo = readJson(repo, '.roo/mcp.json');
    assert.deepEqual(roo.mcpServers.other, { command: 'o', alwaysAllow: ['x'] });
    assert.deepEqual(roo.mcpServers.ocrag, { command: node, args: [CLI, 'mcp', '--repo', '${workspaceFolder}'] });
    assert.match(read(repo, '.roo/rules/ocrag.md'), /^# Code search with ocrag\n\n[\s\S]*search_code/);

    const agents = read(repo, 'AGENTS.md');
    assert.equal(agents.split('<!-- ocrag:begin').length, 2, 'one section for VS Code and Zed together');
    assert.match(first.stderr, /AGENTS\.md {2}\(VS Code \(Copilot\), Zed\)/);

    const files = ['.vscode/mcp.json', '.gemini/settings.json', 'GEMINI.md', '.zed/settings.json', '.roo/mcp.json', '.roo/rules/ocrag.md', 'AGENTS.md'];
    const before = files.map((f) => read(repo, f));
    const second = await runJson<{ path: string; change: string }[]>(['setup', 'vscode', 'gemini', 'zed', 'roo'], repo);
    assert.deepEqual(second.map((f) => f.change), files.map(() => 'unchanged'));
    assert.deepEqual(files.map((f) => read(repo, f)), before);
  });

  test('--remove takes out exactly what setup put in, leaving the user\'s files as they were', async () => {
    const repo = emptyRepo('agents');
    write(repo, '.vscode/mcp.json', VSCODE_MCP);
    write(repo, '.zed/settings.json', ZED_SETTINGS);
    write(repo, 'AGENTS.md', '# Rules\n\nBe nice.\n');
    write(repo, '.codex/config.toml', 'model = "o4-mini"\n\n[mcp_servers.other]\ncommand = "other"\n');
    write(repo, '.mcp.json', JSON.stringify({ mcpServers: { other: { command: 'x' } } }, null, 2) + '\n');
    const originals = Object.fromEntries(['.vscode/mcp.json', '.zed/settings.json', 'AGENTS.md', '.codex/config.toml', '.mcp.json'].map((f) => [f, read(repo, f)]));
    assert.equal((await runCli(['setup', 'all'], repo)).code, 0);
    const removed = await runCli(['setup', 'all', '--remove'], repo);
    assert.equal(removed.code, 0, removed.stderr);
    for (const [file, text] of Object.entries(originals)) {
      if (file === '.codex/config.toml') assert.deepEqual(parseToml(read(repo, file)), parseToml(text), file);
      else if (file === '.mcp.json') assert.deepEqual(readJson(repo, file), JSON.parse(text));
      else assert.equal(read(repo, file), text, file);
    }
    assert.deepEqual(fs.readdirSync(repo).sort(), ['.codex', '.git', '.mcp.json', '.vscode', '.zed', 'AGENTS.md'], 'every file and folder only ocrag wrote is gone');
    const again = await runJson<{ change: string }[]>(['setup', 'all', '--remove'], repo);
    assert.ok(again.every((f) => f.change === 'unchanged'));
  });

  test('a JSONC config that does not parse is left alone, with the entry to add by hand', async () => {
    const repo = emptyRepo('agents');
    write(repo, '.zed/settings.json', '{ "context_servers": { // unclosed\n');
    const r = await runCli(['setup', 'zed'], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^ocrag: \.zed\/settings\.json is not valid JSON with comments .*add this by hand under context_servers → ocrag:/m);
    assert.equal(read(repo, '.zed/settings.json'), '{ "context_servers": { // unclosed\n');
  });

  test('Windsurf and Cline keep MCP servers per user only: nothing is written, the entry to add is printed', async () => {
    const repo = emptyRepo('agents');
    for (const [agent, place] of [['windsurf', /~\/\.codeium\/windsurf\/mcp_config\.json/], ['cline', /cline_mcp_settings\.json/]] as const) {
      const r = await runCli(['setup', agent], repo);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /has no project-level MCP config, so nothing was written; add this to /);
      assert.match(r.stderr, place);
      assert.match(r.stderr, /"mcpServers": \{\n {4}"ocrag": \{\n {6}"command": /);
    }
    assert.deepEqual(fs.readdirSync(repo), ['.git']);
    const all = await runJson<{ path: string }[]>(['setup', 'all', '--print'], repo);
    assert.ok(all.length > 0 && all.every((f) => !/windsurf|cline/i.test(f.path)));
  });
});

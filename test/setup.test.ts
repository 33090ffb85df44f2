import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { CLI, runCli, tempDir } from './helpers.js';
import { emptyRepo, read, readJson, write } from './setup/files.js';

describe('ocrag setup', () => {
  test('writes each agent\'s MCP entry and instructions, merging with existing config; a second run changes nothing', async () => {
    const repo = emptyRepo('setup');
    write(repo, '.mcp.json', JSON.stringify({ mcpServers: { other: { command: 'other-server' } }, keep: true }));
    // An earlier setup registered the MCP server for OpenCode: its entry goes, the user's stay.
    write(repo, 'opencode.json', JSON.stringify({ $schema: 'https://opencode.ai/config.json', model: 'x/y', mcp: { other: { type: 'local', command: ['o'] }, ocrag: { type: 'local', command: ['ocrag', 'mcp'], enabled: true } } }));
    write(repo, '.codex/config.toml', [
      '# my codex settings',
      'model = "o4-mini"',
      '',
      '[mcp_servers.ocrag]',
      'command = "old-ocrag"',
      'args = [',
      '  "old",',
      ']',
      'startup_timeout_sec = 30 # mine',
      '',
      '[mcp_servers.ocrag.env]',
      'FOO = "bar"',
      '',
      '[mcp_servers.other]',
      'command = "other"',
      '',
    ].join('\n'));
    write(repo, 'AGENTS.md', '# Rules\n\nBe nice.\n');

    const first = await runCli(['setup', 'all'], repo);
    assert.equal(first.code, 0, first.stderr);
    const node = process.execPath;

    const claude = readJson(repo, '.mcp.json');
    assert.equal(claude.keep, true);
    assert.deepEqual(claude.mcpServers.other, { command: 'other-server' });
    assert.deepEqual(claude.mcpServers.ocrag, { type: 'stdio', command: node, args: [CLI, 'mcp'] });
    assert.match(read(repo, '.claude/skills/ocrag/SKILL.md'), /^---\nname: ocrag\ndescription: .+\n---\n[\s\S]*search_code/);

    const opencode = readJson(repo, 'opencode.json');
    assert.equal(opencode.model, 'x/y');
    assert.deepEqual(opencode.mcp.other, { type: 'local', command: ['o'] });
    assert.equal(opencode.mcp.ocrag, undefined, 'OpenCode gets its tools from the plugin alone');
    assert.match(read(repo, '.opencode/skills/ocrag/SKILL.md'), /name: ocrag[\s\S]*`ocrag_search_code`/);
    assert.doesNotMatch(read(repo, '.opencode/skills/ocrag/SKILL.md'), /`search_code`/);

    assert.deepEqual(readJson(repo, '.cursor/mcp.json'), { mcpServers: { ocrag: { command: node, args: [CLI, 'mcp', '--repo', '${workspaceFolder}'] } } });
    assert.match(read(repo, '.cursor/rules/ocrag.mdc'), /^---\ndescription: .+\nalwaysApply: true\n---/);

    const tomlText = read(repo, '.codex/config.toml');
    assert.match(tomlText, /^# my codex settings$/m);
    assert.match(tomlText, /startup_timeout_sec = 30 # mine/);
    const codex = JSON.parse(JSON.stringify(parseToml(tomlText))) as Record<string, any>;
    assert.equal(codex.model, 'o4-mini');
    assert.deepEqual(codex.mcp_servers.ocrag, { command: node, args: [CLI, 'mcp'], startup_timeout_sec: 30, env: { FOO: 'bar' } });
    assert.deepEqual(codex.mcp_servers.other, { command: 'other' });
    const agents = read(repo, 'AGENTS.md');
    assert.ok(agents.startsWith('# Rules\n\nBe nice.\n\n<!-- ocrag:begin'));
    assert.match(agents, /search_code[\s\S]*<!-- ocrag:end -->\n$/);

    const files = ['.mcp.json', 'opencode.json', '.cursor/mcp.json', '.codex/config.toml', 'AGENTS.md', '.claude/skills/ocrag/SKILL.md'];
    const before = files.map((f) => read(repo, f));
    const second = await runCli(['setup', 'all'], repo);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(files.map((f) => read(repo, f)), before);
    assert.equal(second.stderr.match(/unchanged/g)?.length, 15, second.stderr);
  });

  test('--print shows what it would write and writes nothing', async () => {
    const repo = emptyRepo('setup');
    const r = await runCli(['setup', 'claude', 'codex', '--print'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^\.mcp\.json {2}\(Claude Code: would create\)\n\{/m);
    assert.match(r.stdout, /^\[mcp_servers\.ocrag\]\ncommand = /m);
    assert.deepEqual(fs.readdirSync(repo), ['.git']);
  });

  test('uses the bare name when the ocrag on PATH is this installation, unless --absolute', async () => {
    const bin = tempDir('bin');
    fs.symlinkSync(CLI, path.join(bin, 'ocrag'));
    const repo = emptyRepo('setup');
    const env = { PATH: `${bin}${path.delimiter}${process.env.PATH}` };
    await runCli(['setup', 'claude', 'codex'], repo, env);
    assert.deepEqual(readJson(repo, '.mcp.json').mcpServers.ocrag, { type: 'stdio', command: 'ocrag', args: ['mcp'] });
    assert.match(read(repo, '.codex/config.toml'), /^command = "ocrag"\nargs = \["mcp"\]$/m);
    await runCli(['setup', 'claude', '--absolute'], repo, env);
    assert.equal(readJson(repo, '.mcp.json').mcpServers.ocrag.command, process.execPath);
  });

  test('OpenCode: an MCP entry an earlier setup wrote goes (in the V2 shape too), a config of only it goes whole, none is made', async () => {
    const repo = emptyRepo('setup');
    write(repo, 'opencode.json', JSON.stringify({ mcp: { servers: { other: { type: 'remote', url: 'https://x' }, ocrag: { type: 'local', command: ['ocrag', 'mcp'] } } } }));
    await runCli(['setup', 'opencode'], repo);
    assert.deepEqual(readJson(repo, 'opencode.json'), { mcp: { servers: { other: { type: 'remote', url: 'https://x' } } } });
    const only = emptyRepo('setup');
    write(only, 'opencode.json', JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { ocrag: { type: 'local', command: ['ocrag', 'mcp'], enabled: true } } }));
    const r = await runCli(['setup', 'opencode'], only);
    assert.match(r.stderr, /deleted +opencode\.json/);
    assert.ok(!fs.existsSync(path.join(only, 'opencode.json')));
    const fresh = emptyRepo('setup');
    const made = await runCli(['setup', 'opencode'], fresh);
    assert.doesNotMatch(made.stderr, /opencode\.json/);
    assert.ok(!fs.existsSync(path.join(fresh, 'opencode.json')));
  });

  test('never overwrites a config it cannot parse, and rejects unknown agents', async () => {
    const repo = emptyRepo('setup');
    write(repo, '.cursor/mcp.json', '{ "mcpServers": { // a comment\n } }');
    const r = await runCli(['setup', 'cursor'], repo);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\.cursor\/mcp\.json is not valid JSON.*add this by hand/s);
    assert.equal(read(repo, '.cursor/mcp.json'), '{ "mcpServers": { // a comment\n } }');
    const unknown = await runCli(['setup', 'vim'], repo);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown agent "vim"/);
  });
});

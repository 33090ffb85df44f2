// The agent contract (src/render/contract/) is the one place tool names, limits, argument and tool descriptions and
// the guidance are written: the MCP server's schemas, the OpenCode plugin setup writes, the plugin host's check and
// every skill and rules file are made from it. Changed there, every one of them follows; none names a tool it lacks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { agentGuidance } from '../../src/render/agent-guidance.js';
import { surfaceTools, TOOLS, toolIds, wording } from '../../src/render/contract/tools.js';
import { mcpTool, toolShape } from '../../src/render/contract/zod.js';
import { agentsSection, cursorRule, skillFile } from '../../src/setup/instructions.js';
import { opencodePlugin } from '../../src/setup/opencode-plugin.js';

const plugin = () => opencodePlugin({ node: '/usr/bin/node', entry: '/opt/ocrag/dist/cli/main.js' });
const mcpTexts = () => [skillFile('mcp'), cursorRule(), agentsSection(), agentGuidance('mcp'), ...toolIds('mcp').map((id) => mcpTool(id).description)];
const opencodeTexts = () => [skillFile('opencode'), agentGuidance('opencode'), plugin()];
const mcpSchema = (id: Parameters<typeof mcpTool>[0]) => z.toJSONSchema(z.object(mcpTool(id).inputSchema)) as { properties: Record<string, { maxLength?: number; maximum?: number; default?: unknown; description?: string }> };

/** Sets a field of the contract for one test, and puts it back. */
function changed<T extends object, K extends keyof T>(on: T, key: K, value: unknown, check: () => void): void {
  const saved = on[key];
  (on as Record<K, unknown>)[key] = value;
  try {
    check();
  } finally {
    on[key] = saved;
  }
}

test('the query limit is set once: the MCP schema, the plugin, the host\'s check and every skill follow it', () => {
  const sayingIt = () => [skillFile('mcp'), cursorRule(), agentsSection(), mcpTool('search_code').description, ...opencodeTexts()];
  for (const text of sayingIt()) assert.match(text, /10,000 characters/);
  changed(TOOLS.search_code.args.query, 'max', 1234, () => {
    assert.equal(mcpSchema('search_code').properties.query.maxLength, 1234);
    assert.match(plugin(), /query: tool\.schema\.string\(\)\.trim\(\)\.min\(1\)\.max\(1234\)\.describe\("[^"]*up to 1,234 characters/);
    const host = z.object(toolShape('search_code', 'opencode'));
    assert.equal(host.safeParse({ query: 'x'.repeat(1234) }).success, true);
    assert.equal(host.safeParse({ query: 'x'.repeat(1235) }).success, false);
    for (const text of sayingIt()) assert.match(text, /1,234 characters/);
    for (const text of [...mcpTexts(), ...opencodeTexts()]) assert.doesNotMatch(text, /10,?000/);
  });
});

test('a count\'s bounds and default are set once, and its description says them', () => {
  changed(TOOLS.find_symbol.args.k, 'max', 7, () => {
    const k = mcpSchema('find_symbol').properties.k;
    assert.equal(k.maximum, 7);
    assert.match(k.description!, /\(1-7, default 10\)/);
    assert.match(plugin(), /k: tool\.schema\.number\(\)\.int\(\)\.min\(1\)\.max\(7\)\.default\(10\)\.describe\("how many definitions at most \(1-7, default 10\)"\)/);
  });
  changed(TOOLS.search_code.args.min_score, 'default', 0.42, () => {
    assert.equal(mcpSchema('search_code').properties.min_score.default, 0.42);
    assert.match(plugin(), /min_score: tool\.schema\.number\(\)\.min\(0\)\.max\(1\)\.default\(0\.42\)\.describe\("[^"]*default 0\.42;/);
  });
});

test('a description is written once and read in each surface\'s tool names', () => {
  changed(TOOLS.related, 'title', 'Code like this', () => assert.equal(mcpTool('related').title, 'Code like this'));
  changed(TOOLS.remove_source, 'description', (w: { tool(id: string): string }) => `Take a source out; see ${w.tool('list_sources')}.`, () => {
    assert.equal(mcpTool('remove_source').description, 'Take a source out; see list_sources.');
    assert.match(plugin(), /ocrag_remove_source: tool\(\{\n\s+description: "Take a source out; see ocrag_list_sources\."/);
  });
});

test('the plugin offers exactly the contract\'s OpenCode tools, and no text names a tool its surface lacks', () => {
  const names = surfaceTools('opencode').map((t) => t.name);
  const written = [...plugin().matchAll(/^ {6}(ocrag_\w+): tool\(\{$/gm)].map((m) => m[1]);
  assert.deepEqual(written, names);
  assert.deepEqual(new Set(names).size, names.length);
  for (const text of opencodeTexts()) {
    for (const [name] of text.matchAll(/\bocrag_[a-z_]+\b/g)) assert.ok(names.includes(name), `${name} is one of the plugin's tools`);
    assert.doesNotMatch(text, /\b(index_codebase|set_root|index_cancel|reindex)\b/, 'OpenCode has no background tasks or root to switch');
  }
  const mcpIds = toolIds('mcp');
  for (const text of mcpTexts()) {
    for (const [, name] of text.matchAll(/`([a-z]+_[a-z_]+)`/g)) assert.ok(mcpIds.includes(name as never) || Object.values(TOOLS).some((t) => name in t.args), `${name} is an MCP tool or argument`);
  }
  assert.throws(() => wording('opencode').tool('set_root'), /no set_root/);
});

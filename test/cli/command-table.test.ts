// Which command a command line names, read before commander loads (src/cli/command-table.ts): an index run on
// Linux decides by it whether to start again with fewer malloc arenas, and the full program loads only that command.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandOf } from '../../src/cli/command-table.js';
import { VALUED_GLOBAL_FLAGS } from '../../src/cli/global-flags.js';

test('the first word that is a command, past the values of global flags; null at any other word', () => {
  assert.equal(commandOf(['index']), 'index');
  assert.equal(commandOf(['hook', 'post-commit']), 'hooks');
  assert.equal(commandOf(['--json']), null);
  for (const flag of VALUED_GLOBAL_FLAGS) assert.equal(commandOf([flag, 'value', 'search', 'x']), 'search', flag);
  assert.equal(commandOf(['--model', 'm', 'search']), 'search');
  // A word that is no flag's value, even one spelled as a value given before it.
  assert.equal(commandOf(['--model', 'm', 'm', 'search']), null);
  assert.equal(commandOf(['-C', 'repo', 'status', 'index']), 'status');
  assert.equal(commandOf(['frobnicate', 'index']), null);
});

test("the list of valued global flags is exactly the program's: a flag added to one and not the other would read its value as a command", async () => {
  const { buildProgram } = await import('../../src/cli/program.js');
  const program = await buildProgram(['node', 'ocrag', '--help']);
  const valued = program.options.filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long].filter((f): f is string => !!f));
  assert.deepEqual([...valued].sort(), [...VALUED_GLOBAL_FLAGS].sort());
});

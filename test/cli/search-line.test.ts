// The quick entry of a plain `ocrag search` (src/cli/quick-search.ts) reads its command line without commander:
// every line it takes must come out exactly as the full program's commander reads it, and every line it is not
// sure of is left to the full program (null).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.js';
import { readSearchLine } from '../../src/cli/search-line.js';

/** What commander gives the search command's action for this command line (the action replaced: nothing runs). */
async function commanderReads(args: string[]): Promise<{ words: string[]; opts: Record<string, unknown>; global: Record<string, unknown> }> {
  const argv = ['node', 'ocrag', ...args];
  const program = await buildProgram(argv);
  let read: { words: string[]; opts: Record<string, unknown>; global: Record<string, unknown> } | undefined;
  program.commands.find((c) => c.name() === 'search')!.action((words: string[], opts: Record<string, unknown>, cmd: Command) => {
    read = { words, opts: { ...opts }, global: { ...cmd.parent!.opts() } };
  });
  await program.parseAsync(argv);
  assert.ok(read, `commander ran no search for ${args.join(' ')}`);
  return read;
}

const TAKEN = [
  ['search', 'spawn_blocking'],
  ['search', 'parse', 'command', 'line', 'arguments'],
  ['search', '-k', '3', 'retry'],
  ['search', '-k3', 'retry'],
  ['search', '--top-k=7', 'retry', 'with', 'backoff'],
  ['search', 'x', '--json'],
  ['search', '--format', 'xml', 'x'],
  ['search', '--format=markdown', 'x', '--max-tokens', '200'],
  ['search', '--path', 'src/**', '--whole', 'configuration', 'file'],
  ['search', '--path=', 'x'],
  ['search', '--min-score', '0.5', '--min-match', '0', 'x'],
  ['search', '--no-update', '--committed-only', '--no-sources', 'x'],
  ['search', '--source', 'lib', '--language', 'python', 'read', 'a', 'file'],
  ['search', '--language', '', 'x'],
  ['search', '--json', '--format', 'xml', 'x'],
  ['search', 'x', '--json', '--json'],
  ['search', '-k', '3', 'x', '-k', '4'],
  ['search', 'search', 'help'],
  ['search', '解析 命令行 参数'],
  ['-C', '/tmp', 'search', 'x'],
  ['-C/tmp', 'search', 'x'],
  ['--cwd=/tmp', 'search', 'x'],
  ['--model', 'default', '--include', 'a/**, b/**', '--exclude=c/**', '--max-file-bytes', '1000', 'search', 'x'],
];

const LEFT = [
  [],
  ['index'],
  ['status', 'search'],
  // A git hook's run: the installed command (bin.ts) counts on it to go to main.ts.
  ['hook', 'post-checkout', 'search'],
  ['search'],
  ['search', '-k'],
  ['search', '--json'],
  ['search', '--bogus', 'x'],
  ['search', '-h'],
  ['search', 'x', '--help'],
  ['search', '-V'],
  ['-V', 'search', 'x'],
  ['search', '--', '-x'],
  ['search', 'x', '-'],
  ['search', '-1'],
  ['search', 'x', '-C', '/tmp'],
  ['search', 'x', '--model', 'default'],
  ['search', '--min-score', '-0.5', 'x'],
  ['search', '--path', '-C', 'x'],
  ['search', '-k', '0', 'x'],
  ['search', '-k=3', 'x'],
  ['search', '--min-match', '2', 'x'],
  ['search', '--max-tokens', 'many', 'x'],
  ['search', '--format', 'yaml', 'x'],
  ['search', '--json=1', 'x'],
  ['search', '--no-update=1', 'x'],
  ['--max-file-bytes', '0', 'search', 'x'],
  ['-C', 'search', 'x'],
  ['--constructor', 'search', 'x'],
  ['search', '--__proto__', 'x'],
];

describe('the quick entry reads a search command line as the full program does', () => {
  test('each line it takes: the same words, flags and global flags as commander', async () => {
    for (const args of TAKEN) {
      const line = readSearchLine(args);
      assert.ok(line, `not taken: ${JSON.stringify(args)}`);
      const read = await commanderReads(args);
      assert.deepEqual(line.words, read.words, JSON.stringify(args));
      assert.deepEqual({ ...line.opts }, read.opts, JSON.stringify(args));
      assert.deepEqual({ ...line.global }, read.global, JSON.stringify(args));
    }
  });

  test('anything else is left to the full program: unknown or global flags after search, help, --, odd or bad values', () => {
    for (const args of LEFT) assert.equal(readSearchLine(args), null, JSON.stringify(args));
  });
});

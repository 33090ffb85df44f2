// Finishes the install of the development tools whose install script .npmrc keeps from running (ignore-scripts):
// opencode-ai links its platform's OpenCode binary in its postinstall, and the tests drive the real OpenCode.
// Run by `npm test`; does nothing when the binary is already linked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const opencode = path.join(root, 'node_modules', 'opencode-ai');
// The package ships a 479-byte launcher that only says the postinstall did not run; the linked binary is ~180 MB.
const LINKED_MIN_BYTES = 1_000_000;
const binary = path.join(opencode, 'bin', 'opencode.exe');

if (fs.existsSync(opencode) && (!fs.existsSync(binary) || fs.statSync(binary).size < LINKED_MIN_BYTES)) {
  console.error('dev-tools: linking the OpenCode binary (opencode-ai postinstall)');
  execFileSync(process.execPath, ['postinstall.mjs'], { cwd: opencode, stdio: 'inherit' });
}

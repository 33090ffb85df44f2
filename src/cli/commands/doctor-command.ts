import type { Command } from 'commander';
import { runDoctor } from '../../service/doctor.js';
import { configFlags, workDir } from '../options.js';
import { paint, printJson } from '../output.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check git, the model, the index, hooks and config; each problem comes with a fix')
    .option('--json', 'print the checks as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const checks = await runDoctor(workDir(cmd), configFlags(cmd));
      if (checks.some((c) => c.status === 'fail')) process.exitCode = 1;
      if (opts.json) return printJson(checks);
      const p = paint(process.stdout);
      const mark = { ok: p.green('ok  '), warn: p.yellow('warn'), fail: p.red('FAIL') };
      for (const c of checks) {
        console.log(`${mark[c.status]}  ${c.name.padEnd(12)} ${c.detail}`);
        if (c.fix) console.log(`      ${' '.repeat(12)} ${p.dim('fix: ' + c.fix)}`);
      }
    });
}

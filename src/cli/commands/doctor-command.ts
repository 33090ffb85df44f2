import type { Command } from 'commander';
import { doctor, verifyIndex, type Check, type IndexVerification } from '../../workspace/machine.js';
import { configFlags, workDir } from '../options.js';
import { paint, printJson } from '../output.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check git, the model, the index, hooks and config; each problem comes with a fix')
    .option('--json', 'print the checks as JSON')
    .option('--verify', "also hold every chunk of HEAD's index to git: texts, breadcrumbs, words and vectors, each embedded again (as long as indexing); exit 4 on a problem")
    .action(async (opts: { json?: boolean; verify?: boolean }, cmd: Command) => {
      const checks: (Check | IndexVerification)[] = await doctor(workDir(cmd), configFlags(cmd));
      if (opts.verify) checks.push(await verifyIndex(workDir(cmd), configFlags(cmd)));
      if (checks.some((c) => c.status === 'fail')) process.exitCode = checks.some((c) => c.name === 'verify' && c.status === 'fail') ? 4 : 1;
      if (opts.json) return printJson(checks);
      const p = paint(process.stdout);
      const mark = { ok: p.green('ok  '), warn: p.yellow('warn'), fail: p.red('FAIL') };
      for (const c of checks) {
        console.log(`${mark[c.status]}  ${c.name.padEnd(12)} ${c.detail}`);
        if ('problems' in c) for (const problem of c.problems.slice(1)) console.log(`      ${' '.repeat(12)} ${problem}`);
        if (c.fix) console.log(`      ${' '.repeat(12)} ${p.dim('fix: ' + c.fix)}`);
      }
    });
}

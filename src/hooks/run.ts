// What hooks/ocrag-hook.sh (the hook blocks of earlier versions) starts: `ocrag hook <name> [args…]` without the CLI around it (commander and the
// command table), so a run with nothing to do costs little more than starting node. Never fails.
import { runHook } from '../workspace/hook.js';

const [hook = '', ...args] = process.argv.slice(2);
await runHook(process.cwd(), hook, args);

// The front door of a fired git hook, apart from the rest so that a hook with nothing to do loads only what it needs.
export { runHook } from '../service/hook-run.js';

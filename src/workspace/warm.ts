// The warm path of a one-shot `ocrag search`: the CLI asks a running server of the repository (MCP, panel,
// `ocrag watch`) instead of loading the index and model again; see src/session/warm/. The asking side alone is
// src/workspace/search-ask.ts.
export { askWarmServer, type WarmAsk } from './search-ask.js';
export { listenWarm, type WarmAnswer, type WarmListener } from '../session/warm/server.js';

// What a one-shot `ocrag search` needs before it knows whether a running server answers it: the checks of its
// question and the warm path's client. Apart from types.ts and warm.ts, whose other exports (the index's progress,
// the warm server) would come with them into the start-up of every search (issue 31).
export { askWarmServer, type WarmAsk } from '../session/warm/client.js';
export { DEFAULT_MIN_MATCH } from '../search/relevance.js';
export { checkQueryLength, MAX_QUERY_CHARS_TEXT } from '../search/query-limit.js';
export { cacheRoot } from '../config/environment.js';

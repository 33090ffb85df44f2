import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Root of ocrag's per-user cache: `$OCRAG_CACHE`, else `$XDG_CACHE_HOME/ocrag`, else `~/.cache/ocrag`. */
export function cacheRoot(): string {
  if (process.env.OCRAG_CACHE) return resolve(process.env.OCRAG_CACHE);
  const xdg = process.env.XDG_CACHE_HOME;
  return resolve(xdg && xdg.length > 0 ? xdg : join(homedir(), '.cache'), 'ocrag');
}

import type { CodeIndex } from '../../service/code-index.js';
import { listManifests } from '../../store/manifest.js';
import type { SessionOptions } from '../session-options.js';
import { listenWarm, type WarmAnswer, type WarmListener } from './server.js';

export type { WarmListener } from './server.js';

/** Listens for one-shot searches of the repository an open index serves; null when it cannot (server.ts). */
export function listenForIndex(index: CodeIndex, options: SessionOptions, answer: WarmAnswer): Promise<WarmListener | null> {
  const { ctx } = index;
  return listenWarm({ root: ctx.repo.root, indexDir: ctx.layout.dir, flags: options.flags ?? {}, model: ctx.config.model, answer, log: options.log }).catch(() => null);
}

/**
 * Whether a server answers the CLI the CLI's way: not in a clone with no index yet and a team remote, whose first
 * search answers from the team's set and starts a copy that outlives the CLI (service/remote-first-answer.ts).
 */
export function cliMayAsk(index: CodeIndex): boolean {
  return !index.ctx.config.remote || listManifests(index.ctx.layout.manifests).length > 0;
}

// OpenCode as the tests run it: the project's own copy, offline, in a home of its own.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, tempDir } from '../helpers.js';

export const OPENCODE = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'opencode');

/**
 * OpenCode installs `@opencode-ai/plugin` into `.opencode/node_modules` itself when it starts (from the npm registry);
 * offline, the project's own copy of the same package stands in for that install.
 */
export function linkPluginPackage(repo: string): void {
  const dir = path.join(repo, '.opencode', 'node_modules', '@opencode-ai');
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules', '@opencode-ai', 'plugin'), path.join(dir, 'plugin'));
}

/** A home of its own, so OpenCode never reads or writes the user's config; npm offline, so it never downloads. */
export function offlineEnv(): NodeJS.ProcessEnv {
  const home = tempDir('opencode-home');
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    npm_config_offline: 'true',
    npm_config_registry: 'http://127.0.0.1:9/',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
}


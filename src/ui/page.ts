import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Reply, Route } from './http-server.js';

/**
 * The page's files, found beside this module's folder: src/ui/static when run from source, dist/ui/static after
 * the build (which copies them; the bundled CLI in dist/cli/ reaches the same folder by the same path).
 */
const STATIC = new URL('../ui/static/', import.meta.url);

/** The panel page: one HTML answer with its style and script inline, allowed to run by a nonce of its own. */
export function pageRoute(): Route {
  const [html, style, script] = ['index.html', 'panel.css', 'panel.js'].map((name) => fs.readFileSync(new URL(name, STATIC), 'utf8'));
  return { method: 'GET', path: '/', page: true, handle: async () => page(html, style, script) };
}

function page(html: string, style: string, script: string): Reply {
  const nonce = randomBytes(16).toString('base64');
  const parts: Record<string, string> = { __NONCE__: nonce, __STYLE__: style, __SCRIPT__: script };
  return {
    html: html.replace(/__(NONCE|STYLE|SCRIPT)__/g, (name) => parts[name]),
    headers: {
      // Only our own inline style and script run, and the page talks to this server alone.
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  };
}

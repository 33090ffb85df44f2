import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Reply, Route } from './http-server.js';

/**
 * The page's files, found beside this module's folder: src/ui/static when run from source, dist/ui/static after
 * the build (which copies them; the bundled CLI in dist/cli/ reaches the same folder by the same path).
 */
const STATIC = new URL('../ui/static/', import.meta.url);
/** The page's script, in this order, as one inline script: the highlighters and the root switcher first, then the page that uses them. */
const SCRIPTS = ['highlight.js', 'roots.js', 'panel.js'];

/** The panel page: one HTML answer with its style and script inline, allowed to run by a nonce of its own. */
export function pageRoute(): Route {
  const read = (name: string) => fs.readFileSync(new URL(name, STATIC), 'utf8');
  const [html, style] = ['index.html', 'panel.css'].map(read);
  const script = SCRIPTS.map(read).join('\n');
  return { method: 'GET', path: '/', page: true, handle: async () => page(html, style, script) };
}

/**
 * What a browser asks for by itself on every load, without the token: nothing (204), never a 401 in the console.
 * The page names its icon inline (a data: address), so a browser showing it asks for no file at all.
 */
export function iconRoute(): Route {
  return { method: 'GET', path: '/favicon.ico', public: true, handle: async () => ({ status: 204, empty: true }) };
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

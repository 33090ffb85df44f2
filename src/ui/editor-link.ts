import fs from 'node:fs';
import path from 'node:path';
import type { SearchResult, SourceSpec } from '../workspace/types.js';

type Located = Pick<SearchResult, 'path' | 'quotedPath' | 'absolutePath' | 'quotedAbsolutePath'>;

/**
 * Where a result's file is on disk: under the repository's root (or the plain folder's), or for a file of an
 * added source (`notes:on-call.md`) under that source's folder, or the source itself when it is one file. Null
 * when its exact name is unknown (a name that is not valid UTF-8 is shown with U+FFFD) or its source is gone.
 */
export function absolutePathOf(result: Located, root: string, sources: readonly SourceSpec[]): string | null {
  if (result.quotedPath !== undefined || result.quotedAbsolutePath !== undefined) return null;
  if (result.absolutePath !== undefined) return result.absolutePath;
  const colon = result.path.indexOf(':');
  const source = colon > 0 ? sources.find((s) => s.name === result.path.slice(0, colon)) : undefined;
  if (!source) return path.join(root, result.path);
  return isFile(source.root) ? source.root : path.join(source.root, result.path.slice(colon + 1));
}

/**
 * The address that opens a file at a line in the user's editor: the config's `editorLink` with `{path}` and
 * `{line}` filled in. `{path}` is the absolute path with `/` between its parts, each part URL-encoded (a space, `#`
 * or `?` in a name cannot end the path early). Right after a single `/` of the template its own leading `/` is
 * dropped, so `vscode://file/{path}:{line}` gives `vscode://file/home/me/repo/src/a.ts:12` (and
 * `vscode://file/C:/repo/a.ts:12` on Windows), while `file://{path}` gives `file:///home/me/repo/src/a.ts`.
 */
export function editorLink(template: string, absolute: string, line: number): string {
  const encoded = absolute
    .split(/[\\/]/)
    .map((part, i) => (i === 0 && /^[A-Za-z]:$/.test(part) ? part : encodeURIComponent(part)))
    .join('/');
  return template.replace(/\{(path|line)\}/g, (_field, name: string, at: number) => {
    if (name === 'line') return String(line);
    const afterOneSlash = template[at - 1] === '/' && template[at - 2] !== '/';
    return afterOneSlash && encoded.startsWith('/') ? encoded.slice(1) : encoded;
  });
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

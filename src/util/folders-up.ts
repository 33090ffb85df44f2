import path from 'node:path';

/** The nearest folder from `dir` up to the file system's root (itself first) that `holds` says yes to, or null. */
export function nearestFolderUp(dir: string, holds: (folder: string) => boolean): string | null {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (holds(at)) return at;
    if (path.dirname(at) === at) return null;
  }
}

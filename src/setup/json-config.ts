import { OcragError } from '../util/errors.js';

type Json = Record<string, unknown>;

/**
 * Puts `value` at `keys` inside a JSON config file's text, keeping every other key (and their order) as it was.
 * An unreadable file is never overwritten: the user gets the entry to add by hand instead.
 */
export function mergeJsonEntry(existing: string | null, file: string, keys: string[], value: unknown, seed: Json = {}): string {
  let root: Json = { ...seed };
  if (existing !== null && existing.trim() !== '') {
    try {
      root = JSON.parse(existing) as Json;
    } catch (e) {
      throw new OcragError(`${file} is not valid JSON (${(e as Error).message}); fix it, or add this by hand under ${keys.join(' → ')}:\n${JSON.stringify(value, null, 2)}`);
    }
    if (!isObject(root)) throw new OcragError(`${file} does not hold a JSON object; add this by hand under ${keys.join(' → ')}:\n${JSON.stringify(value, null, 2)}`);
  }
  let node = root;
  for (const key of keys.slice(0, -1)) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Json;
  }
  node[keys[keys.length - 1]] = value;
  return JSON.stringify(root, null, 2) + '\n';
}

/**
 * Takes the entry at `keys` out of a JSON config's text, and the objects on its path it leaves empty; null when
 * nothing but the seed's keys is left (setup created the file: removing it leaves the project as it was).
 */
export function removeJsonEntry(existing: string, file: string, keys: string[], seed: Json = {}): string | null {
  let root: unknown;
  try {
    root = JSON.parse(existing);
  } catch (e) {
    throw new OcragError(`${file} is not valid JSON (${(e as Error).message}); remove ${keys.join(' → ')} from it by hand`);
  }
  if (!isObject(root)) throw new OcragError(`${file} does not hold a JSON object; remove ${keys.join(' → ')} from it by hand`);
  const path: Json[] = [root];
  for (const key of keys.slice(0, -1)) {
    const next = path[path.length - 1][key];
    if (!isObject(next)) return existing;
    path.push(next);
  }
  if (!(keys[keys.length - 1] in path[path.length - 1])) return existing;
  delete path[path.length - 1][keys[keys.length - 1]];
  for (let depth = path.length - 1; depth > 0 && Object.keys(path[depth]).length === 0; depth--) delete path[depth - 1][keys[depth - 1]];
  if (Object.keys(root).every((key) => key in seed && JSON.stringify(root[key]) === JSON.stringify(seed[key]))) return null;
  return JSON.stringify(root, null, 2) + '\n';
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonObject(text: string | null): Json | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

import fs from 'node:fs';

/**
 * The JSON a file holds, or undefined when it is absent, unreadable or not JSON: for files ocrag can do
 * without (model configs, sidecars, caches). Never throws; the shape is the caller's to check.
 */
export function readJson<T = Record<string, unknown>>(file: string): T | undefined {
  return readJsonOr<T | undefined>(file, undefined);
}

/** As readJson, with `fallback` when the file cannot be read or parsed (a file holding `null` gives null). */
export function readJsonOr<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

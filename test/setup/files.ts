import fs from 'node:fs';
import path from 'node:path';
import { git, tempDir } from '../helpers.js';

/** A fresh, empty git repository for the setup tests to write agent configs into. */
export function emptyRepo(prefix: string): string {
  const dir = tempDir(prefix);
  git(dir, 'init', '-q');
  return dir;
}

export const read = (repo: string, file: string) => fs.readFileSync(path.join(repo, file), 'utf8');
export const readJson = (repo: string, file: string) => JSON.parse(read(repo, file)) as Record<string, any>;
export const write = (repo: string, file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
};

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tempDir as sharedTempDir } from '../helpers.js';
import { buildDefaultModel, DEFAULT_MODEL_ID } from '../../src/embed/index.js';
import { recipeFingerprint } from '../../src/embed/recipe/fingerprint.js';

/** A temporary directory removed when the test process exits (test/helpers.ts). */
export const tempDir = (prefix: string): string => sharedTempDir(`embed-${prefix}`);

/** Points this test process at a fresh, empty model cache. */
export function useFreshCache(): string {
  const dir = tempDir('cache');
  process.env.OCRAG_CACHE = dir;
  return dir;
}

/**
 * The real default model, built once per recipe and shared by all test files: a fixed folder keyed
 * by the recipe fingerprint, built under the cache's own lock (concurrent test files wait for the
 * first one, then reuse its atomically installed result).
 */
export async function sharedDefaultModel(): Promise<string> {
  const sharedCache = path.join(os.tmpdir(), `ocrag-embed-test-model-${recipeFingerprint()}`);
  const previous = process.env.OCRAG_CACHE;
  process.env.OCRAG_CACHE = sharedCache;
  try {
    return await buildDefaultModel();
  } finally {
    if (previous === undefined) delete process.env.OCRAG_CACHE;
    else process.env.OCRAG_CACHE = previous;
  }
}

/** A fresh cache that already holds a copy of the default model (no build in this test file). */
export async function freshCacheWithDefaultModel(): Promise<string> {
  const source = await sharedDefaultModel();
  const cache = useFreshCache();
  fs.cpSync(source, path.join(cache, 'models', ...DEFAULT_MODEL_ID.split('/')), { recursive: true, preserveTimestamps: true });
  return cache;
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

export function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

/** Every file under `dir` with its size, for "nothing changed" assertions. */
export function snapshot(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return `${path.relative(dir, full)}${e.isDirectory() ? '/' : `:${fs.statSync(full).size}`}`;
    })
    .sort();
}

export const CODE_SNIPPETS: Record<string, string> = {
  argv: `function parseArgs(argv) {
  const opts = { _: [] };
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) { const [k, v] = a.slice(2).split('='); opts[k] = v ?? argv[++i]; }
    else if (a.startsWith('-')) { opts[a.slice(1)] = true; }
    else opts._.push(a);
  }
  return opts;
}
const options = parseArgs(process.argv);`,
  css: `export function rgbToCss({ r, g, b }: Rgb, alpha = 1): string {
  const hex = [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
  return alpha < 1 ? \`rgba(\${r}, \${g}, \${b}, \${alpha})\` : \`#\${hex}\`;
}`,
  color: `export function hexToRgb(hex: string): { r: number; g: number; b: number } | null {
  const m = /^#?([a-f\\d]{2})([a-f\\d]{2})([a-f\\d]{2})$/i.exec(hex);
  return m ? { r: parseInt(m[1], 16), g: parseInt(m[2], 16), b: parseInt(m[3], 16) } : null;
}`,
  sql: `async function getUserById(db, id) {
  const rows = await db.query('SELECT id, name, email FROM users WHERE id = $1', [id]);
  return rows[0] ?? null;
}`,
  hash: `import crypto from 'node:crypto';
export function sha256File(buf) {
  return crypto.createHash('sha256').update(buf).digest('hex');
}`,
  debounce: `function debounce(fn, wait) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), wait); };
}`,
  pyjson: `def load_settings(path):
    with open(path, "r", encoding="utf-8") as fh:
        data = json.load(fh)
    return Settings(**data)`,
  gohealth: `func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(map[string]string{"status": "ok"})
}`,
  rustlines: `fn read_lines(path: &Path) -> io::Result<Vec<String>> {
    let file = File::open(path)?;
    BufReader::new(file).lines().collect()
}`,
  lru: `class LRUCache {
  constructor(max) { this.max = max; this.map = new Map(); }
  get(k) { if (!this.map.has(k)) return undefined; const v = this.map.get(k); this.map.delete(k); this.map.set(k, v); return v; }
  set(k, v) { this.map.delete(k); this.map.set(k, v); if (this.map.size > this.max) this.map.delete(this.map.keys().next().value); }
}`,
};

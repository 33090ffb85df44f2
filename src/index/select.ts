import picomatch from 'picomatch';
import type { Config } from '../config/config.js';
import { shownPath } from '../git/path-key.js';
import type { TreeEntry } from '../git/tree.js';
import { isPdf } from '../chunk/pdf.js';
import { binaryKind } from './magic.js';
import { legacyChineseText } from '../text/legacy-encoding.js';
import { testSeams } from '../util/test-seams.js';
import type { ContentSkipReason } from '../store/blob-state.js';
import type { SkipReason } from '../store/manifest.js';

export interface Selection {
  files: TreeEntry[];
  skipped: { path: string; reason: SkipReason }[];
}

// `.bin` and `.dat` say nothing of what a file holds (a PDF, a text export, firmware): their first bytes decide.
const BINARY_EXTENSIONS = new Set(
  ('png jpg jpeg gif bmp ico icns webp tiff psd ai sketch zip gz tgz bz2 xz zst 7z rar jar war ear class so dylib dll exe o a lib obj ' +
    'wasm woff woff2 ttf otf eot mp3 mp4 m4a mov avi mkv webm wav ogg flac db sqlite sqlite3 pyc pyo npy npz pkl onnx pt pth safetensors ' +
    'parquet arrow lance gguf iso dmg deb rpm apk ipa')
    .split(' '),
);
const LOCK_FILES = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lockb', 'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'go.sum', 'composer.lock', 'Gemfile.lock', 'uv.lock', 'flake.lock']);
const GENERATED = picomatch(['*.min.js', '*.min.css', '*.map', '*.min.mjs', '*.bundle.js'], { basename: true, dot: true });
/** Files that very likely hold credentials: never embedded, even when committed. */
const SECRETS = picomatch(
  ['.env', '.env.*', '*.env', '*.pem', '*.key', '*.p12', '*.pfx', '*.jks', '*.keystore', 'id_rsa*', 'id_dsa*', 'id_ecdsa*', 'id_ed25519*', '.npmrc', '.pypirc', '.netrc', '.pgpass', '.htpasswd', 'credentials', 'credentials.*', '*.kdbx', 'secrets.y*ml', '*.secret', '*.secrets'],
  { basename: true, dot: true },
);

function globMatcher(globs: string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  // A glob without "/" names a file anywhere (like .gitignore); with "/" it is matched against the whole path.
  const byName = globs.filter((g) => !g.includes('/'));
  const byPath = globs.filter((g) => g.includes('/'));
  const name = byName.length ? picomatch(byName, { basename: true, dot: true }) : () => false;
  const full = byPath.length ? picomatch(byPath.map((g) => g.replace(/^\//, '')), { dot: true }) : () => false;
  return (p) => name(p) || full(p);
}

/** Decides from path, mode and size alone which entries are worth reading. Pure. */
export function selectFiles(entries: TreeEntry[], config: Config): Selection {
  const excluded = globMatcher(config.exclude);
  const included = config.include.length ? globMatcher(config.include) : () => true;
  const files: TreeEntry[] = [];
  const skipped: Selection['skipped'] = [];
  for (const entry of entries) {
    const reason = pathSkipReason(entry, config, excluded, included);
    if (reason) skipped.push({ path: entry.path, reason });
    else files.push(entry);
  }
  return { files, skipped };
}

function pathSkipReason(entry: TreeEntry, config: Config, excluded: (p: string) => boolean, included: (p: string) => boolean): SkipReason | null {
  if (entry.kind === 'symlink') return 'symlink';
  if (entry.kind === 'submodule') return 'submodule';
  if (entry.kind === 'unfetched') return 'not fetched';
  if (entry.kind === 'other') return 'binary';
  // Globs and names are matched as people read the path: a quoted key (`"id_rsa\377"`) must not slip past `id_rsa*`.
  const path = shownPath(entry.path);
  if (excluded(path)) return 'excluded';
  if (!included(path)) return 'not included';
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (config.skipSecrets && SECRETS(base)) return 'secret';
  if (LOCK_FILES.has(base)) return 'lock file';
  if (GENERATED(base)) return 'generated';
  const dot = base.lastIndexOf('.');
  if (dot > 0 && BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase())) return 'binary';
  if (entry.size > (PDF_PATH.test(base) ? Math.max(config.maxFileBytes, MAX_PDF_BYTES) : config.maxFileBytes)) return 'too large';
  return null;
}

const PDF_PATH = /\.pdf$/i;
/** PDFs are mostly images and fonts around their text: a 300-page spec is ~5-20 MB, so they get a limit of their own. */
const MAX_PDF_BYTES = 32 * 1024 * 1024;

const LFS_POINTER = Buffer.from('version https://git-lfs.github.com/spec/');
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Decides from a blob's bytes whether it is indexable text; returns the text or why not. Pure. */
export function classifyContent(bytes: Buffer, maxLineChars: number): { text: string } | { pdf: true } | { reason: ContentSkipReason } {
  // A PDF is told by its header, whatever its name; its text is extracted page by page (chunk/pdf.ts).
  if (isPdf(bytes)) return { pdf: true };
  const kind = binaryKind(bytes);
  if (kind) return { reason: `binary (${kind})` };
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    // Windows tools write UTF-16 with a byte order mark; its ASCII half is all NUL bytes, yet it is text.
    const text = new TextDecoder(utf16).decode(bytes);
    return text.includes('\0') ? { reason: 'binary' } : isMinified(text, maxLineChars) ? { reason: 'minified' } : { text };
  }
  if (bytes.includes(0)) return { reason: 'binary' };
  if (bytes.length < 1024 && bytes.subarray(0, LFS_POINTER.length).equals(LFS_POINTER)) return { reason: 'lfs pointer' };
  // Not UTF-8 and read as GBK Chinese by its bytes alone (text/legacy-encoding.ts); else UTF-8 with U+FFFD for what is not.
  const text = (testSeams().utf8Only ? null : legacyChineseText(bytes)) ?? decoder.decode(bytes);
  if (isMinified(text, maxLineChars)) return { reason: 'minified' };
  return { text };
}

function utf16Encoding(bytes: Buffer): 'utf-16le' | 'utf-16be' | null {
  if (bytes.length < 2 || bytes.length % 2 !== 0) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** Most of the bytes sit on lines far longer than a person writes: bundled or generated output. */
function isMinified(text: string, maxLineChars: number): boolean {
  if (text.length < maxLineChars * 4) return false;
  let longChars = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > maxLineChars) longChars += end - start;
    start = end + 1;
  }
  return longChars > text.length / 2;
}

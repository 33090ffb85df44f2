// Texts to compare tokenizers on, gathered from files on this machine (nothing fetched): every text file of this
// repository's own folders, of several installed packages (JS, TS, markdown, JSON), the Chinese fixtures, and
// hand-written edge cases.
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../helpers.js';

/** Installed packages of several kinds: CLI parsing, glob matching, JSON schema, the MCP SDK, a schema library. */
export const CORPUS_PACKAGES = ['commander', 'picomatch', 'ajv', '@modelcontextprotocol/sdk', 'zod'];

/** Not this repository's own files: build output, caches, installed packages. */
const NOT_OURS = new Set(['.git', 'node_modules', 'dist', '.cache', '.scratch']);
const TOO_BIG = 2_000_000;

/** Every text file under `dir` (no NUL byte in its first 8 KB) outside folders named in `skip`, following symbolic links. */
export function textFilesUnder(dir: string, skip: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (folder: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(folder, e.name);
      const stat = fs.statSync(full, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (!skip.has(e.name)) walk(full);
      } else if (stat.isFile() && stat.size <= TOO_BIG) {
        const bytes = fs.readFileSync(full);
        if (!bytes.subarray(0, 8192).includes(0)) out.set(full, bytes.toString('utf8'));
      }
    }
  };
  walk(dir);
  return out;
}

/** This repository's own files: sources, tests, docs, fixtures (with the Chinese ones), the README. */
export function repositoryTexts(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ['src', 'test', 'docs', 'fixtures', 'bench']) for (const [file, text] of textFilesUnder(path.join(PROJECT_ROOT, dir), NOT_OURS)) out.set(file, text);
  out.set(path.join(PROJECT_ROOT, 'README.md'), fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8'));
  return out;
}

/** Every text file of the installed packages above, their built files (dist/) included. */
export function packageTexts(): Map<string, string> {
  const out = new Map<string, string>();
  const nested = new Set(['node_modules']);
  for (const name of CORPUS_PACKAGES) for (const [file, text] of textFilesUnder(path.join(PROJECT_ROOT, 'node_modules', name), nested)) out.set(file, text);
  return out;
}

const STAR = '\u2581';

/**
 * Inputs chosen for the places a tokenizer can go wrong: unknown characters (alone, in runs, across words and
 * sections), the unknown token's own character, combining marks, control characters, emoji and other astral
 * characters, whitespace the pre-tokenizer knows and the normaliser changes, the Metaspace character in the text,
 * mixed CJK and Latin identifiers, very long words, ties between paths of the Unigram lattice.
 */
export const EDGE_CASES: string[] = [
  '',
  ' ',
  '\n\t \r\n',
  'x',
  'naïve café',
  'e\u0301 combining, a\u0300\u0301\u0302 stacked, \u0301 leading mark, \u0301\u0301',
  'emoji 🎉🚀 done 👩‍👩‍👧 family 🏳️‍🌈 flag 1️⃣ keycap',
  '\uFFFD',
  '\uFFFD\uFFFD',
  'a\uFFFDb \uFFFD start\uFFFD',
  '☃☃☃ snow ☃ ☃☃',
  '☃ ☃',
  '☃\uFFFD☃',
  'ab☃☃cd ☃x☃',
  '䷀䷁䷂ hexagrams ䷀ ䷁',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝓶𝓪𝓽𝓱 𐍈𐌰 gothic',
  '\u0000nul \u0001\u0007\u001b[31mred\u001b[0m \u007f del \u0085 nel',
  'zero\u200bwidth\u200cjoiner\u200d and bom\ufeffhere',
  'nbsp\u00a0here, ideographic\u3000space, line\u2028sep, em\u2003space',
  'ＦＵＬＬ ｗｉｄｔｈ ＡＢＣａｂｃ１２３ ｶﾀｶﾅ ㍿ ﬁ ligature ①②',
  `${STAR}already ${STAR}${STAR} star${STAR}inside ${STAR}`,
  'snake_case_and_CamelCase HTTPServer x86_64 __dunder__ $jquery $$ _',
  'getHTTPResponseCode parseJSON2XML IOError iOS XMLHttpRequest',
  '数据库连接池 getUser获取用户 用户Service 中文identifier混合 parse解析JSON',
  '日本語のテキスト、カタカナ、ひらがな。한국어 텍스트',
  'ΣΊΣΥΦΟΣ ὈΔΥΣΣΕΎΣ final sigma Σ. İstanbul ẞ straße',
  'a'.repeat(3000),
  'supercalifragilisticexpialidocious'.repeat(200),
  `${'☃'.repeat(500)} ${'x☃'.repeat(300)}`,
  '\ud800 lone high, lone low \udc00, reversed \udc00\ud800',
  '¹²³ ½ ™ ℃ № Ⅻ ㈱ ㎏',
  'tab\tnew\nline\r\ncrlf\vvt\fff',
  'https://example.com/path?q=1&r=2#frag user@example.com 127.0.0.1:8080',
  '0x1F 1e-9 3.14159 1_000_000 -42 +7',
  '=== !== => <= >= ** ?? ?. :: -> <- |> <=>',
  // Paths through the same pieces in another order, whose scores differ in the last bit: the library's lattice
  // compares them after adding the next piece's score, where they can round equal (a markdown table rule, a hash).
  Array.from({ length: 64 }, (_, n) => `| :${'-'.repeat(n + 1)} | ${'='.repeat(n + 1)} ${'#'.repeat(n + 1)}`).join('\n'),
  'sha256 = "b666bacbbc60fbf415ba9988324a132c9a7a0448a9a8f125074671c0f2c3"',
];

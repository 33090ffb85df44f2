/**
 * The entries of a table of UI strings, as key path → value: `login: '登录'` under `menu: {` is `menu.login`;
 * `"menu.user.list": "用户列表"`, `menu.user.list=用户列表` (.properties, `\uXXXX` escapes read), YAML by its
 * indentation, `MSG_OK="确定"` in a shell table. Read line by line, nesting by indentation (every format the tables
 * are written in is indented as it nests); a line that opens a block (`user: {`, `user:`) names the keys below it.
 * Comments, multi-line values and gettext catalogues are left out. Pure.
 */
export function tableEntries(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  const parents: { indent: number; key: string }[] = [];
  for (const line of text.split('\n')) {
    const m = ENTRY.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    const key = m[2] ?? m[3] ?? m[4]!;
    while (parents.length && parents[parents.length - 1]!.indent >= indent) parents.pop();
    const rest = m[5]!.trim();
    if (rest === '' || /^[{[]\s*$/.test(rest)) {
      parents.push({ indent, key });
      continue;
    }
    const value = valueOf(rest);
    if (value) entries.set([...parents.map((p) => p.key), key].join('.'), value);
  }
  return entries;
}

/** Indentation, then a key quoted or bare (`login`, `'menu.user'`, `menu.user.list`, `export MSG`), then `:` or `=`. */
const ENTRY = /^(\s*)(?:export\s+|local\s+|readonly\s+)?(?:"([^"]+)"|'([^']+)'|([A-Za-z_$][\w$.-]*))\s*[:=]\s*(.*)$/;

/** A written value: quotes, a trailing comma or semicolon and `\uXXXX` escapes undone; empty for code or a nested value. */
function valueOf(rest: string): string {
  let v = withoutEnding(withoutTrailingComment(rest));
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(v);
  if (quoted) v = quoted[2]!;
  else if (/^[{[(]|=>|\bfunction\b/.test(v)) return '';
  return v.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).trim();
}

/**
 * `rest` without a `//` or `#` comment after its last quote. Scanned, not matched by a pattern: a pattern that may
 * start anywhere in a line of spaces is quadratic in the line, and a table's lines are the tree's, so hostile
 * (one line of 160,000 spaces took two minutes).
 */
function withoutTrailingComment(rest: string): string {
  const lastQuote = Math.max(rest.lastIndexOf("'"), rest.lastIndexOf('"'), rest.lastIndexOf('`'));
  const slashes = rest.indexOf('//', lastQuote + 1);
  const hash = rest.indexOf('#', lastQuote + 1);
  const at = slashes < 0 ? hash : hash < 0 ? slashes : Math.min(slashes, hash);
  return at < 0 ? rest : rest.slice(0, at).trimEnd();
}

/** `rest` without one trailing comma or semicolon and the spaces around it. */
function withoutEnding(rest: string): string {
  const v = rest.trimEnd();
  return v.endsWith(',') || v.endsWith(';') ? v.slice(0, -1).trimEnd() : v;
}

/** Language codes a table of Chinese strings is named by, as path tokens: `zh`, `zh-CN`, `zh_Hans`, `cn`. */
const CHINESE_TOKEN = /(^|[/_.-])(zh(?:[-_](?:cn|hans|hant|tw|hk|sg))?|cn)(?=[/_.-])/gi;
/** How projects name the English table beside a Chinese one. */
const ENGLISH_TOKENS = ['en', 'en-US', 'en_US', 'en-us', 'en_us', 'en-GB'];

/**
 * Paths the English table beside a table at `path` may have: its language code replaced by English's
 * (`lang/modules/zh.ts` → `lang/modules/en.ts`, `zh-CN.json` → `en-US.json`), or dropped where the English table
 * is the default (`messages_zh_CN.properties` → `messages.properties`).
 */
export function englishSiblings(path: string): string[] {
  const out = new Set<string>();
  for (const en of ENGLISH_TOKENS) out.add(path.replace(CHINESE_TOKEN, (_, before: string) => `${before}${en}`));
  out.add(path.replace(/[_-](?:zh(?:[-_](?:cn|hans|hant|tw|hk|sg))?|cn)(?=\.\w+$)/i, ''));
  out.delete(path);
  return [...out];
}

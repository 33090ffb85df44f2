// The panel's two highlighters, for code that is hostile input: syntax (keywords, strings, comments, numbers,
// type names) and the query's words. Both cut text into pieces and return them as strings with a class; the page
// turns them into text nodes and spans. Nothing here makes or parses HTML.
'use strict';
const Highlight = (() => {
  const KEYWORDS = new Set(('abstract and as assert async await break case catch class const continue def default defer del delete do elif else ' +
    'enum except export extends extern false final finally fn for foreach from func function go goto if impl implements import in ' +
    'instanceof interface is lambda let loop match mod module mut namespace new nil none None not null object or package pass private ' +
    'protected pub public raise readonly return self Self static struct super switch this throw throws trait true True False try type ' +
    'typeof undefined unless unsafe use using var void when where while with yield fi then esac done elsif end begin local val fun').split(' '));
  const SQL_KEYWORDS = new Set(('select from where join left right inner outer on group by order having limit offset insert into values update ' +
    'set delete create table index view drop alter add primary key foreign references not null and or as distinct union all case when ' +
    'then else end begin commit rollback with returning in is like exists between').split(' '));
  // Comment and string syntax by language family (the names the chunker records, src/chunk/languages.ts).
  const C_LIKE = { line: ['//'], blocks: [['/*', '*/', 'c']] };
  const HASH = { line: ['#'], blocks: [] };
  const FAMILIES = {
    javascript: { line: ['//'], blocks: [['/*', '*/', 'c'], ['`', '`', 's']] },
    python: { line: ['#'], blocks: [['"""', '"""', 's'], ["'''", "'''", 's']] },
    go: { line: ['//'], blocks: [['/*', '*/', 'c'], ['`', '`', 's']] },
    // 'a is a lifetime, 'x' and '\n' characters.
    rust: { line: ['//'], blocks: [['/*', '*/', 'c']], quote: (line, i) => line[i + 1] === '\\' || line[i + 2] === "'" || line[i + 3] === "'" },
    sql: { line: ['--'], blocks: [['/*', '*/', 'c']], keywords: SQL_KEYWORDS, caseless: true },
    lua: { line: ['--'], blocks: [['--[[', ']]', 'c']] },
    haskell: { line: ['--'], blocks: [['{-', '-}', 'c']] },
    ocaml: { line: [], blocks: [['(*', '*)', 'c']] },
    fsharp: { line: ['//'], blocks: [['(*', '*)', 'c']] },
    markup: { line: [], blocks: [['<!--', '-->', 'c']], keywords: new Set() },
    json: { line: [], blocks: [], keywords: new Set(['true', 'false', 'null']) },
    erlang: { line: ['%'], blocks: [] },
    lisp: { line: [';'], blocks: [] },
    ini: { line: ['#', ';'], blocks: [], keywords: new Set(['true', 'false']) },
  };
  const ALIAS = {
    typescript: 'javascript', tsx: 'javascript', vue: 'javascript', svelte: 'javascript', astro: 'javascript', julia: 'python', elm: 'haskell',
    html: 'markup', xml: 'markup', latex: 'erlang', clojure: 'lisp', properties: 'ini',
  };
  const HASH_LANGUAGES = new Set(['ruby', 'bash', 'yaml', 'toml', 'r', 'perl', 'powershell', 'elixir', 'nim', 'make', 'cmake', 'dockerfile', 'starlark', 'nix', 'graphql', 'hcl']);
  /** Prose and tables: no syntax to show, only the query's words. */
  const PLAIN = new Set(['markdown', 'text', 'rst', 'asciidoc', 'csv', 'tsv', 'pdf']);
  const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/uy;
  const NUMBER = /0[xXoObB][\da-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?/y;
  const WORD_CHAR = /[\p{L}\p{N}_$]/u;

  function familyOf(language) {
    if (PLAIN.has(language)) return null;
    return FAMILIES[ALIAS[language] ?? language] ?? (HASH_LANGUAGES.has(language) ? HASH : C_LIKE);
  }

  /** The index of the unescaped `close` at or after `from`, or -1. */
  function closing(line, close, from) {
    for (let i = from; i < line.length; i++) {
      if (line[i] === '\\' && close !== '*/' && close !== '-->') i++;
      else if (line.startsWith(close, i)) return i;
    }
    return -1;
  }

  /**
   * One line cut into [text, class] pieces (class '' for plain text; k keyword, s string, c comment, n number, t a
   * type's name). `carry` is what the line before left open (a block comment, a multi-line string), and what this
   * line leaves open is returned with the pieces.
   */
  function tokens(line, language, carry) {
    const family = familyOf(language);
    if (!family) return { pieces: [[line, '']], carry: null };
    const keywords = family.keywords ?? KEYWORDS;
    const out = [];
    const push = (text, cls) => {
      const last = out[out.length - 1];
      if (last && last[1] === cls) last[0] += text;
      else out.push([text, cls]);
    };
    let i = 0;
    if (carry) {
      const end = closing(line, carry[1], 0);
      if (end < 0) return { pieces: [[line, carry[2]]], carry };
      push(line.slice(0, end + carry[1].length), carry[2]);
      i = end + carry[1].length;
    }
    while (i < line.length) {
      const before = i > 0 ? line[i - 1] : ' ';
      const comment = family.line.find((m) => line.startsWith(m, i) && (m !== '#' || /\s/.test(before) || i === 0));
      if (comment) {
        push(line.slice(i), 'c');
        break;
      }
      const block = family.blocks.find(([open]) => line.startsWith(open, i));
      if (block) {
        const end = closing(line, block[1], i + block[0].length);
        if (end < 0) {
          push(line.slice(i), block[2]);
          return { pieces: out, carry: block };
        }
        push(line.slice(i, end + block[1].length), block[2]);
        i = end + block[1].length;
        continue;
      }
      const ch = line[i];
      if (ch === '"' || (ch === "'" && !WORD_CHAR.test(before) && (family.quote?.(line, i) ?? true))) {
        // A string ends on its line: one left open (a Rust lifetime, an apostrophe) colours no more than that line.
        const end = closing(line, ch, i + 1);
        const stop = end < 0 ? line.length : end + 1;
        push(line.slice(i, stop), 's');
        i = stop;
        continue;
      }
      if (!WORD_CHAR.test(before)) {
        NUMBER.lastIndex = i;
        const number = /\d/.test(ch) && NUMBER.exec(line);
        if (number) {
          push(number[0], 'n');
          i += number[0].length;
          continue;
        }
        IDENTIFIER.lastIndex = i;
        const word = IDENTIFIER.exec(line);
        if (word) {
          const w = word[0];
          const cls = keywords.has(family.caseless ? w.toLowerCase() : w) ? 'k' : /^\p{Lu}\p{Ll}/u.test(w) && family !== FAMILIES.markup ? 't' : '';
          push(w, cls);
          i += w.length;
          continue;
        }
      }
      push(ch, '');
      i++;
    }
    return { pieces: out, carry: null };
  }

  const STOP_WORDS = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'are', 'be', 'how', 'what', 'where', 'which', 'does', 'do', 'with']);
  const HAN = /\p{Script=Han}+/gu;

  /** The query's words to mark in code: each word, the parts of a camelCase or snake_case name, each Chinese run and its character pairs. */
  function queryTerms(query) {
    const terms = new Set();
    for (const run of query.match(HAN) || []) {
      terms.add(run);
      for (let i = 0; i + 1 < run.length; i++) terms.add(run.slice(i, i + 2));
    }
    for (const word of query.replace(HAN, ' ').match(/[\p{L}\p{N}_$]+/gu) || []) {
      const wanted = (w) => !STOP_WORDS.has(w.toLowerCase());
      if (word.length >= 2 && wanted(word)) terms.add(word);
      for (const part of word.split(/_|(?<=[a-z0-9])(?=[A-Z])/)) if (part.length >= 3 && wanted(part)) terms.add(part);
    }
    return [...terms].sort((a, b) => b.length - a.length);
  }

  /** Where a name may be cut into words: its ends, around `_` and `$`, camelCase humps, and between letters and digits. */
  function boundaries(word) {
    const at = [0];
    for (let j = 1; j < word.length; j++) {
      const [a, b, c] = [word[j - 1], word[j], word[j + 1] ?? ''];
      if (/[_$]/.test(a) || /[_$]/.test(b) || (/[\p{Ll}\p{N}]/u.test(a) && /\p{Lu}/u.test(b)) || (/\p{Lu}/u.test(a) && /\p{Lu}/u.test(b) && /\p{Ll}/u.test(c)) || /\p{L}/u.test(a) !== /\p{L}/u.test(b)) at.push(j);
    }
    at.push(word.length);
    return at;
  }

  /**
   * A function cutting text into [text, marked] pieces: a query word is marked only as a whole word, or a whole
   * part of a name (`retry` in retryWithBackoff, `id` in user_id and userId, never in resident); Chinese, which has
   * no spaces between words, wherever its runs and pairs occur.
   */
  function marker(query) {
    const terms = queryTerms(query);
    const han = terms.filter((t) => /\p{Script=Han}/u.test(t));
    const words = new Set(terms.filter((t) => !han.includes(t)).map((t) => t.toLowerCase()));
    const hanPattern = han.length ? new RegExp(han.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gu') : null;
    const segment = /(\p{Script=Han}+)|((?:(?!\p{Script=Han})[\p{L}\p{N}_$])+)/gu;
    return (text) => {
      if (terms.length === 0) return [[text, false]];
      const out = [];
      let at = 0;
      const mark = (from, to) => {
        if (from > at) out.push([text.slice(at, from), false]);
        out.push([text.slice(from, to), true]);
        at = to;
      };
      for (const m of text.matchAll(segment)) {
        if (m[1] !== undefined) {
          if (hanPattern) for (const h of m[1].matchAll(hanPattern)) mark(m.index + h.index, m.index + h.index + h[0].length);
          continue;
        }
        if (words.size === 0) continue;
        const word = m[2];
        const cuts = boundaries(word);
        for (let i = 0; i < cuts.length - 1; ) {
          let j = cuts.length - 1;
          while (j > i && !words.has(word.slice(cuts[i], cuts[j]).toLowerCase())) j--;
          if (j > i) mark(m.index + cuts[i], m.index + cuts[j]);
          i = j > i ? j : i + 1;
        }
      }
      if (at < text.length) out.push([text.slice(at), false]);
      return out;
    };
  }

  return { tokens, marker, queryTerms };
})();

import { OcragError } from '../util/errors.js';
import { DEFAULT_MIN_MATCH } from '../workspace/search-ask.js';
import type { ValuedGlobalFlag } from './global-flags.js';
import { configOf, positiveInt, splitList, workDirOf, type GlobalOptions } from './options.js';
import { OUTPUT_FORMATS, parseMatch, parseScore, type SearchFlags, type SearchPlace } from './search-run.js';

/**
 * A plain `ocrag search` command line read without commander, for the quick entry (quick-search.ts): the same flags
 * as commands/search-command.ts and program.ts give it, read as commander reads them. Anything this does not read
 * with certainty is null, and the full program reads it: an unknown flag, help, `--`, a value that starts with "-"
 * (commander would take a global flag there), a global flag after `search` (commander reads those by rules of its
 * own), a bad value (its error is commander's to say).
 */
export interface SearchLine {
  words: string[];
  opts: SearchFlags;
  global: GlobalOptions;
}

type Setter<T> = (target: T, value: string) => void;

/** Exactly the global flags that take a value (global-flags.ts): one more there fails to compile until read here. */
const GLOBAL: Record<ValuedGlobalFlag, Setter<GlobalOptions>> = {
  '-C': (g, v) => (g.cwd = v),
  '--cwd': (g, v) => (g.cwd = v),
  '--model': (g, v) => (g.model = v),
  '--include': (g, v) => (g.include = splitList(v)),
  '--exclude': (g, v) => (g.exclude = splitList(v)),
  '--max-file-bytes': (g, v) => (g.maxFileBytes = positiveInt('--max-file-bytes')(v)),
};

const TOP_K: Setter<SearchFlags> = (o, v) => (o.topK = positiveInt('-k/--top-k', 1000)(v));

/** search's flags that take a value. */
const VALUED: Record<string, Setter<SearchFlags>> = {
  '-k': TOP_K,
  '--top-k': TOP_K,
  '--path': (o, v) => (o.path = v),
  '--min-score': (o, v) => (o.minScore = parseScore(v)),
  '--min-match': (o, v) => (o.minMatch = parseMatch(v)),
  '--source': (o, v) => (o.source = v),
  '--language': (o, v) => (o.language = v),
  '--format': (o, v) => {
    if (!(OUTPUT_FORMATS as readonly string[]).includes(v)) throw new OcragError(`--format ${v}`);
    o.format = v as SearchFlags['format'];
  },
  '--max-tokens': (o, v) => (o.maxTokens = positiveInt('--max-tokens')(v)),
};

/** search's flags that take none. */
const SWITCHES: Record<string, (o: SearchFlags) => void> = {
  '--no-update': (o) => (o.update = false),
  '--committed-only': (o) => (o.committedOnly = true),
  '--no-sources': (o) => (o.sources = false),
  '--json': (o) => (o.json = true),
  '--whole': (o) => (o.whole = true),
};

/** Where the line's search runs (`-C`, checked when first asked for) and with which global flags. */
export function linePlace(line: SearchLine): SearchPlace {
  return { dir: () => workDirOf(line.global.cwd), flags: configOf(line.global) };
}

/** `args`: the command line after node and the script. */
export function readSearchLine(args: string[]): SearchLine | null {
  const global: GlobalOptions = {};
  let i = 0;
  while (args[i] !== 'search') {
    const taken = args[i] === undefined ? null : takeValued(args, i, GLOBAL, global);
    if (taken === null) return null;
    i = taken;
  }
  // The defaults commander gives search's flags (commands/search-command.ts).
  const opts: SearchFlags = { topK: 10, minMatch: DEFAULT_MIN_MATCH, update: true, sources: true };
  const words: string[] = [];
  for (i++; i < args.length; ) {
    const arg = args[i];
    if (!arg.startsWith('-')) {
      words.push(arg);
      i++;
    } else if (Object.hasOwn(SWITCHES, arg)) {
      SWITCHES[arg](opts);
      i++;
    } else {
      const taken = takeValued(args, i, VALUED, opts);
      if (taken === null) return null;
      i = taken;
    }
  }
  return words.length ? { words, opts, global } : null;
}

/**
 * The flag at `i` with its value (`--flag value`, `--flag=value`, `-Xvalue`) set through its setter; the index
 * after it, or null when it is none of these flags, its value is missing or starts with "-", or is refused.
 */
function takeValued<T>(args: string[], i: number, setters: Record<string, Setter<T>>, target: T): number | null {
  const arg = args[i];
  let name = arg;
  let value: string | undefined;
  let next = i + 1;
  if (arg.startsWith('--') && arg.includes('=')) [name, value] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
  else if (/^-[^-]./.test(arg)) [name, value] = [arg.slice(0, 2), arg.slice(2)];
  else [value, next] = [args[i + 1], i + 2];
  const set = Object.hasOwn(setters, name) ? setters[name] : undefined;
  if (!set || value === undefined || value.startsWith('-')) return null;
  try {
    set(target, value);
  } catch {
    return null;
  }
  return next;
}

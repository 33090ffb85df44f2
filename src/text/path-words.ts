/** Words of paths: what a file's path says, and when a query word and a path word mean the same. Pure. */

import { BoundedMemo } from '../util/bounded-memo.js';
import { stem } from './stem.js';
import { splitIdentifier } from './terms.js';

/** A file name without its extensions (`router.d.ts` → router). */
export function fileStem(name: string): string {
  return name.replace(/\.d\.ts$/, '').replace(/(\.[A-Za-z0-9]+)+$/, '') || name;
}

/** A path segment's words: the whole segment (lower-case, no separators) and its identifier parts. */
export function segmentWords(segment: string): string[] {
  const whole = segment.toLowerCase().replace(/[^a-z0-9]/g, '');
  const parts = segment.split(/[^A-Za-z0-9]+/).flatMap(splitIdentifier).filter((p) => p.length > 1);
  return [...new Set([whole, ...parts].filter(Boolean))];
}

/** Short forms in paths and names; other prefixes of five letters or more match by rule (`serial`, `middle`). */
export const ABBREVIATIONS: ReadonlyMap<string, string> = new Map<string, string>(Object.entries({
  ctx: 'context', cfg: 'config', conf: 'config', fmt: 'format', msg: 'message', req: 'request', res: 'response', resp: 'response',
  err: 'error', db: 'database', str: 'string', num: 'number', ws: 'websocket', buf: 'buffer', val: 'value', fs: 'file',
  ptr: 'pointer', mw: 'middleware', cb: 'callback', fn: 'function', func: 'function', pkg: 'package', sched: 'scheduler',
  rt: 'runtime', repo: 'repository', impl: 'implementation', util: 'utility', auth: 'authentication', attr: 'attribute',
  init: 'initialize', addr: 'address', alloc: 'allocate', env: 'environment', param: 'parameter', arg: 'argument',
  gen: 'generate', lib: 'library', doc: 'documentation', info: 'information', spec: 'specification', exec: 'execute',
  proc: 'process', tmpl: 'template', dir: 'directory', sig: 'signal', conn: 'connection', cmd: 'command', ext: 'extension',
  de: 'deserialize', ser: 'serialize', sse: 'event', ident: 'identifier', expr: 'expression', stmt: 'statement',
  temp: 'temporary', tmp: 'temporary', perm: 'permission', cert: 'certificate', dup: 'duplicate', opt: 'option', prev: 'previous',
  len: 'length', idx: 'index', obj: 'object', elem: 'element', seq: 'sequence', char: 'character', col: 'column', hdr: 'header',
  img: 'image', pos: 'position', dst: 'destination', mgr: 'manager', svc: 'service', srv: 'server', lang: 'language',
  pwd: 'password', calc: 'calculate', cmp: 'compare', iter: 'iterator',
}));

const normals = new BoundedMemo<string, string>(100_000);

/** A word's normal form: abbreviations spelled out (`ctx` → context), then stemmed. */
export function normalWord(word: string): string {
  return normals.get(word, normalize);
}

function normalize(word: string): string {
  const w = word.toLowerCase();
  return stem(ABBREVIATIONS.get(w) ?? ABBREVIATIONS.get(stem(w)) ?? w);
}

/** Whether two path or query words meet: the same normal form, or one a prefix (five letters or more) of the other. */
export function wordsMatch(keyword: string, word: string): boolean {
  if (keyword === word) return true;
  if (keyword.length < 2 || word.length < 2) return false;
  return normalsMatch(normalWord(keyword), normalWord(word));
}

export function normalsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter.length >= 5 && longer.startsWith(shorter);
}

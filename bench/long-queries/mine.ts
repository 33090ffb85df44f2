// Makes one long-query file from a local clone: node --import tsx bench/long-queries/mine.ts CLONE owner/name [MAX]
//
// Each commit in the history of the clone's HEAD (the pinned revision R) whose message body is long (≥ 200
// characters) and that changed 1–4 non-test source files still at R becomes a query (subject + body) whose
// targets are those files, when the change still shows there: a quarter of the lines it added to each file are
// in that file at R (commander's index.js still exists, but its code moved to lib/ long ago). Written to bench/long-queries/<name>.json: the queries and paths only, no code.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIN_BODY = 200;
const MAX_FILES = 4;
/** Longer messages are rare and would each count as one query anyway; 10,000 is the longest query the set tests. */
const MAX_QUERY = 10_000;
const SOURCE = /\.(go|py|rs|js|mjs|cjs|ts|tsx|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|scala|ex|exs|lua|zig|sh)$/;
const NOT_SOURCE = /(^|\/)(tests?|testing|testdata|__tests__|spec|specs|fixtures?|examples?|benches|benchmarks?|docs?|vendor|third_party)\//i;
const TEST_FILE = /(_test\.go|(^|\/)test_[^/]*\.py|_test\.py|\.(test|spec)(-d)?\.[jt]sx?|_spec\.rb|Tests?\.(java|kt|cs|swift))$/;
/** Added lines shorter than this (`}`, `return nil`) are in every file and say nothing about where code went. */
const MIN_LINE = 12;
const MIN_SURVIVING = 0.25;
const NOT_A_FIX = /^(bump|release|chore\(deps\)|update (sponsors|changelog|deps)|merge )/i;

function git(repo: string, args: string[]): string {
  return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export interface LongQuery {
  commit: string;
  query: string;
  targets: string[];
}

function mine(repo: string, max: number): { revision: string; queries: LongQuery[] } {
  const revision = git(repo, ['rev-parse', 'HEAD']).trim();
  const atR = new Set(git(repo, ['ls-tree', '-r', '--name-only', revision]).split('\n').filter(Boolean));
  const queries: LongQuery[] = [];
  const log = git(repo, ['log', '--no-merges', '--format=%x00%H%x01%B%x02', '--name-only', revision]);
  for (const record of log.split('\0').slice(1)) {
    const [commit, rest] = record.split('\x01');
    const [message, names] = rest!.split('\x02');
    const lines = message!.trim().split('\n');
    const subject = lines[0]!.trim();
    const body = lines.slice(1).filter((l) => !/^(Signed-off-by|Co-authored-by|Reviewed-on|Reviewed-by|Run-TryBot|TryBot-Result|Auto-Submit|LUCI-TryBot-Result|Change-Id):/i.test(l.trim())).join('\n').trim();
    if (body.length < MIN_BODY || NOT_A_FIX.test(subject)) continue;
    const changed = names!.split('\n').map((n) => n.trim()).filter(Boolean);
    const sources = changed.filter((p) => SOURCE.test(p) && !NOT_SOURCE.test(p) && !TEST_FILE.test(p));
    if (!sources.length || sources.length > MAX_FILES || !sources.every((p) => atR.has(p))) continue;
    if (!sources.every((p) => changeSurvives(repo, commit!.trim(), revision, p))) continue;
    queries.push({ commit: commit!.trim(), query: `${subject}\n\n${body}`.slice(0, MAX_QUERY), targets: sources });
    if (queries.length >= max) break;
  }
  return { revision, queries };
}

/** Whether the lines a commit added to a file are still, for the most part, in that file at R. */
function changeSurvives(repo: string, commit: string, revision: string, file: string): boolean {
  const diff = git(repo, ['show', '--format=', '--unified=0', commit, '--', file]);
  const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1).trim()).filter((l) => l.length >= MIN_LINE);
  if (!added.length) return true;
  const atR = new Set(git(repo, ['show', `${revision}:${file}`]).split('\n').map((l) => l.trim()));
  return added.filter((l) => atR.has(l)).length >= MIN_SURVIVING * added.length;
}

const [clone, name, max] = process.argv.slice(2);
if (!clone || !name || !/^[\w.-]+\/[\w.-]+$/.test(name)) {
  process.stderr.write('usage: mine.ts CLONE owner/name [MAX]\n');
  process.exit(2);
}
const { revision, queries } = mine(path.resolve(clone), Number(max ?? 40));
const out = path.join(path.dirname(fileURLToPath(import.meta.url)), `${name.split('/')[1]}.json`);
fs.writeFileSync(out, JSON.stringify({ repo: name, revision, queries }, null, 2) + '\n');
process.stdout.write(`${name}@${revision.slice(0, 12)}: ${queries.length} queries → ${out}\n`);

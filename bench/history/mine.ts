// Makes one commit-history set from a fetched copy of a public repository:
//
//   node --import tsx bench/history/mine.ts owner/name [--months 12] [--max 150] [--snapshot REV] [--until REV]
//
// The snapshot is the first-parent commit --months before the copy's HEAD (or --snapshot); questions are the commits
// after it (to HEAD, or --until) whose subject says what was done and whose answers (the source files they
// modified, 1 to 8) are all at the snapshot under the same path. One snapshot per repository, not each question's
// parent: indexing a tree costs 5–60 s, so one index per repository keeps a run of 30 repositories within minutes
// where ~150 parents each would take hours; the price is that a file may have changed between the snapshot and the
// commit, which a person asking about the snapshot also faces. Commits that add or delete source files are left
// out (their answer is partly a file the snapshot lacks). Past --max, the earliest commits are kept: the nearer a
// commit is to the snapshot, the more of the code it was about is there (a slow repository needs a longer window,
// and a question five years on may ask about a function the snapshot lacks).
// Writes bench/history/sets/<owner>__<name>.json (subjects and paths only) and prints what each filter removed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { cleanSubject, isAnswerPath, namesAnswerPath, subjectLanguage, subjectProblem, withoutAnswerScope } from './filters.js';
import { mirrorGitDir, setFile, SETS_DIR, type HistoryQuestion, type HistorySet } from './sets.js';
import { readFlags } from '../eval/settings.js';

const MAX_ANSWERS = 8;
/** A commit touching more files than this is a sweep (reformat, rename, dependency move), not one change. */
const MAX_CHANGED = 40;

interface Options {
  months: number;
  max: number;
  snapshot?: string;
  until?: string;
}

function git(dir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
}

interface Commit {
  commit: string;
  subject: string;
  changes: { status: string; path: string }[];
}

function commitsAfter(dir: string, snapshot: string, until: string): Commit[] {
  const log = git(dir, ['log', '--no-merges', '--no-renames', '--reverse', '-z', '--format=%x01%H%x02%s', '--name-status', `${snapshot}..${until}`]);
  const commits: Commit[] = [];
  for (const record of log.split('\x01').slice(1)) {
    const [commit, rest] = record.split('\x02');
    const [subject, ...fields] = rest!.split('\0');
    const parts = fields.map((f) => f.replace(/^\n/, '')).filter((f) => f !== '');
    const changes = [];
    for (let i = 0; i + 1 < parts.length; i += 2) changes.push({ status: parts[i]!.charAt(0), path: parts[i + 1]! });
    commits.push({ commit: commit!, subject: subject!.trim(), changes });
  }
  return commits;
}

/** Why a commit makes no question, or its question. */
function question(c: Commit, atSnapshot: Set<string>): HistoryQuestion | string {
  const subject = cleanSubject(c.subject);
  const problem = subjectProblem(subject);
  if (problem) return problem;
  if (c.changes.length > MAX_CHANGED) return `more than ${MAX_CHANGED} files changed`;
  const answers = c.changes.filter((ch) => isAnswerPath(ch.path));
  if (answers.length === 0) return 'no source file (docs, tests, lockfiles or config only)';
  if (answers.length > MAX_ANSWERS) return `more than ${MAX_ANSWERS} source files`;
  if (answers.some((a) => a.status !== 'M')) return 'adds or deletes a source file';
  if (answers.some((a) => !atSnapshot.has(a.path))) return 'a source file is not at the snapshot by this path';
  const paths = answers.map((a) => a.path);
  if (namesAnswerPath(subject, paths)) return 'the subject names the file';
  const asked = withoutAnswerScope(subject, paths);
  if (asked !== subject && subjectProblem(asked)) return 'too short without the scope that names the file';
  return { commit: c.commit, subject: asked, lang: subjectLanguage(asked), answers: paths };
}

export function mine(repo: string, o: Options): { set: HistorySet; dropped: Map<string, number> } {
  const dir = mirrorGitDir(repo);
  if (!fs.existsSync(dir)) throw new Error(`${repo}: no fetched copy at ${dir} (fetch github:${repo} first)`);
  const until = git(dir, ['rev-parse', o.until ?? 'HEAD']).trim();
  const untilTime = Number(git(dir, ['log', '-1', '--format=%ct', until]).trim());
  const before = new Date((untilTime - o.months * 30.44 * 86400) * 1000).toISOString();
  const snapshot = o.snapshot ? git(dir, ['rev-parse', o.snapshot]).trim() : git(dir, ['rev-list', '-1', '--first-parent', `--before=${before}`, until]).trim();
  if (!snapshot) throw new Error(`${repo}: no commit ${o.months} months before ${until.slice(0, 12)}`);
  const atSnapshot = new Set(git(dir, ['ls-tree', '-r', '-z', '--name-only', snapshot]).split('\0').filter(Boolean));
  const dropped = new Map<string, number>();
  const kept: HistoryQuestion[] = [];
  const seen = new Set<string>();
  for (const c of commitsAfter(dir, snapshot, until)) {
    const q = question(c, atSnapshot);
    const reason = typeof q === 'string' ? q : seen.has(q.subject.toLowerCase()) ? 'same subject as an earlier question' : null;
    if (reason) {
      dropped.set(reason, (dropped.get(reason) ?? 0) + 1);
      continue;
    }
    seen.add((q as HistoryQuestion).subject.toLowerCase());
    kept.push(q as HistoryQuestion);
  }
  const snapshotDate = git(dir, ['log', '-1', '--format=%cI', snapshot]).trim();
  const set: HistorySet = { repo, url: `https://github.com/${repo}`, snapshot, snapshotDate, until, mining: { months: o.months, max: o.max }, questions: kept.slice(0, o.max) };
  return { set, dropped };
}

function main(): void {
  const [repo, ...rest] = process.argv.slice(2);
  if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    process.stderr.write('usage: mine.ts owner/name [--months 12] [--max 150] [--snapshot REV] [--until REV]\n');
    process.exit(2);
  }
  const o: Options = { months: 12, max: 150 };
  readFlags(rest, {
    '--months': (v) => (o.months = Number(v())),
    '--max': (v) => (o.max = Number(v())),
    '--snapshot': (v) => (o.snapshot = v()),
    '--until': (v) => (o.until = v()),
  });
  const { set, dropped } = mine(repo, o);
  fs.mkdirSync(SETS_DIR, { recursive: true });
  fs.writeFileSync(setFile(repo), JSON.stringify(set, null, 2) + '\n');
  const zh = set.questions.filter((q) => q.lang === 'zh').length;
  process.stdout.write(`${repo}@${set.snapshot.slice(0, 12)} (${set.snapshotDate.slice(0, 10)}): ${set.questions.length} questions (${zh} zh) → ${setFile(repo)}\n`);
  for (const [reason, n] of [...dropped].sort((a, b) => b[1] - a[1])) process.stdout.write(`  dropped ${String(n).padStart(5)}  ${reason}\n`);
}

main();

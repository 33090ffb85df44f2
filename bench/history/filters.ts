// Which commits make fair questions and which of their files are answers: pure rules over subjects and paths.
//
// A question is a commit subject; its answers are the source files the commit modified. A subject is kept only when
// it says what was done (not "fix", "update", "wip", a version bump, a merge or revert), and a file is an answer
// only when it is source a person would edit for that change (not a test, doc, lockfile, vendored or generated file).

const SOURCE = /\.(go|py|pyi|rs|js|mjs|cjs|jsx|ts|mts|cts|tsx|vue|svelte|java|kt|kts|groovy|scala|sc|rb|php|c|h|cc|cpp|cxx|hpp|hh|hxx|m|mm|cs|fs|swift|dart|ex|exs|erl|hs|ml|lua|zig|sh|bash|zsh|pl|pm|r|jl|nim|clj|cljs)$/i;
const NOT_SOURCE = /(^|\/)(tests?|testing|testdata|test-data|__tests__|__mocks__|spec|specs|fixtures?|step_definitions|examples?|samples?|demos?|benches|benchmarks?|docs?|docs?[_-]src|documentation|website|site|vendor|vendors|third[_-]?party|external|node_modules|dist|build|target|out|generated|gen|scripts?|tools?|\.github|\.circleci)\//i;
const TEST_FILE = /(_test\.go|(^|\/)test_[^/]*\.py|_test\.py|(^|\/)conftest\.py|\.(test|spec|e2e)(-d)?\.[cm]?[jt]sx?|_spec\.rb|_test\.rb|Tests?\.(java|kt|cs|swift|scala|php|m|dart)|Spec\.(scala|kt|groovy)|_test\.(exs|dart|lua|c|cc|cpp)|(^|\/)test[^/]*\.(c|cc|cpp|h)|Test[^/]*\.(java|kt))$/;
/** Build and project manifests written in a source language: they change with releases and tooling, not features. */
const BUILD_FILE = /(^|\/)(build\.gradle(\.kts)?|settings\.gradle(\.kts)?|[\w.-]+\.gradle\.kts|mix\.exs|setup\.py|noxfile\.py|Rakefile|Gemfile|[\w.-]+\.gemspec|Package\.swift|build\.rs|(gulpfile|Gruntfile|webpack\.config|vite\.config|vitest\.config|rollup\.config|babel\.config|jest\.config|eslint\.config|\.eslintrc|prettier\.config|tsup\.config)\.[cm]?[jt]s)$/;
const GENERATED = /(\.min\.(js|css)$|\.pb\.go$|_pb2\.py$|\.generated\.|(^|\/)(package-lock|yarn\.lock|pnpm-lock|Cargo\.lock|go\.sum|composer\.lock|Gemfile\.lock|poetry\.lock)$)/i;

/** Whether a changed path can be an answer: source a person edits, not a test, doc, lockfile or generated file. */
export function isAnswerPath(path: string): boolean {
  return SOURCE.test(path) && !NOT_SOURCE.test(path) && !TEST_FILE.test(path) && !GENERATED.test(path) && !BUILD_FILE.test(path);
}

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;

/** `zh` when the subject is written in Chinese (two Han characters or more), else `en`. */
export function subjectLanguage(subject: string): 'en' | 'zh' {
  return (subject.match(HAN)?.length ?? 0) >= 2 ? 'zh' : 'en';
}

/**
 * The subject as a question: without the pull-request or issue number a host appends ("(#123)", "close #9",
 * "(issue#I3UZ28@Gitee)"), links, and gitmoji or emoji in front. Conventional prefixes (`fix(crm):`) stay: the
 * scope is part of what the author said.
 */
export function cleanSubject(subject: string): string {
  return subject
    .replace(/\[([^\]]*)\]\(https?:[^)]*\)/g, ' $1 ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\(\s*(pr|issue)?\s*#[\w@.-]+\s*\)/gi, ' ')
    .replace(/\s--(story|task|bug|issue)=\w+|\s--ignore(?=\s|$)|#\s*Reviewed, transaction id:\s*\d+/gi, ' ')
    .replace(/[\s,，;；]*(close[sd]?|fix(e[sd])?|resolve[sd]?|see|refs?)\s+#\w+/gi, ' ')
    .replace(/(\b(issue|pr)\s*)?#(\d+|I[A-Z0-9]{5})\b|\(\s*I[A-Z0-9]{5}\s*\)/gi, ' ')
    .replace(/\s(close[sd]?|fix(e[sd])?|resolve[sd]?)\s*$/i, '')
    // Credits tmux-style ("…, from Jane Doe in GitHub issue 4790."): who reported it says nothing of the code.
    .replace(/([,.]\s*((from|by)\s+)?|\s+(from|by)\s+)[^.,;]{2,40}?\s+in\s+GitHub issue\s*\d*\.?\s*$/i, '')
    .replace(/([,.]\s*)from\s+[^.,;]{2,40}\.?\s*$/i, '')
    .replace(/[,.]?\s*(in\s+)?GitHub issue\s*\d+\.?\s*$/i, '')
    .replace(/[(\[（【]\s*[,，\s]*[)\]）】]/g, ' ')
    .replace(/^\s*([*\-•]\s*)?(\d+[、.)]\s*)?/, '')
    .replace(/^(\s*(:[a-z0-9_+-]+:|[\p{Extended_Pictographic}\uFE0F\u200D]+))+\s*/u, '')
    .replace(/\s+/g, ' ')
    .replace(/\s([,，;；])/g, '$1')
    .replace(/^[\s,，;；:：]+|[\s,，;；:：]+$/g, '')
    .trim();
}

const MERGE_OR_REVERT = /^(merge\b|revert\b|reapply\b|squash!|fixup!|amend!)/i;
const RELEASE = /^(release|bump)|\bbump(ed|s|ing)?\s|\breleased?\s+v?\d|\bprepar\w*\s+(for\s+)?(the\s+)?(next\s+)?(release|v?\d)|\bversion\s*(to\s*)?v?\d|\bv?\d+\.\d+\.\d+|^v?\d+(\.\d+)+|changelog|发布|发版|版本号|更新到|升级到|更新版本|升级版本|快照|更新日志/i;
const CHORE = /^(chore|ci|build|docs?|style|test|tests|release|deps)(\([^)]*\))?!?\s*[:：]/i;
const VAGUE = /^(fix(es|ed)?|update[sd]?|wip|typo|tweak|minor|cleanup|clean ?up|refactor(ing)?|format(ting)?|lint|misc|changes?|improve(ments?)?|small fixes|some fixes|bug ?fix(es)?|code (cleanup|style)|tidy|polish|init(ial commit)?|first commit|test|tests|todo|more|stuff|修复|优化|更新|修改|调整|完善|提交|代码优化|优化代码|修复bug|bug修复|修改bug|代码完善|代码调整)[\s.!。]*$/i;
/** GitHub's and Gitee's web-editor defaults ("Update Foo.java", "update path/to/Foo.java."): they name the file. */
const WEB_EDIT = /^(update|create|delete|add|修改|更新|删除|新增)\s+\S+\.[a-z]{1,6}\.?(\s|$)|^add files via upload/i;
const TYPO = /\b(typos?|spelling|grammar|whitespace|indentation|formatting|lint(ing|er)?|nits?|clippy|rustfmt|gofmt|prettier|eslint|black|ruff|isort|mypy|flake8|pylint|pre-commit|rubocop|cops?|checkstyle|format code)\b|错别字|拼写|格式化|注释/i;

/** Words that say nothing of where a change is: "remove some redundant code" and 删除多余代码 say nothing. */
const EMPTY_WORDS = new Set('a an the to of in on for and or with some minor small code bug bugs issue issues problem problems fix fixed update clean up cleanup redundant unused unnecessary dead'.split(' '));
const EMPTY_HAN = /代码|优化|修改|调整|完善|修复|问题|多余|冗余|无用|删除|移除|去掉|去除|简单|部分|一些|相关|逻辑|功能|提交|更新/g;

/**
 * How much a subject says: Latin words of two letters or more, plus Han characters counted two to a word, leaving
 * out words that say nothing of where the change is.
 */
export function substance(subject: string): number {
  // Without a conventional prefix or leading tags ("[代码完善](master): 代码优化" says only 代码优化).
  const body = subject.replace(/^[a-z]+(\([^)]*\))?!?\s*[:：]\s*/i, '').replace(/^(\s*(\[[^\]]*\]|【[^】]*】|\([^)]*\))\s*[:：]?)+/, '');
  const words = (body.match(/[A-Za-z][A-Za-z0-9_]+/g) ?? []).filter((w) => !EMPTY_WORDS.has(w.toLowerCase())).length;
  const han = body.replace(EMPTY_HAN, '').match(HAN)?.length ?? 0;
  return words + han / 2;
}

/** Why a (cleaned) subject is no fair question, or null when it is one. */
export function subjectProblem(subject: string): string | null {
  if (MERGE_OR_REVERT.test(subject)) return 'merge or revert';
  if (CHORE.test(subject)) return 'chore, docs, style or test commit';
  if (RELEASE.test(subject)) return 'release or version bump';
  if (VAGUE.test(subject)) return 'vague';
  if (WEB_EDIT.test(subject)) return 'web-editor default subject';
  if (TYPO.test(subject)) return 'typo, format or comment change';
  if (substance(subject) < 3) return 'too short';
  if (subject.length > 160) return 'too long for a subject';
  return null;
}

/** Whether the subject gives an answer away by naming one of its files with a folder (`src/a/b.ts`). */
export function namesAnswerPath(subject: string, answers: string[]): boolean {
  const lower = subject.toLowerCase();
  return answers.some((a) => a.includes('/') && lower.includes(a.toLowerCase()));
}

/**
 * The subject without a leading scope that is the name of one of its answer files ("Splits: handle …" for
 * Splits.scala, "fix(parser): …" for parser.rs becomes "fix: …"): such a scope hands over the answer by name.
 */
export function withoutAnswerScope(subject: string, answers: string[]): string {
  const m = /^(?:([a-z]+)\(([^)]+)\)!?|([A-Za-z][\w.-]*))\s*[:：]\s*/.exec(subject);
  if (!m) return subject;
  const scope = (m[2] ?? m[3]!).toLowerCase();
  const stems = answers.map((a) => a.split('/').pop()!.replace(/\.[^.]+$/, '').toLowerCase());
  if (!stems.includes(scope)) return subject;
  const rest = subject.slice(m[0].length);
  return m[1] ? `${m[1]}: ${rest}` : rest;
}

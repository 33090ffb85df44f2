/**
 * A question a user asks about using a project (`how do I install offline`, `enable the search plugin`, `why does
 * the build fail`), which its documentation answers, as against a question about how its code works (`how the
 * router dispatches requests`, `where is createStore defined`). Told by the phrasing only: the asker in the first or
 * second person, a how-to or yes/no question, an instruction that starts with a task verb, a command-line flag.
 */
const PERSON = /\b(?:i(?![/.])|i'm|i've|my|me|we|our|you|your)\b/i;
const HOW_TO = /\bhow\s+(?:do|can|should|would)\s+(?:i|we|you|one)\b|\bhow to\b|\bis it possible\b|\b(?:can|should|must|do)\s+(?:i|we|you|one)\b/i;
/**
 * What a user asks of the tool; not `how`, whose code questions (`how X parses Y`) are the usual kind, nor `what
 * happens when…`, which asks what the code does (`what happens when a handler panics`).
 */
const QUESTION = /^(?:what(?!\s+happens\b)|which|when|can|should|is|are)\b|^why\b|\bwhy\s+(?:does|do|is|are)\b/i;
/** Verbs that start an instruction to oneself and rarely a code noun phrase (not `store`, `pick`, `call`). */
const TASK =
  /^(?:install|configure|set|enable|disable|deploy|publish|uninstall|upgrade|update|customi[sz]e|change|switch|use|run|make|keep|put|add|remove|clear|limit|start|stop|load|bump|declare|include|exclude|restrict|preview|combine|map|teach|colori[sz]e|serve|avoid|prevent|turn)\b/i;
const FLAG = /(?:^|\s)--[a-z]/;
/** The same in Chinese: the asker (我), a sentence that opens with how (怎么/怎样), what to do (怎么办), install, why. */
const CHINESE = /^(?:怎么|怎样)|我|怎么办|安装|为什么|应该/;

export function asksHowTo(text: string): boolean {
  return asksInWords(text) || asksByInstruction(text);
}

/** Asks in so many words: the asker, a how-to or yes/no question, Chinese that asks how. */
function asksInWords(text: string): boolean {
  // Code quoted in the question (`I` flag, `you` variable) is not the asker.
  const words = text.replace(/`[^`]*`/g, ' ');
  return PERSON.test(words) || HOW_TO.test(words) || QUESTION.test(words) || CHINESE.test(words);
}

/**
 * Asks only as an instruction (a task verb, a flag), which is also how a code question describes what a function
 * does (`set a base uri for all requests of a class`, `declare an option for the next command`).
 */
export function asksByInstructionOnly(text: string): boolean {
  return !asksInWords(text) && asksByInstruction(text);
}

function asksByInstruction(text: string): boolean {
  return TASK.test(text) || FLAG.test(text);
}

/**
 * The same for the first line of a pasted report (query-parts.ts): only a question asks it. A report's title is
 * imperative (`Add …`, `Make …`, `Fix …`) or personal (`I get a panic …`) whatever it is about, and names flags.
 */
export function reportAsksHowTo(firstLine: string): boolean {
  return HOW_TO.test(firstLine) || QUESTION.test(firstLine);
}

/**
 * A question about how the code works or where something is handled (`how does Flask select an error handler`,
 * `where are routes registered`, `axum 是如何分发请求的`): answered by the file that is about it as a whole, more
 * than by its best chunk; so is `what happens when…`. Not `how many` / `how much`, which count something (`count
 * how many times an option is repeated`), nor a how-to question, which the documentation answers.
 */
const HOW_IT_WORKS = /\b(?:how(?!\s+(?:many|much)\b)|where|what\s+happens)\b|如何|怎么|怎样|哪里|在哪/i;

/**
 * An instruction that asks for a change to the code (`add a timeout to …`, `remove the deprecated flag`, `avoid
 * copying …`, `fix: …`): the task an agent or a commit does, whose answer is the code it changes, not a page on
 * using the project. Told by a verb that changes code, after a conventional-commit type (`feat(cli): …`).
 */
const CHANGE =
  /^(?:[a-z]+(?:\([^)]*\))?!?:\s*)?(?:add|adds|added|remove|removes|removed|avoid|avoids|fix|fixes|fixed|prevent|prevents|support|supports|allow|allows|refactor|rename|replace|deprecate|drop|handle|improve|implement|ensure|simplify|expose|introduce)\b/i;

export function asksForChange(text: string): boolean {
  return CHANGE.test(text.trim());
}

/** A conventional-commit type that changes the code (`feat:`, `fix(derive):`, `refactor!:`); not `docs:`, `test:`, `ci:`. */
const CODE_COMMIT_TYPE = /^(?:feat|feature|fix|bugfix|hotfix|refactor|perf|improve|improvement|enhance|enhancement|optimi[sz]e|style|chore|revert)(?:\([^)]*\))?!?:(?!:)/i;
/** The same verbs in Chinese (修复 fix, 新增 add, 优化 improve, 支持 support, 删除 remove…), after a commit type or not. */
const CHINESE_CHANGE = /^(?:[a-z]+(?:\([^)]*\))?!?:\s*)?(?:修复|修正|修改|新增|增加|添加|优化|支持|删除|移除|去掉|去除|解决|调整|完善|重构|替换|兼容)/i;

/**
 * Describes a change to make to the code, as a commit subject or an agent's task does, however it is phrased
 * otherwise (`fix: wrap at the caret's width`, `feat(cli): …`, `修复 kg 歌单打开失败的问题`): its answer is the code
 * the change will touch.
 */
export function describesChange(text: string): boolean {
  const t = text.trim();
  return CHANGE.test(t) || CODE_COMMIT_TYPE.test(t) || CHINESE_CHANGE.test(t);
}

export function asksHowItWorks(text: string): boolean {
  return HOW_IT_WORKS.test(text) && !asksHowTo(text);
}

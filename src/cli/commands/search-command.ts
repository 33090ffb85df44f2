import { Option, type Command } from 'commander';
import { DEFAULT_MIN_MATCH, MAX_QUERY_CHARS_TEXT } from '../../workspace/search-ask.js';
import { configFlags, positiveInt, workDir } from '../options.js';
import { OUTPUT_FORMATS, parseMatch, parseScore, runSearch, type SearchFlags } from '../search-run.js';
import { searchHere } from '../search-cold.js';

// A plain search (`ocrag search <words> [its flags]`) is read without commander by the quick entry
// (quick-search.ts), which must take exactly these flags as this does, and leaves everything else here.

export function registerSearch(program: Command): void {
  program
    .command('search')
    .description('find the code that matches a question or an identifier, in the checked-out tree')
    .argument('<query...>', `what you are looking for, e.g. "parse command line arguments" or parseArgs; a stack trace or bug report (up to ${MAX_QUERY_CHARS_TEXT} characters) finds where the failure is`)
    .option('-k, --top-k <n>', 'how many results', positiveInt('-k/--top-k', 1000), 10)
    .option('--path <glob>', "only results whose path matches, e.g. 'src/**' or '**/*.py'")
    .option('--min-score <x>', 'drop results scoring below x (relevance 0..1: ~0.3-0.5 weak, 0.6-0.8 good, >0.9 a defining chunk or matching path)', parseScore)
    .option('--min-match <x>', `answer nothing ("no good match") unless a chunk matches at least this well (0..1: closeness in meaning and the share of the question's rarer words it holds, as search_code's min_score); 0 shows the closest chunks whatever they are`, parseMatch, DEFAULT_MIN_MATCH)
    .option('--no-update', 'answer from the index as it is, even if HEAD moved since it was built')
    .option('--committed-only', 'ignore uncommitted edits and untracked files; answer for HEAD as committed')
    .option('--no-sources', 'leave out the sources added with ocrag add')
    .option('--source <name>', 'only results from this source (ocrag add); with --path, the glob is of paths inside it')
    .option('--language <name>', 'only results in this language, e.g. typescript, python, go (as MCP search_code\'s language)')
    .addOption(new Option('--format <format>', 'text for people; json, xml or markdown for programs and LLM prompts').choices(OUTPUT_FORMATS))
    .option('--json', 'the same as --format json: [{path, startLine, endLine, language, symbol, score, text}]')
    .option('--whole', 'show each result\'s whole chunk (default: a chunk over 40 lines shows its definition line and the 24 lines that match best, each cut marked)')
    .option('--max-tokens <n>', 'keep only the best results that fit in about n tokens (a token per 3.4 characters, per Chinese character); when not even the best fits, it comes cut to its location and first lines; the output ends by saying what was left out', positiveInt('--max-tokens'))
    .addHelpText(
      'after',
      '\nAnswers for the checked-out tree plus uncommitted edits and untracked files. If HEAD moved since the\nlast index run, the index is brought up to date first (said on stderr).\n\nxml: <results query latencyMs count> with one <result path startLine endLine score language symbol> per\nchunk, the code in CDATA. markdown: a `path:start-end` heading and a fenced block per result.',
    )
    .action(async (words: string[], opts: SearchFlags, cmd: Command) => {
      const place = { dir: () => workDir(cmd), flags: configFlags(cmd) };
      await runSearch(words, opts, place, searchHere(place));
    });
}

#!/usr/bin/env node
// The installed `ocrag` and `git-ocrag` (package.json `bin`), bundled as a CommonJS file (scripts/bundle-cli.mjs),
// whose first line becomes a sh launcher that keeps NODE_EXTRA_CA_CERTS from Node's start-up (scripts/launcher-head.sh): a
// plain search starts at its quick entry (quick-search.ts) without Node's ES module loader, whose set-up, with the
// module wrappers it makes of each Node built-in, was about a third of a warm search's time beyond Node's own start
// (issue 31). Anything else, and a search line the quick entry leaves, goes to the full program (main.ts).
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { quickSearch } from './quick-search.js';

endQuietlyOnClosedPipe();

void (async () => {
  // A git hook's run (`ocrag hook <name> …`) is no search line (search-line.ts reads none with a word before
  // `search`): it goes to main.ts, which starts the hook.
  const quick = process.argv.slice(2).includes('search') ? await quickSearch(process.argv) : null;
  if (quick === null) await import('./main.js');
  else process.exitCode = quick;
})();

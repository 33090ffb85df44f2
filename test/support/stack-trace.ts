// A pasted failure report of exactly `chars` characters for the fixture repository (fixtures/make-repo.sh): an error
// line, 40 frames whose innermost own one is the router's `handle` (src/http/router.ts), frames in node_modules and
// node's internals, then the log lines a user pastes with it.
export function fixtureStackTrace(chars = 10_000): string {
  const own: [string, string, number][] = [
    ['Router.handle', 'src/http/router.ts', 38],
    ['Router.add', 'src/http/router.ts', 22],
    ['parseArgs', 'src/cli/args.ts', 14],
  ];
  const foreign: [string, string, number][] = [
    ['Layer.handle', '/srv/app/node_modules/express/lib/router/layer.js', 95],
    ['next', '/srv/app/node_modules/express/lib/router/route.js', 149],
    ['processTicksAndRejections', 'node:internal/process/task_queues', 95],
  ];
  const lines = ["TypeError: Cannot read properties of undefined (reading 'pathname')"];
  for (let i = 0; i < 40; i++) {
    const [fn, file, line] = i < own.length ? own[i]! : foreign[i % foreign.length]!;
    lines.push(`    at ${fn} (${file.startsWith('/') || file.startsWith('node:') ? file : `/srv/app/${file}`}:${line}:${(i % 9) + 5})`);
  }
  lines.push('', 'It happens on every request whose URL has no path, right after the server starts.', '');
  for (let n = 0; lines.join('\n').length < chars; n++) lines.push(`[2026-05-01T10:${String(n % 60).padStart(2, '0')}:00Z] info request ${n} GET /users/${n} -> 500 in ${(n * 37) % 900} ms`);
  return lines.join('\n').slice(0, chars);
}

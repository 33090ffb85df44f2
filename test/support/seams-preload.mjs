// Installs the test switches a test handed this process (seamEnv in test/support/seams.ts) where src/util/test-seams.ts
// reads them. Loaded by NODE_OPTIONS, so it runs in the CLI a test starts and in every node process below it (a
// background index run, the index run restarted for its allocator, the MCP server's): plain JavaScript, since the
// built CLI runs without tsx, and a no-op when the process was given no switch.
const given = process.env.OCRAG_TEST_SEAMS;
if (given) globalThis[Symbol.for('ocrag.test-seams')] = frozen(JSON.parse(given));

function frozen(value) {
  if (value && typeof value === 'object') for (const inner of Object.values(value)) frozen(inner);
  return Object.freeze(value);
}

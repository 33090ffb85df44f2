// Compiles WebAssembly with V8's baseline compiler only. Each tree-sitter grammar holds a lexer function of
// megabytes; a process that parses a few files pays seconds of CPU to optimise it and never earns them back (the
// fixture's index run: 1.7 s of CPU with the optimiser, 0.8 s without; with the Kotlin, Swift and Elixir grammars,
// 7.7 s and 1.0 s). What a parse returns is the same. Loaded by NODE_OPTIONS (test/helpers.ts), so it runs in the
// CLI a test starts and in every node process below it; plain JavaScript, since the built CLI runs without tsx.
import v8 from 'node:v8';

v8.setFlagsFromString('--liftoff-only');

// `node --import tsx --test test/embed/` on Node 20 only discovers *.test.{js,mjs,cjs} files in a
// directory, so it lands here and loads the TypeScript suites through the tsx loader. Each suite
// points OCRAG_CACHE at its own temporary cache in its `before` hook, and suites run one at a time.
// Running the .ts files directly (node --import tsx --test test/embed/*.test.ts) works too.
await import('./static-onnx.test.ts');
await import('./model-cache.test.ts');
await import('./resolve.test.ts');
await import('./pull.test.ts');
await import('./equivalence.test.ts');
await import('./semantic.test.ts');
await import('./startup.test.ts');
await import('./build.test.ts');

/**
 * For a long loop of synchronous work (chunking with tree-sitter, splitting words): call the returned function
 * after each item and await it; once `sliceMs` of work have passed it yields to the event loop, so the process
 * still answers its I/O meanwhile (an MCP status poll waits at most a slice, not a whole run's chunking).
 * 10 ms keeps a poll's wait well under its 50 ms budget and costs a few hundred yields a minute.
 */
export function eventLoopYielder(sliceMs = 10): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}

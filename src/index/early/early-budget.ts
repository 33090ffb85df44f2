// How much an early answer reads: apart from early-view.ts so that a search's first moments (service/early-index.ts)
// know it without loading the chunker, the model or the store.

/**
 * Files chunked and embedded for an early answer, the best by their words, up to this many and this many bytes
 * (chunking and embedding cost goes by bytes). On tokio (bench/early-answer.ts) the final top 10's files are among
 * the best 40 8.8 times in 10, the best 20 6.9; with 40 files and no byte budget the early top 10 held 8.4 of the
 * final one's (30 files: 7.3, lowest 5); 40 files within 512 KB (~1,000 chunks, 9% of the tree) 8.0, lowest 6;
 * 300 KB 7.2, lowest 5.
 */
export const EARLY_FILES = 40;
export const EARLY_BYTES = 512 * 1024;

/** Part of every chunk id: bump whenever the chunks produced for the same input change. */
export const CHUNKER_VERSION = '1';

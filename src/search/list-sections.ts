import type { PackedLists } from './postings.js';
import type { Section, SectionedFile } from './sectioned-file.js';

/**
 * How packed lists (postings.ts) lie in a sectioned file, as a snapshot and a segment both keep them: keys as packed
 * strings, starts, then a section per column, each named after the table.
 */
export function listSectionNames(name: string, columns: string[]): string[] {
  return [`${name}.keys.utf8`, `${name}.keys.ends`, `${name}.starts`, ...columns.map((c) => `${name}.${c}`)];
}

/** The sections of packed lists, as they are (a list table packs its keys already). */
export function listSections(name: string, table: PackedLists, columns: string[]): Record<string, Section> {
  const out: Record<string, Section> = {
    [`${name}.keys.utf8`]: table.keys.utf8,
    [`${name}.keys.ends`]: table.keys.ends,
    [`${name}.starts`]: table.starts,
  };
  columns.forEach((c, i) => (out[`${name}.${c}`] = table.columns[i]));
  return out;
}

/** Packed lists read back from their eager sections. */
export function readListSections(file: SectionedFile<unknown>, name: string, columns: string[], inOrder: boolean): PackedLists {
  const section = <T extends Section>(part: string) => file.section(`${name}.${part}`) as T;
  return {
    keys: { utf8: section<Uint8Array>('keys.utf8'), ends: section<Uint32Array>('keys.ends') },
    starts: section<Uint32Array>('starts'),
    columns: columns.map((c) => section<Int32Array | Float32Array>(c)),
    inOrder,
  };
}

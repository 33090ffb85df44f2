// The chunks of a restored snapshot (resident-snapshot.ts), which read what a search rarely needs from it when asked.
import type { ChunkInfo } from '../store/contract.js';
import type { PackedStrings } from './packed-strings.js';

// ignoreBOM: a stored text may begin with U+FEFF, and must read back exactly as it was written.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Strings packed as written (packed-strings.ts), decoded whole when the first is read and each sliced when asked
 * for: a one-shot search reads the ids and symbols of the few hundred chunks it ranks, and making all 30,000 of
 * tokio's strings (and collecting them) at every start was most of unpacking the snapshot's strings.
 */
export class LazyStrings {
  private text: string | null = null;

  constructor(private readonly packed: PackedStrings) {}

  get count(): number {
    return this.packed.ends.length;
  }

  at(i: number): string {
    const text = (this.text ??= utf8Decoder.decode(this.packed.utf8));
    const { ends } = this.packed;
    return text.slice(i ? ends[i - 1] : 0, ends[i]);
  }
}

/** What the chunks of one restored snapshot read their id, symbol and text from. */
export interface RestoredColumns {
  /** The snapshot file, whose lazy `texts` section holds the chunks' texts. */
  file: { slice(name: string, start: number, end: number): Uint8Array };
  ids: LazyStrings;
  symbols: LazyStrings;
  textEnds: Uint32Array;
}

/**
 * A chunk read back from a snapshot. Its id, symbol and text are read from the snapshot when first asked for: a
 * search ranks and shows a few hundred chunks, so reading and decoding every text up front was most of the restore.
 */
export class RestoredChunk implements ChunkInfo {
  private decoded: string | null = null;
  private idText: string | null = null;
  private symbolText: string | null = null;

  constructor(
    private readonly columns: RestoredColumns,
    private readonly i: number,
    readonly blob: string,
    readonly startLine: number,
    readonly endLine: number,
    readonly language: string,
  ) {}

  get id(): string {
    return (this.idText ??= this.columns.ids.at(this.i));
  }

  get symbol(): string {
    return (this.symbolText ??= this.columns.symbols.at(this.i));
  }

  get text(): string {
    const { file, textEnds } = this.columns;
    return (this.decoded ??= utf8Decoder.decode(file.slice('texts', this.i ? textEnds[this.i - 1] : 0, textEnds[this.i])));
  }
}

/**
 * Runs a sequential source ahead of its consumer: the next item is fetched as soon as the last one arrived, while
 * fewer than `budget` (by `size`) wait to be taken. The source's error is thrown to the consumer in its turn,
 * after the items fetched before it.
 */
export class ReadAhead<T> {
  private ready: (T | null)[] = [];
  private buffered = 0;
  private failure: { error: unknown } | null = null;
  private fetching: Promise<void> | null = null;
  private ended = false;
  private wake: (() => void) | null = null;

  /** `next` returns null at the end of the source, and is never called again after that. */
  constructor(
    private readonly next: () => Promise<T | null>,
    private readonly size: (item: T) => number,
    private readonly budget: number,
  ) {}

  /** The next item, null at the end; throws what fetching it threw. */
  async take(): Promise<T | null> {
    for (;;) {
      if (this.ready.length) {
        const item = this.ready.shift()!;
        if (item !== null) this.buffered -= this.size(item);
        this.fetchOn();
        return item;
      }
      if (this.failure) throw this.failure.error;
      this.fetchOn();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Stops fetching; resolves once no fetch is under way. */
  async stop(): Promise<void> {
    this.ended = true;
    await this.fetching;
  }

  private fetchOn(): void {
    if (!this.fetching && !this.ended && !this.failure) this.fetching = this.fetchWhileRoom();
  }

  private async fetchWhileRoom(): Promise<void> {
    try {
      while (!this.ended && this.buffered < this.budget) {
        const item = await this.next();
        this.ready.push(item);
        if (item === null) this.ended = true;
        else this.buffered += this.size(item);
        this.wakeTaker();
      }
    } catch (error) {
      this.failure = { error };
    } finally {
      this.fetching = null;
      this.wakeTaker();
    }
  }

  private wakeTaker(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * Starts `read` for each item in order, at most `ahead` items before the one the consumer takes, and hands them
 * out in order with their reads under way: for a source that answers many requests at once (`git cat-file
 * --batch` answers pipelined requests). A read's failure reaches the consumer when it awaits that read.
 */
export function readEach<I, T>(items: readonly I[], read: (item: I) => Promise<T>, ahead: number): ReadAhead<{ item: I; read: Promise<T> }> {
  let at = 0;
  return new ReadAhead(
    async () => {
      if (at === items.length) return null;
      const item = items[at++];
      const pending = read(item);
      // Reads waiting their turn may fail together (their source died): each failure is the consumer's when it
      // gets there, not an unhandled rejection before.
      pending.catch(() => undefined);
      return { item, read: pending };
    },
    () => 1,
    ahead,
  );
}

/**
 * What the index's runs say while a search is answered (a disk that refused the update, so the answer leaves
 * something out): logged for the server's stderr as ever, and kept for the search's own answer, since the agent
 * reading the results never sees that log. Searches at once each get every notice told while they run.
 */
export class SearchNotices {
  private readonly collecting = new Set<string[]>();

  constructor(private readonly log?: (message: string) => void) {}

  readonly tell = (message: string): void => {
    for (const notices of this.collecting) if (!notices.includes(message)) notices.push(message);
    this.log?.(message);
  };

  async during<T>(search: () => Promise<T>): Promise<{ value: T; notices: string[] }> {
    const notices: string[] = [];
    this.collecting.add(notices);
    try {
      return { value: await search(), notices };
    } finally {
      this.collecting.delete(notices);
    }
  }
}

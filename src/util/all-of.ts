/** Every item of an async source, in order: for reads that must be whole before use, or that run side by side. */
export async function allOf<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

// Cycles of a directed graph, for test/architecture.test.ts: the import cycles between files and between folders.

/** Strongly connected components of more than one node (or a node importing itself): the cycles of a graph. */
export function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v)?.has(v)) found.push(component.sort());
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
}

/** The shortest cycle through the nodes of one strongly connected component, as a path that ends where it starts. */
export function shortestCycle(component: string[], edges: Map<string, Set<string>>): string[] {
  const inside = new Set(component);
  let best: string[] = [];
  for (const start of component) {
    const parent = new Map<string, string>();
    const queue = [start];
    search: while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of [...(edges.get(v) ?? [])].sort()) {
        if (!inside.has(w) || parent.has(w)) continue;
        parent.set(w, v);
        if (w === start) break search;
        queue.push(w);
      }
    }
    const path = [start];
    for (let v = parent.get(start)!; v !== start; v = parent.get(v)!) path.unshift(v);
    path.unshift(start);
    if (best.length === 0 || path.length < best.length) best = path;
  }
  return best;
}

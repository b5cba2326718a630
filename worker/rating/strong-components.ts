/**
 * Strongly connected components of a directed graph on nodes 0..p-1 (Tarjan's algorithm, iterative so a long
 * chain cannot overflow the call stack). Returns the component id of every node.
 */
export function strongComponents(p: number, from: Int32Array, to: Int32Array, edgeCount: number): Int32Array {
  const start = new Int32Array(p + 1);
  for (let e = 0; e < edgeCount; e++) start[from[e] + 1]++;
  for (let v = 0; v < p; v++) start[v + 1] += start[v];
  const next = start.slice(0, p);
  const adjacent = new Int32Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) adjacent[next[from[e]]++] = to[e];

  const index = new Int32Array(p).fill(-1);
  const low = new Int32Array(p);
  const component = new Int32Array(p).fill(-1);
  const onStack = new Uint8Array(p);
  const stack = new Int32Array(p);
  const callStack = new Int32Array(p);
  const cursor = new Int32Array(p);
  let stackTop = 0;
  let counter = 0;
  let components = 0;

  for (let root = 0; root < p; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callStack[depth] = root;
    index[root] = low[root] = counter++;
    cursor[root] = start[root];
    stack[stackTop++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callStack[depth];
      if (cursor[v] < start[v + 1]) {
        const w = adjacent[cursor[v]++];
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          cursor[w] = start[w];
          stack[stackTop++] = w;
          onStack[w] = 1;
          callStack[++depth] = w;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--stackTop];
          onStack[w] = 0;
          component[w] = components;
        } while (w !== v);
        components++;
      }
      depth--;
      if (depth >= 0) low[callStack[depth]] = Math.min(low[callStack[depth]], low[v]);
    }
  }
  return component;
}

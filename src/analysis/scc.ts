/**
 * Strongly connected components by Tarjan's algorithm ("Depth-first search and linear graph
 * algorithms", SIAM J. Comput. 1972), run iteratively: an explicit stack of nodes and edge
 * cursors, so a chain of any length cannot overflow the JS stack. One implementation for
 * every graph that needs it: the call graph (callgraph.ts, bottom-up inlining) and phi webs
 * (transforms/utils/phi-webs.ts, Braun et al.'s Algorithm 5).
 *
 * The graph is given in CSR form: the successors of node v are adj[off[v] .. off[v+1]).
 *
 * Invariants: roots are tried in increasing node order and edges in the order given, so the
 * result is a function of the graph as listed; a component is emitted only after every
 * component it reaches (reverse topological order: callees before callers, operands before
 * users); within a component, nodes are listed in the order they leave Tarjan's stack, the
 * component's root (its first node reached) last.
 */

export interface SCCs {
  /** The components in emission order (reverse topological); each lists its nodes. */
  sccs: number[][];
  /** The index in `sccs` of each node's component. */
  sccOf: Int32Array;
}

export function stronglyConnectedComponents(n: number, off: ArrayLike<number>, adj: ArrayLike<number>): SCCs {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  const callNode = new Int32Array(n);
  const cursor = new Int32Array(n);
  const sccOf = new Int32Array(n).fill(-1);
  const sccs: number[][] = [];
  let sp = 0;
  let counter = 0;
  for (let r = 0; r < n; r++) {
    if (index[r] >= 0) continue;
    let csp = 0;
    callNode[csp] = r;
    cursor[csp++] = off[r];
    index[r] = low[r] = counter++;
    stack[sp++] = r;
    onStack[r] = 1;
    while (csp > 0) {
      const top = csp - 1;
      const v = callNode[top];
      if (cursor[top] < off[v + 1]) {
        const w = adj[cursor[top]++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onStack[w] = 1;
          callNode[csp] = w;
          cursor[csp++] = off[w];
        } else if (onStack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      csp--;
      if (csp > 0) {
        const p = callNode[csp - 1];
        if (low[v] < low[p]) low[p] = low[v];
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack[--sp];
          onStack[w] = 0;
          sccOf[w] = sccs.length;
          comp.push(w);
        } while (w !== v);
        sccs.push(comp);
      }
    }
  }
  return { sccs, sccOf };
}

/** The CSR form of adjacency lists, for stronglyConnectedComponents. */
export function csrOfLists(lists: readonly (readonly number[])[]): { off: Int32Array; adj: Int32Array } {
  const off = new Int32Array(lists.length + 1);
  for (let v = 0; v < lists.length; v++) off[v + 1] = off[v] + lists[v].length;
  const adj = new Int32Array(off[lists.length]);
  for (let v = 0; v < lists.length; v++) adj.set(lists[v], off[v]);
  return { off, adj };
}

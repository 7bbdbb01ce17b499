/**
 * A directed graph over dense integer nodes in compressed sparse row form: the shape every
 * analysis here runs on (the CFG of a function, its reverse with a virtual exit, random
 * graphs in tests and benchmarks).
 *
 * Invariants: nodes are 0..n-1; `succ.subarray(succOff[v], succOff[v+1])` are v's distinct
 * successors in edge order, and `pred` likewise (every edge u→v appears once in each list).
 * Nodes may be absent (holes): they simply have no edges and are never reached.
 *
 * The depth-first search is iterative (an explicit stack of nodes and edge cursors), so a
 * million-node chain cannot overflow the call stack.
 */

export interface Graph {
  /** Number of node ids (an upper bound; ids without edges are just unreachable). */
  readonly n: number;
  /** The start node: the entry block, or the virtual exit of a reverse CFG. */
  readonly root: number;
  readonly succOff: Int32Array;
  readonly succ: Int32Array;
  readonly predOff: Int32Array;
  readonly pred: Int32Array;
}

/** A plain graph; `fromEdges` builds one (tests, benchmarks, the reverse CFG). */
export class CsrGraph implements Graph {
  constructor(
    readonly n: number,
    readonly root: number,
    readonly succOff: Int32Array,
    readonly succ: Int32Array,
    readonly predOff: Int32Array,
    readonly pred: Int32Array,
  ) {}

  /**
   * Builds a graph from an edge list `[u0, v0, u1, v1, ...]`. Duplicate edges are kept once;
   * successors keep the order of the list, predecessors are in order of the source's first edge.
   */
  static fromEdges(n: number, root: number, edges: ArrayLike<number>): CsrGraph {
    const m = edges.length >> 1;
    // Dedup with a per-source stamp: edges are grouped by source first.
    const outCount = new Int32Array(n + 1);
    for (let i = 0; i < m; i++) outCount[edges[2 * i] + 1]++;
    for (let v = 0; v < n; v++) outCount[v + 1] += outCount[v];
    const bySrc = new Int32Array(m);
    const fill = outCount.slice(0, n);
    for (let i = 0; i < m; i++) bySrc[fill[edges[2 * i]]++] = edges[2 * i + 1];
    const stamp = new Int32Array(n).fill(-1);
    const succOff = new Int32Array(n + 1);
    const succTmp = new Int32Array(m);
    let k = 0;
    for (let u = 0; u < n; u++) {
      succOff[u] = k;
      for (let j = outCount[u]; j < outCount[u + 1]; j++) {
        const v = bySrc[j];
        if (stamp[v] === u) continue;
        stamp[v] = u;
        succTmp[k++] = v;
      }
    }
    succOff[n] = k;
    const succ = succTmp.slice(0, k);
    const [predOff, pred] = transpose(n, succOff, succ);
    return new CsrGraph(n, root, succOff, succ, predOff, pred);
  }

  /** The same graph with every edge reversed, rooted at `root`. */
  static reversed(g: Graph, root: number): CsrGraph {
    return new CsrGraph(g.n, root, g.predOff, g.pred, g.succOff, g.succ);
  }
}

/** The transpose of a CSR adjacency: for each node, its sources in increasing source order. */
export function transpose(n: number, off: Int32Array, adj: Int32Array): [Int32Array, Int32Array] {
  const tOff = new Int32Array(n + 1);
  for (let i = 0; i < adj.length; i++) tOff[adj[i] + 1]++;
  for (let v = 0; v < n; v++) tOff[v + 1] += tOff[v];
  const fill = tOff.slice(0, n);
  const tAdj = new Int32Array(adj.length);
  for (let u = 0; u < n; u++) {
    for (let j = off[u]; j < off[u + 1]; j++) tAdj[fill[adj[j]]++] = u;
  }
  return [tOff, tAdj];
}

/**
 * Depth-first numbering from the root, following successors in edge order.
 * `pre[v]`/`post[v]` are -1 for nodes the root cannot reach.
 */
export class DepthFirst {
  /** Preorder number of each node (-1 = unreachable). */
  readonly pre: Int32Array;
  /** Postorder number of each node (-1 = unreachable). */
  readonly post: Int32Array;
  /** DFS spanning-tree parent (-1 for the root and unreachable nodes). */
  readonly parent: Int32Array;
  /** Reachable nodes in preorder. */
  readonly preorder: Int32Array;
  /** Reachable nodes in reverse postorder. */
  readonly rpo: Int32Array;
  /** Position of each node in `rpo` (-1 = unreachable). */
  readonly rpoIndex: Int32Array;
  /** Number of reachable nodes. */
  readonly count: number;

  constructor(g: Graph) {
    const n = g.n;
    const succOff = g.succOff;
    const succ = g.succ;
    const pre = new Int32Array(n).fill(-1);
    const post = new Int32Array(n).fill(-1);
    const parent = new Int32Array(n).fill(-1);
    const preorder = new Int32Array(n);
    const postorder = new Int32Array(n);
    const stack = new Int32Array(n);
    const cursor = new Int32Array(n);
    let preN = 0;
    let postN = 0;
    let sp = 0;
    const r = g.root;
    if (r >= 0 && r < n) {
      pre[r] = preN;
      preorder[preN++] = r;
      stack[sp] = r;
      cursor[sp] = succOff[r];
      sp++;
      while (sp > 0) {
        const top = sp - 1;
        const v = stack[top];
        const c = cursor[top];
        if (c < succOff[v + 1]) {
          cursor[top] = c + 1;
          const w = succ[c];
          if (pre[w] < 0) {
            pre[w] = preN;
            preorder[preN++] = w;
            parent[w] = v;
            stack[sp] = w;
            cursor[sp] = succOff[w];
            sp++;
          }
        } else {
          post[v] = postN;
          postorder[postN++] = v;
          sp--;
        }
      }
    }
    const rpo = new Int32Array(postN);
    const rpoIndex = new Int32Array(n).fill(-1);
    for (let i = 0; i < postN; i++) {
      const v = postorder[postN - 1 - i];
      rpo[i] = v;
      rpoIndex[v] = i;
    }
    this.pre = pre;
    this.post = post;
    this.parent = parent;
    this.preorder = preorder.slice(0, preN);
    this.rpo = rpo;
    this.rpoIndex = rpoIndex;
    this.count = preN;
  }

  isReachable(v: number): boolean {
    return this.pre[v] >= 0;
  }

  /** Whether u→v is a retreating ("back") edge of this DFS: v is an ancestor of u, or u itself. */
  isBackEdge(u: number, v: number): boolean {
    const pre = this.pre;
    const post = this.post;
    return pre[u] >= 0 && pre[v] >= 0 && pre[v] <= pre[u] && post[v] >= post[u];
  }
}

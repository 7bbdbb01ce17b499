/**
 * The control-flow graph of a function, indexed by block id (`BasicBlock.id`), computed once
 * and never mutating the function.
 *
 * Invariants:
 *  - Arrays are sized by `fn.blockIdBound`; ids that name no block are holes (no edges,
 *    unreachable, `blockOf(id) === null`).
 *  - Successors of a block are its terminator's distinct targets in operand order;
 *    predecessors are the distinct source blocks in the function's block order. Edge
 *    multiplicity (`br i1 %c, label %a, label %a`) is available from `edgeCount`.
 *  - Targets that are not blocks of this function are ignored here (the verifier reports them).
 *  - Reverse postorder, DFS numbers and reachability come from an iterative DFS from the entry
 *    following successors in order.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import { Opcode } from '../ir/opcodes.js';
import { DepthFirst, Graph, transpose } from './graph.js';

export class CFG implements Graph {
  readonly fn: Function;
  /** `fn.blockIdBound` at construction. */
  readonly n: number;
  /** Entry block id. */
  readonly root: number;
  readonly succOff: Int32Array;
  readonly succ: Int32Array;
  readonly predOff: Int32Array;
  readonly pred: Int32Array;
  /** Block ids in the function's layout order. */
  readonly order: Int32Array;
  /** Position of each block id in `order` (-1 for holes). */
  readonly layoutIndex: Int32Array;
  /** Block by id (null for holes). */
  readonly blocks: (BasicBlock | null)[];
  /** DFS from the entry: preorder/postorder numbers, RPO, spanning-tree parents. */
  readonly dfs: DepthFirst;

  constructor(fn: Function) {
    if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration: it has no CFG`);
    this.fn = fn;
    const n = fn.blockIdBound;
    this.n = n;
    const blocks: (BasicBlock | null)[] = new Array(n).fill(null);
    const order = new Int32Array(fn.numBlocks);
    const layoutIndex = new Int32Array(n).fill(-1);
    let k = 0;
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      const id = b.id;
      if (id < 0 || id >= n || blocks[id] !== null) {
        throw new Error(`@${fn.name}: block ids are not unique and below blockIdBound (call fn.renumber())`);
      }
      blocks[id] = b;
      layoutIndex[id] = k;
      order[k++] = id;
    }
    this.blocks = blocks;
    this.order = order.length === k ? order : order.slice(0, k);
    this.layoutIndex = layoutIndex;
    this.root = fn.firstBlock!.id;

    // Successors: one pass over terminators in layout order, deduplicated with a per-source
    // stamp; `lstart[i]` is where the i-th block (in layout) starts in `edges`.
    const lstart = new Int32Array(k + 1);
    let edges = new Int32Array(Math.max(16, k * 2));
    const stamp = new Int32Array(n).fill(-1);
    let m = 0;
    for (let i = 0; i < k; i++) {
      const id = order[i];
      lstart[i] = m;
      const t = blocks[id]!.last;
      if (t === null || !t.isTerminator()) continue;
      // Successor slots read straight from the operand layout (br: [dest] | [cond, t, f];
      // switch: [cond, default, v0, bb0, ...]; indirectbr: [addr, bb...]).
      const ops = t.ops;
      const nops = ops.length;
      let first: number;
      let step: number;
      if (t.op === Opcode.Br) {
        first = nops === 1 ? 0 : 1;
        step = 1;
      } else if (t.op === Opcode.Switch) {
        first = 1;
        step = 2;
      } else if (t.op === Opcode.IndirectBr) {
        first = 1;
        step = 1;
      } else continue;
      for (let s = first; s < nops; s += step) {
        const target = ops[s].value as BasicBlock;
        // `blocks[target.id] === target` implies a block of this function (anything else
        // has no such id or names another object).
        const tid = target.id;
        if (!(tid >= 0 && tid < n) || blocks[tid] !== target || stamp[tid] === id) continue;
        stamp[tid] = id;
        if (m === edges.length) {
          const grown = new Int32Array(m * 2);
          grown.set(edges);
          edges = grown;
        }
        edges[m++] = tid;
      }
    }
    lstart[k] = m;
    // CSR is indexed by id; ids follow layout after renumber(), else copy block by block.
    const off = new Int32Array(n + 1);
    for (let i = 0; i < k; i++) off[order[i] + 1] = lstart[i + 1] - lstart[i];
    for (let v = 0; v < n; v++) off[v + 1] += off[v];
    const succById = new Int32Array(m);
    for (let i = 0; i < k; i++) {
      let o = off[order[i]];
      for (let j = lstart[i]; j < lstart[i + 1]; j++) succById[o++] = edges[j];
    }
    this.succOff = off;
    this.succ = succById;
    // Predecessors in layout order of the source: transpose visits sources by id, so map
    // through layout order when ids are not in layout order.
    let inLayoutOrder = true;
    for (let i = 0; i < k; i++) if (order[i] !== i) inLayoutOrder = false;
    if (inLayoutOrder) {
      const [po, p] = transpose(n, off, succById);
      this.predOff = po;
      this.pred = p;
    } else {
      const pOff = new Int32Array(n + 1);
      for (let j = 0; j < m; j++) pOff[succById[j] + 1]++;
      for (let v = 0; v < n; v++) pOff[v + 1] += pOff[v];
      const fill = pOff.slice(0, n);
      const p = new Int32Array(m);
      for (let i = 0; i < k; i++) {
        const u = order[i];
        for (let j = off[u]; j < off[u + 1]; j++) p[fill[succById[j]]++] = u;
      }
      this.predOff = pOff;
      this.pred = p;
    }
    this.dfs = new DepthFirst(this);
  }

  blockOf(id: number): BasicBlock | null {
    return id >= 0 && id < this.n ? this.blocks[id] : null;
  }

  /**
   * A block's successors, as a view of `succ` (made once per block: views are costly
   * objects, and the passes ask again and again; loops over `succOff` need none).
   */
  successors(id: number): Int32Array {
    return (this.succViews[id] ??= this.succ.subarray(this.succOff[id], this.succOff[id + 1]));
  }

  /** A block's predecessors, as a view of `pred` (made once per block, as `successors`). */
  predecessors(id: number): Int32Array {
    return (this.predViews[id] ??= this.pred.subarray(this.predOff[id], this.predOff[id + 1]));
  }
  private readonly succViews: Int32Array[] = [];
  private readonly predViews: Int32Array[] = [];

  numSuccessors(id: number): number {
    return this.succOff[id + 1] - this.succOff[id];
  }

  numPredecessors(id: number): number {
    return this.predOff[id + 1] - this.predOff[id];
  }

  /** Reachable block ids in reverse postorder. */
  get rpo(): Int32Array {
    return this.dfs.rpo;
  }

  isReachable(id: number): boolean {
    return this.dfs.pre[id] >= 0;
  }

  /** Blocks the entry cannot reach, in layout order. */
  unreachableBlocks(): Int32Array {
    const out: number[] = [];
    for (const id of this.order) if (this.dfs.pre[id] < 0) out.push(id);
    return Int32Array.from(out);
  }

  /** A retreating edge of the DFS from the entry (target is a DFS ancestor of the source or the source itself). */
  isBackEdge(u: number, v: number): boolean {
    return this.dfs.isBackEdge(u, v);
  }

  /** All DFS back edges as `[u0, v0, u1, v1, ...]`, sources in layout order. */
  backEdges(): Int32Array {
    const out: number[] = [];
    for (const u of this.order) {
      for (let j = this.succOff[u]; j < this.succOff[u + 1]; j++) if (this.dfs.isBackEdge(u, this.succ[j])) out.push(u, this.succ[j]);
    }
    return Int32Array.from(out);
  }

  /**
   * An edge u→v is critical when u has several distinct successors and v several distinct
   * predecessors: code for the edge can go neither at the end of u nor at the start of v.
   * (Two parallel edges from one `br` to the same block count as one edge here.)
   */
  isCriticalEdge(u: number, v: number): boolean {
    return this.numSuccessors(u) > 1 && this.numPredecessors(v) > 1;
  }

  /** All critical edges as `[u0, v0, ...]`, sources in layout order. */
  criticalEdges(): Int32Array {
    const out: number[] = [];
    for (const u of this.order) {
      if (this.numSuccessors(u) < 2) continue;
      for (let j = this.succOff[u]; j < this.succOff[u + 1]; j++) if (this.numPredecessors(this.succ[j]) > 1) out.push(u, this.succ[j]);
    }
    return Int32Array.from(out);
  }

  /** How many successor slots of u's terminator name v (0 when there is no edge). */
  edgeCount(u: number, v: number): number {
    const t = this.blocks[u]?.last;
    if (t == null || !t.isTerminator()) return 0;
    const target = this.blocks[v];
    let c = 0;
    const ns = t.numSuccessors();
    for (let s = 0; s < ns; s++) if (t.successor(s) === target) c++;
    return c;
  }

  /** Sorts block ids by layout position (in place) and returns them. */
  sortByLayout(ids: number[] | Int32Array): number[] | Int32Array {
    const li = this.layoutIndex;
    return ids.sort((a, b) => li[a] - li[b]);
  }
}

/** The CFG of `fn` (entry point for clients that want only the graph). */
export function computeCFG(fn: Function): CFG {
  return new CFG(fn);
}

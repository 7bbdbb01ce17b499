/**
 * Natural loops and the loop nest, as LLVM's LoopInfo finds them (LoopInfoImpl.h,
 * `analyze` / `discoverAndMapSubloop`): a header is a block that dominates one of its
 * predecessors (a back edge); its loop is everything that reaches a back-edge source
 * backwards without passing the header. Headers are visited inner first (descendants
 * in the dominator tree before ancestors), so an inner loop is complete when an outer
 * loop's backward walk reaches it; the walk then jumps to the inner loop's outermost
 * discovered ancestor (union-find with path compression) and adopts it.
 *
 * Irreducible regions: removing every back edge leaves a reducible CFG acyclic; whatever
 * cycles remain enter through several blocks. We report them as the non-trivial strongly
 * connected components of the reachable CFG without back edges (iterative Tarjan).
 *
 * Invariants: loops are numbered in preorder of the loop tree (siblings by header layout
 * position), so each loop's blocks — grouped by innermost loop in that order — are one
 * contiguous range of `blockList`; `contains` is an interval test. Memory is O(blocks)
 * even for 10,000 nested loops.
 */
import type { Function } from '../ir/function.js';
import { CFG } from './cfg.js';
import { DominatorTree, computeDominators } from './dominators.js';

export class Loop {
  /** Parent loop, or null for a top-level loop. */
  parent: Loop | null = null;
  readonly subLoops: Loop[] = [];
  /** Nesting depth: 1 for top-level loops. */
  depth = 1;
  /** Preorder index in the loop tree (`LoopInfo.loops[index] === this`). */
  index = -1;
  /** End (exclusive) of this loop's subtree in preorder. */
  subtreeEnd = -1;

  constructor(
    readonly info: LoopInfo,
    readonly header: number,
  ) {}

  /** Block ids of the loop (subloops included), in layout order. */
  blocks(): Int32Array {
    const li = this.info;
    const out = li.blockList.slice(li.rangeStart[this.index], li.rangeStart[this.subtreeEnd]);
    const lay = li.cfg.layoutIndex;
    return out.sort((a, b) => lay[a] - lay[b]);
  }

  get numBlocks(): number {
    return this.info.rangeStart[this.subtreeEnd] - this.info.rangeStart[this.index];
  }

  contains(b: number): boolean {
    const l = this.info.innermost[b];
    return l >= this.index && l < this.subtreeEnd;
  }

  containsLoop(other: Loop): boolean {
    return other.index >= this.index && other.index < this.subtreeEnd;
  }

  /** Sources of back edges to the header (in layout order). */
  latches(): Int32Array {
    const cfg = this.info.cfg;
    const out: number[] = [];
    for (const p of cfg.predecessors(this.header)) if (this.contains(p)) out.push(p);
    return Int32Array.from(out);
  }

  /** Blocks of the loop with a successor outside it (layout order). */
  exitingBlocks(): Int32Array {
    const cfg = this.info.cfg;
    const out: number[] = [];
    for (const b of this.blocks()) {
      for (const s of cfg.successors(b)) {
        if (!this.contains(s)) {
          out.push(b);
          break;
        }
      }
    }
    return Int32Array.from(out);
  }

  /** Distinct blocks outside the loop with a predecessor inside it (layout order). */
  exitBlocks(): Int32Array {
    const cfg = this.info.cfg;
    const seen = new Set<number>();
    for (const b of this.blocks()) for (const s of cfg.successors(b)) if (!this.contains(s)) seen.add(s);
    return cfg.sortByLayout(Int32Array.from(seen)) as Int32Array;
  }

  /**
   * LLVM's getLoopPreheader: the unique predecessor of the header outside the loop, if its
   * terminator has the header as its only successor; else -1.
   */
  preheader(): number {
    const cfg = this.info.cfg;
    let out = -1;
    for (const p of cfg.predecessors(this.header)) {
      if (this.contains(p)) continue;
      if (out >= 0) return -1;
      out = p;
    }
    if (out < 0) return -1;
    const t = cfg.blockOf(out)!.last;
    if (t === null || !t.isTerminator() || t.numSuccessors() !== 1) return -1;
    return out;
  }
}

export class LoopInfo {
  /** All loops in preorder of the loop tree (outer before inner, siblings by header layout). */
  readonly loops: Loop[];
  readonly topLevel: Loop[];
  /** Innermost loop index of each block (-1 = in no loop). */
  readonly innermost: Int32Array;
  /** Blocks grouped by innermost loop in loop preorder. */
  readonly blockList: Int32Array;
  /** `rangeStart[i]`: start of loop i's own blocks in blockList; `rangeStart[loops.length]` = end. */
  readonly rangeStart: Int32Array;
  /** Non-trivial SCCs of the reachable CFG without back edges, each in layout order. */
  readonly irreducibleRegions: Int32Array[];

  constructor(
    readonly cfg: CFG,
    readonly domTree: DominatorTree,
  ) {
    const n = cfg.n;
    const predOff = cfg.predOff;
    const pred = cfg.pred;
    const depth = domTree.depth;
    const pre = domTree.preorder;
    const loopOf = new Int32Array(n).fill(-1);
    const headers: number[] = [];
    const parentOf: number[] = [];
    const uf: number[] = [];
    let stack: Int32Array = new Int32Array(Math.max(16, n));
    const find = (x: number): number => {
      while (uf[x] !== x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
      }
      return x;
    };
    for (let k = pre.length - 1; k >= 0; k--) {
      const h = pre[k];
      let sp = 0;
      for (let j = predOff[h]; j < predOff[h + 1]; j++) {
        const p = pred[j];
        if (depth[p] >= 0 && domTree.dominates(h, p)) stack[sp++] = p;
      }
      if (sp === 0) continue;
      const L = headers.length;
      headers.push(h);
      parentOf.push(-1);
      uf.push(L);
      while (sp > 0) {
        const b = stack[--sp];
        if (depth[b] < 0) continue;
        const sub = loopOf[b];
        if (sub < 0) {
          loopOf[b] = L;
          if (b === h) continue;
          for (let j = predOff[b]; j < predOff[b + 1]; j++) {
            if (sp === stack.length) stack = grow(stack);
            stack[sp++] = pred[j];
          }
        } else {
          const s = find(sub);
          if (s === L) continue;
          parentOf[s] = L;
          uf[s] = L;
          const sh = headers[s];
          // Preds inside the adopted subtree resolve to L and stop; the others enter it.
          for (let j = predOff[sh]; j < predOff[sh + 1]; j++) {
            const p = pred[j];
            if (loopOf[p] === s) continue;
            if (sp === stack.length) stack = grow(stack);
            stack[sp++] = p;
          }
        }
      }
    }

    // Loop tree: children by header layout position, then preorder numbering.
    const nl = headers.length;
    const lay = cfg.layoutIndex;
    const loopObjs: Loop[] = new Array(nl);
    for (let i = 0; i < nl; i++) loopObjs[i] = new Loop(this, headers[i]);
    const top: Loop[] = [];
    for (let i = 0; i < nl; i++) {
      const p = parentOf[i];
      if (p < 0) top.push(loopObjs[i]);
      else {
        loopObjs[i].parent = loopObjs[p];
        loopObjs[p].subLoops.push(loopObjs[i]);
      }
    }
    const byHeader = (a: Loop, b: Loop): number => lay[a.header] - lay[b.header];
    top.sort(byHeader);
    for (const l of loopObjs) if (l.subLoops.length > 1) l.subLoops.sort(byHeader);
    const ordered: Loop[] = [];
    const lstack: Loop[] = [];
    for (let i = top.length - 1; i >= 0; i--) lstack.push(top[i]);
    while (lstack.length > 0) {
      const l = lstack.pop()!;
      l.depth = l.parent === null ? 1 : l.parent.depth + 1;
      l.index = ordered.length;
      ordered.push(l);
      for (let i = l.subLoops.length - 1; i >= 0; i--) lstack.push(l.subLoops[i]);
    }
    // subtreeEnd: in preorder, a loop's subtree ends where the next loop of depth <= its own starts.
    for (let i = nl - 1; i >= 0; i--) {
      const l = ordered[i];
      let end = i + 1;
      if (l.subLoops.length > 0) end = l.subLoops[l.subLoops.length - 1].subtreeEnd;
      l.subtreeEnd = end;
    }
    const innermost = new Int32Array(n).fill(-1);
    const rangeStart = new Int32Array(nl + 1);
    for (const b of cfg.order) {
      const l = loopOf[b];
      if (l >= 0) {
        innermost[b] = loopObjs[l].index;
        rangeStart[loopObjs[l].index + 1]++;
      }
    }
    for (let i = 0; i < nl; i++) rangeStart[i + 1] += rangeStart[i];
    const fill = rangeStart.slice(0, nl);
    const blockList = new Int32Array(rangeStart[nl]);
    for (const b of cfg.order) if (innermost[b] >= 0) blockList[fill[innermost[b]]++] = b;
    this.loops = ordered;
    this.topLevel = top;
    this.innermost = innermost;
    this.blockList = blockList;
    this.rangeStart = rangeStart;
    this.irreducibleRegions = findIrreducibleRegions(cfg, domTree);
  }

  /** The innermost loop containing block `b`, or null. */
  loopFor(b: number): Loop | null {
    const i = this.innermost[b];
    return i < 0 ? null : this.loops[i];
  }

  /** Loop nesting depth of block `b` (0 = in no loop). */
  loopDepth(b: number): number {
    const i = this.innermost[b];
    return i < 0 ? 0 : this.loops[i].depth;
  }

  isLoopHeader(b: number): boolean {
    const l = this.loopFor(b);
    return l !== null && l.header === b;
  }

  /** Whether the reachable CFG has a cycle that is not a natural loop. */
  get irreducible(): boolean {
    return this.irreducibleRegions.length > 0;
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** Non-trivial SCCs of the reachable CFG minus back edges (target dominates source). */
function findIrreducibleRegions(cfg: CFG, dt: DominatorTree): Int32Array[] {
  const n = cfg.n;
  const succOff = cfg.succOff;
  const succ = cfg.succ;
  const depth = dt.depth;
  // Quick exit: no DFS retreating edge that is not a back edge means the CFG is reducible.
  let any = false;
  for (const u of cfg.dfs.rpo) {
    for (let j = succOff[u]; j < succOff[u + 1]; j++) {
      const v = succ[j];
      if (cfg.dfs.isBackEdge(u, v) && !dt.dominates(v, u)) {
        any = true;
        break;
      }
    }
    if (any) break;
  }
  if (!any) return [];
  // Iterative Tarjan.
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const sccStack = new Int32Array(n);
  const callStack = new Int32Array(n);
  const cursor = new Int32Array(n);
  let ssp = 0;
  let counter = 0;
  const regions: Int32Array[] = [];
  const lay = cfg.layoutIndex;
  for (const r of cfg.order) {
    if (depth[r] < 0 || index[r] >= 0) continue;
    let csp = 0;
    callStack[csp] = r;
    cursor[csp++] = succOff[r];
    index[r] = low[r] = counter++;
    sccStack[ssp++] = r;
    onStack[r] = 1;
    while (csp > 0) {
      const top = csp - 1;
      const v = callStack[top];
      const c = cursor[top];
      if (c < succOff[v + 1]) {
        cursor[top] = c + 1;
        const w = succ[c];
        if (depth[w] < 0 || dt.dominates(w, v)) continue; // back edge (or self loop): removed
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          sccStack[ssp++] = w;
          onStack[w] = 1;
          callStack[csp] = w;
          cursor[csp++] = succOff[w];
        } else if (onStack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
      } else {
        csp--;
        if (csp > 0) {
          const p = callStack[csp - 1];
          if (low[v] < low[p]) low[p] = low[v];
        }
        if (low[v] === index[v]) {
          let size = 0;
          let k = ssp;
          do {
            k--;
            size++;
          } while (sccStack[k] !== v);
          const comp = sccStack.slice(k, ssp);
          for (let i = k; i < ssp; i++) onStack[sccStack[i]] = 0;
          ssp = k;
          if (size > 1) regions.push(comp.sort((a, b) => lay[a] - lay[b]));
        }
      }
    }
  }
  regions.sort((a, b) => lay[a[0]] - lay[b[0]]);
  return regions;
}

/** The loop nest of a function. */
export function findLoops(fn: Function | CFG, domTree?: DominatorTree): LoopInfo {
  const dt = domTree ?? computeDominators(fn);
  const cfg = dt.cfg ?? (fn instanceof CFG ? fn : new CFG(fn));
  return new LoopInfo(cfg, dt);
}

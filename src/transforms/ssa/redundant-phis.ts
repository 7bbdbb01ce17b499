/**
 * Removal of redundant phi webs by strongly connected components, Braun et al., "Simple and
 * Efficient Construction of Static Single Assignment Form" (CC 2013), Algorithm 5.
 *
 * A set of phis is redundant when, apart from referring to each other, its members refer to
 * exactly one other value v: all of them then always equal v (and v dominates them), so v
 * replaces them all. Trivial-phi removal (one phi at a time) misses such webs, which Braun's
 * construction leaves on irreducible control flow (two blocks entered separately that
 * branch to each other). We take the SCCs of the phi graph (phi → operand phi) in
 * topological order, operands first (Tarjan's order); an SCC with one outer operand is
 * replaced by it; one with several may still contain a redundant sub-web among its "inner"
 * phis (those whose operands all lie in the SCC), so the algorithm runs again on them.
 *
 * Invariants: Tarjan's algorithm and the descent into inner sets both use explicit stacks;
 * every phi is removed at most once and only after all its uses were redirected.
 */
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import type { FunctionPass, PassContext, PassResult } from '../../pm/pass.js';
import type { PassInfo } from '../../pm/registry.js';
import type { RedundantPhiTracer } from './redundant-phis-trace.js';

export interface RedundantPhiStats {
  /** Phis removed as members of a redundant SCC (of two or more phis). */
  redundant: number;
  /** Single phis removed because they merge only themselves and one value. */
  trivial: number;
}

class PhiGraphScratch {
  /** Per instruction id: the number of the set being processed (membership). */
  inSet: Int32Array;
  index: Int32Array;
  low: Int32Array;
  onStack: Uint8Array;
  /** Per instruction id: the SCC being examined (membership). */
  inScc: Int32Array;
  constructor(bound: number) {
    const n = Math.max(1, bound);
    this.inSet = new Int32Array(n);
    this.index = new Int32Array(n);
    this.low = new Int32Array(n);
    this.onStack = new Uint8Array(n);
    this.inScc = new Int32Array(n);
  }
}

function isPhi(v: Value): v is Instruction {
  return v.kind === ValueKind.Instruction && (v as Instruction).op === Opcode.Phi;
}

/**
 * The SCCs of the phis in `set` (edges to operands inside `set`), operands before users.
 * `mark` must be unique per call (it stamps membership).
 */
function phiSCCs(set: readonly Instruction[], mark: number, s: PhiGraphScratch): Instruction[][] {
  const { inSet, index, low, onStack } = s;
  for (const p of set) {
    inSet[p.id] = mark;
    index[p.id] = -1;
  }
  const out: Instruction[][] = [];
  const tstack: Instruction[] = [];
  const cstack: Instruction[] = [];
  const cursor: number[] = [];
  let counter = 0;
  for (const root of set) {
    if (index[root.id] !== -1) continue;
    index[root.id] = low[root.id] = counter++;
    tstack.push(root);
    onStack[root.id] = 1;
    cstack.push(root);
    cursor.push(0);
    while (cstack.length > 0) {
      const top = cstack.length - 1;
      const v = cstack[top];
      const ops = v.ops;
      let i = cursor[top];
      let descended = false;
      while (i < ops.length) {
        const w = ops[i++].value;
        if (!isPhi(w) || w.parent === null || w.id < 0 || w.id >= inSet.length || inSet[w.id] !== mark) continue;
        if (index[w.id] === -1) {
          cursor[top] = i;
          index[w.id] = low[w.id] = counter++;
          tstack.push(w);
          onStack[w.id] = 1;
          cstack.push(w);
          cursor.push(0);
          descended = true;
          break;
        }
        if (onStack[w.id] && index[w.id] < low[v.id]) low[v.id] = index[w.id];
      }
      if (descended) continue;
      cstack.pop();
      cursor.pop();
      if (low[v.id] === index[v.id]) {
        const scc: Instruction[] = [];
        for (;;) {
          const w = tstack.pop()!;
          onStack[w.id] = 0;
          scc.push(w);
          if (w === v) break;
        }
        out.push(scc);
      }
      if (cstack.length > 0) {
        const parent = cstack[cstack.length - 1];
        if (low[v.id] < low[parent.id]) low[parent.id] = low[v.id];
      }
    }
  }
  return out;
}

/**
 * Removes redundant phi SCCs (and trivial single phis) among `phis` (default: every phi of
 * `fn`). Returns what was removed.
 */
export function removeRedundantPhis(fn: Function, phis?: readonly Instruction[], trace: RedundantPhiTracer | null = null): RedundantPhiStats {
  const stats: RedundantPhiStats = { redundant: 0, trivial: 0 };
  let set: Instruction[];
  if (phis !== undefined) set = phis.filter((p) => p.parent !== null && p.op === Opcode.Phi);
  else {
    set = [];
    for (let b = fn.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) set.push(i);
  }
  if (set.length === 0) return stats;
  const s = new PhiGraphScratch(fn.instIdBound);
  let mark = 0;
  // the recursion of Algorithm 5 as an explicit stack of SCC lists
  const tasks: { sccs: Instruction[][]; next: number }[] = [{ sccs: phiSCCs(set, ++mark, s), next: 0 }];
  if (trace !== null) trace.sccs(set, tasks[0].sccs, 0);
  while (tasks.length > 0) {
    const t = tasks[tasks.length - 1];
    if (t.next >= t.sccs.length) {
      tasks.pop();
      continue;
    }
    const scc = t.sccs[t.next++].filter((p) => p.parent !== null);
    if (scc.length === 0) continue;
    const sm = ++mark;
    for (const p of scc) s.inScc[p.id] = sm;
    // the outer operands: none, exactly one (`first`), or several
    let first: Value | null = null;
    let several = false;
    const inner: Instruction[] = [];
    for (const p of scc) {
      let isInner = true;
      for (const u of p.ops) {
        const v = u.value;
        if (isPhi(v) && v.parent !== null && v.id >= 0 && v.id < s.inScc.length && s.inScc[v.id] === sm) continue;
        isInner = false;
        if (first === null) first = v;
        else if (v !== first) several = true;
      }
      if (isInner) inner.push(p);
    }
    if (!several) {
      const v = first ?? UndefValue.get(scc[0].type);
      if (trace !== null) trace.replace(scc, v, tasks.length - 1);
      for (const p of scc) p.replaceAllUsesWith(v);
      for (const p of scc) p.eraseFromParent();
      if (scc.length === 1) stats.trivial++;
      else stats.redundant += scc.length;
    } else if (inner.length > 0 && inner.length < scc.length) {
      tasks.push({ sccs: phiSCCs(inner, ++mark, s), next: 0 });
      if (trace !== null) trace.descend(scc, inner, tasks[tasks.length - 1].sccs, tasks.length - 1);
    } else if (trace !== null) trace.keep(scc, inner, tasks.length - 1);
  }
  return stats;
}

export const redundantPhisPass: PassInfo = {
  name: 'redundant-phis',
  description: 'remove redundant phi webs by SCCs (Braun et al. 2013, Algorithm 5)',
  create(): FunctionPass {
    return {
      kind: 'function',
      name: 'redundant-phis',
      local: true,
      run(fn: Function, ctx: PassContext): PassResult {
        const st = removeRedundantPhis(fn);
        if (st.redundant > 0) ctx.stat('phis removed as redundant', st.redundant);
        if (st.trivial > 0) ctx.stat('phis removed as trivial', st.trivial);
        return { changed: st.redundant + st.trivial > 0, preserved: 'cfg' };
      },
    };
  },
};

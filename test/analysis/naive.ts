/**
 * Reference implementations straight from the definitions (quadratic or worse; for
 * property tests on small graphs only), and random CFG generators.
 */
import fc from 'fast-check';
import type { Graph } from '../../src/analysis/graph.js';

/** A random CFG: node 0 is the entry and has no predecessors; 0-3 successors per node. */
export interface RandomCfg {
  n: number;
  succs: number[][];
}

export const arbCfg = (maxN = 24): fc.Arbitrary<RandomCfg> =>
  fc.integer({ min: 1, max: maxN }).chain((n) =>
    fc
      .tuple(
        fc.array(fc.array(fc.integer({ min: 1, max: Math.max(1, n - 1) }), { maxLength: 3 }), { minLength: n, maxLength: n }),
        // bias towards forward edges sometimes, so that deep structured graphs appear too
        fc.boolean(),
      )
      .map(([succs, forwardish]) => ({
        n,
        succs: succs.map((s, i) => {
          if (n === 1) return [];
          if (!forwardish) return s;
          return s.map((t, k) => (k === 0 && i + 1 < n ? i + 1 : t));
        }),
      })),
  );

/** dom(v) as sets over nodes reachable from the root (set-based fixed point). */
export function naiveDominators(g: Graph): (Set<number> | null)[] {
  const n = g.n;
  const reach = reachable(g);
  const all = new Set<number>();
  for (let v = 0; v < n; v++) if (reach[v]) all.add(v);
  const dom: (Set<number> | null)[] = new Array(n).fill(null);
  for (let v = 0; v < n; v++) if (reach[v]) dom[v] = v === g.root ? new Set([v]) : new Set(all);
  let changed = true;
  while (changed) {
    changed = false;
    for (let v = 0; v < n; v++) {
      if (!reach[v] || v === g.root) continue;
      let acc: Set<number> | null = null;
      for (let j = g.predOff[v]; j < g.predOff[v + 1]; j++) {
        const p = g.pred[j];
        if (!reach[p]) continue;
        acc = acc === null ? new Set(dom[p]!) : new Set([...acc].filter((x) => dom[p]!.has(x)));
      }
      const next = new Set(acc ?? []);
      next.add(v);
      if (next.size !== dom[v]!.size) {
        dom[v] = next;
        changed = true;
      }
    }
  }
  return dom;
}

/** Immediate dominators from dominator sets: the strict dominator with the largest set. */
export function idomFromSets(dom: (Set<number> | null)[], root: number): number[] {
  return dom.map((s, v) => {
    if (s === null || v === root) return -1;
    let best = -1;
    for (const d of s) if (d !== v && (best < 0 || dom[d]!.size > dom[best]!.size)) best = d;
    return best;
  });
}

export function reachable(g: Graph): boolean[] {
  const seen: boolean[] = new Array(g.n).fill(false);
  if (g.root < 0 || g.root >= g.n) return seen;
  const st = [g.root];
  seen[g.root] = true;
  while (st.length) {
    const v = st.pop()!;
    for (let j = g.succOff[v]; j < g.succOff[v + 1]; j++) {
      const w = g.succ[j];
      if (!seen[w]) {
        seen[w] = true;
        st.push(w);
      }
    }
  }
  return seen;
}

/** DF(x) = { y : x dominates a reachable pred of y and x does not strictly dominate y }. */
export function naiveFrontier(g: Graph, dom: (Set<number> | null)[]): number[][] {
  const n = g.n;
  const out: number[][] = [];
  for (let x = 0; x < n; x++) {
    const s: number[] = [];
    if (dom[x] !== null) {
      for (let y = 0; y < n; y++) {
        if (dom[y] === null) continue;
        let domPred = false;
        for (let j = g.predOff[y]; j < g.predOff[y + 1]; j++) {
          const p = g.pred[j];
          if (dom[p] !== null && dom[p]!.has(x)) domPred = true;
        }
        const sdom = x !== y && dom[y]!.has(x);
        if (domPred && !sdom) s.push(y);
      }
    }
    out.push(s);
  }
  return out;
}

/** DF+ of a set as the fixed point DF(S ∪ DF+). */
export function naiveIdf(df: number[][], defs: number[]): number[] {
  const res = new Set<number>();
  let changed = true;
  while (changed) {
    changed = false;
    for (const x of [...defs, ...res]) {
      for (const y of df[x]) {
        if (!res.has(y)) {
          res.add(y);
          changed = true;
        }
      }
    }
  }
  return [...res].sort((a, b) => a - b);
}

/** Whether the reachable part of the graph minus the given edges is cyclic. */
export function hasCycleWithout(g: Graph, removed: (u: number, v: number) => boolean): boolean {
  const reach = reachable(g);
  const indeg = new Array(g.n).fill(0);
  for (let u = 0; u < g.n; u++) {
    if (!reach[u]) continue;
    for (let j = g.succOff[u]; j < g.succOff[u + 1]; j++) if (!removed(u, g.succ[j])) indeg[g.succ[j]]++;
  }
  const q: number[] = [];
  let count = 0;
  let total = 0;
  for (let u = 0; u < g.n; u++) if (reach[u]) {
    total++;
    if (indeg[u] === 0) q.push(u);
  }
  while (q.length) {
    const u = q.pop()!;
    count++;
    for (let j = g.succOff[u]; j < g.succOff[u + 1]; j++) {
      const v = g.succ[j];
      if (removed(u, v)) continue;
      if (--indeg[v] === 0) q.push(v);
    }
  }
  return count !== total;
}

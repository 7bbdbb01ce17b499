/**
 * The trace of Cytron et al.'s phi-placement worklist (TOPLAS 1991, Figure 11), as
 * IDFCalculator.calculateFromFrontiers runs it: the query's epoch is the paper's IterCount,
 * `added[y] === epoch` its HasAlready(Y) and `defStamp[y] === epoch` its Work(Y); W is the
 * stack of blocks whose frontier is still to be scanned. Only called when tracing.
 */
import type { Tracer } from './trace.js';

const names = (t: Tracer, ids: ArrayLike<number>, n = ids.length): string[] => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(t.name(ids[i]));
  return out;
};

export function traceCytronInit(t: Tracer, iterCount: number, work: Int32Array, sp: number): void {
  const w = names(t, work, sp);
  t.step('init', `IterCount = ${iterCount}; W = {${w.join(', ')}} (the assignment blocks; Work(X) = IterCount for each)`, w, { iterCount, W: w });
}

export function traceCytronTake(t: Tracer, x: number, off: Int32Array, list: Int32Array, work: Int32Array, sp: number): void {
  const df = names(t, list.subarray(off[x], off[x + 1]));
  const rest = names(t, work, sp);
  t.step('take', `take ${t.name(x)} from W (W = {${rest.join(', ')}}); DF(${t.name(x)}) = {${df.join(', ')}}`, [x], { block: t.name(x), df, W: rest });
}

export function traceCytronJoin(t: Tracer, x: number, y: number, hasAlready: boolean, live: boolean, inWork: boolean): void {
  const Y = t.name(y);
  let text: string;
  let decision: string;
  if (hasAlready) {
    decision = 'has-already';
    text = `  ${Y}: HasAlready(${Y}) = IterCount, it already has its φ`;
  } else if (!live) {
    decision = 'pruned';
    text = `  ${Y}: not live-in, no φ (pruned SSA)`;
  } else if (inWork) {
    decision = 'phi';
    text = `  ${Y}: place φ at ${Y}; HasAlready(${Y}) = IterCount; Work(${Y}) = IterCount already (an assignment block), not added to W`;
  } else {
    decision = 'phi+W';
    text = `  ${Y}: place φ at ${Y}; HasAlready(${Y}) = IterCount; Work(${Y}) < IterCount, so W gets ${Y}`;
  }
  t.step('join', text, [y, x], { from: t.name(x), block: Y, decision });
}

export function traceCytronDf(t: Tracer, result: Int32Array, n: number): void {
  const r = names(t, result, n);
  t.step('result', `φ-nodes placed in {${r.join(', ')}}`, r, { idf: r });
}

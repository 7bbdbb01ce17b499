/**
 * The trace of Cooper–Harvey–Kennedy's iterative dominators (dominators-chk.ts): per node,
 * the predecessors it intersects and the idom it gets; per round, the Dom sets the idoms
 * stand for (Dom(b) = b and the idom chain above it), the table the paper and Engineering a
 * Compiler (Figure 9.2, the B0–B8 example) print round by round. Only called when tracing.
 */
import type { Graph } from './graph.js';
import type { Tracer } from './trace.js';

/** Dom(b) implied by the (partial) idom array: b, idom(b), … up to the root. */
function domChain(idom: Int32Array, b: number, root: number): number[] {
  const out = [b];
  let x = b;
  let guard = idom.length;
  while (x !== root && idom[x] >= 0 && guard-- > 0) {
    x = idom[x];
    out.push(x);
  }
  return out;
}

export function traceChkNode(t: Tracer, g: Graph, idom: Int32Array, b: number, newIdom: number): void {
  const ps: string[] = [];
  for (let j = g.predOff[b]; j < g.predOff[b + 1]; j++) {
    const p = g.pred[j];
    ps.push(idom[p] < 0 ? `${t.name(p)} (not yet processed, skipped)` : t.name(p));
  }
  const old = idom[b];
  const what = old === newIdom ? 'unchanged' : old < 0 ? 'first value' : `was ${t.name(old)}`;
  const dom = domChain(idom, newIdom, g.root).map((x) => t.name(x));
  dom.unshift(t.name(b));
  t.step('node', `  ${t.name(b)}: intersect preds {${ps.join(', ')}} -> idom ${t.name(newIdom)} (${what}); Dom(${t.name(b)}) = {${dom.join(', ')}}`, [b, newIdom], {
    node: t.name(b),
    idom: t.name(newIdom),
    changed: old !== newIdom,
  });
}

export function traceChkRound(t: Tracer, rpo: Int32Array, idom: Int32Array, root: number, round: number, changed: boolean): void {
  const dom: Record<string, string[]> = {};
  const idoms: Record<string, string | null> = {};
  const parts: string[] = [];
  for (let i = 0; i < rpo.length; i++) {
    const b = rpo[i];
    const d = domChain(idom, b, root).map((x) => t.name(x));
    dom[t.name(b)] = d;
    idoms[t.name(b)] = b === root ? null : t.name(idom[b]);
    parts.push(`${t.name(b)}:{${d.join(',')}}`);
  }
  t.step('round', `round ${round}: ${changed ? 'some idom changed, iterate again' : 'nothing changed, done'}; Dom = ${parts.join(' ')}`, [], { round, changed, dom, idom: idoms });
}

export function traceChkRoundStart(t: Tracer, rpo: Int32Array, round: number): void {
  t.step('round-start', `round ${round}: visit the nodes in reverse postorder ${Array.from(rpo, (b) => t.name(b)).join(' ')}`, [], { round });
}

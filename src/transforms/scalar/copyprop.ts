/**
 * Copy propagation for SSA form: a "copy" is an instruction whose value is just another
 * value, and every use of it is rewritten to that value (Aho, Lam, Sethi, Ullman,
 * "Compilers", §9.1.5, specialised to SSA, where copies are phis and no-op instructions).
 *
 * Copies removed:
 *  - phis whose incoming values are all one value V or the phi itself (V also dominates
 *    the phi then); with undef entries only when V is a constant/argument or dominates;
 *  - cycles of phis that together only ever carry one outside value V: Braun, Buchwald,
 *    Hack, Leißa, Mallon, Zwinkau, "Simple and Efficient Construction of SSA Form"
 *    (CC 2013), Algorithm 5 — strongly connected components of the phi graph, an SCC with
 *    a single outside operand is replaced by it, otherwise its inner phis (operands all in
 *    the SCC) are examined the same way (an explicit stack, no recursion);
 *  - `select c, x, x`, `bitcast`/`addrspacecast` to the same type, `llvm.ssa.copy(x)`,
 *    and `freeze x` where x can never be undef or poison (non-undef constants, `noundef`
 *    arguments, another freeze). A freeze of any other value is NOT a copy: it picks one
 *    fixed value for an undef, and replacing it by x would let each use pick differently.
 *
 * Invariant: only reachable blocks are rewritten (in unreachable code a phi may name itself
 * through other phis with no outside value at all).
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { isGuaranteedNotUndefOrPoison, simplifyPhiValues } from '../../analysis/instsimplify.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { FunctionPass, PassContext, PassResult } from '../../pm/pass.js';
import type { PassInfo } from '../../pm/registry.js';

/** The value a copy instruction copies, or null when `i` is not a copy (phis: see copyOfPhi). */
export function copySource(i: Instruction): Value | null {
  switch (i.op) {
    case Opcode.Select:
      return i.ops[1].value === i.ops[2].value ? i.ops[1].value : null;
    case Opcode.BitCast:
    case Opcode.AddrSpaceCast:
      return i.ops[0].value.type === i.type ? i.ops[0].value : null;
    case Opcode.Freeze:
      return isGuaranteedNotUndefOrPoison(i.ops[0].value) ? i.ops[0].value : null;
    case Opcode.Call: {
      const f = i.calledFunction();
      return f !== null && f.name.startsWith('llvm.ssa.copy') && i.ops.length === 2 ? i.ops[1].value : null;
    }
    default:
      return null;
  }
}

export function propagateCopies(fn: Function, ctx: PassContext): number {
  const cfg = ctx.analyses.get(CFGAnalysis);
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const reachable = (bb: BasicBlock | null): boolean => bb !== null && bb.id < cfg.n && cfg.blocks[bb.id] === bb && cfg.isReachable(bb.id);
  const dominatesPhi = (v: Value, bb: BasicBlock): boolean => {
    if (v.kind !== ValueKind.Instruction) return v.kind === ValueKind.Argument;
    const d = (v as Instruction).parent;
    return d !== null && d !== bb && dt.dominates(d.id, bb.id);
  };
  let removed = 0;
  const replace = (i: Instruction, v: Value, work: Instruction[]): void => {
    for (let u = i.firstUse; u !== null; u = u.next) if (u.user.kind === ValueKind.Instruction) work.push(u.user as Instruction);
    i.replaceAllUsesWith(v);
    if (isTriviallyDead(i) || i.op === Opcode.Phi) i.eraseFromParent();
    removed++;
  };

  // 1. single copies, to a fixed point
  const work: Instruction[] = [];
  for (let k = cfg.rpo.length - 1; k >= 0; k--) {
    const bb = cfg.blocks[cfg.rpo[k]]!;
    for (let i = bb.last; i !== null; i = i.prev) work.push(i);
  }
  while (work.length > 0) {
    const i = work.pop()!;
    if (i.parent === null || !reachable(i.parent)) continue;
    let v: Value | null;
    if (i.op === Opcode.Phi) {
      const vals: Value[] = [];
      for (const u of i.ops) vals.push(u.value);
      v = simplifyPhiValues(vals, i, (x) => dominatesPhi(x, i.parent!));
    } else v = copySource(i);
    if (v !== null && v !== i) replace(i, v, work);
  }

  // 2. phi webs with a single outside value (Braun et al., Algorithm 5)
  const phis: Instruction[] = [];
  for (const id of cfg.rpo) for (let i = cfg.blocks[id]!.first; i !== null && i.op === Opcode.Phi; i = i.next) phis.push(i);
  const todo: Instruction[][] = phis.length > 0 ? sccsOf(phis) : [];
  while (todo.length > 0) {
    const scc = todo.pop()!;
    const inScc = new Set(scc);
    let outer: Value | null = null;
    let many = false;
    let sawUndef = false;
    for (const p of scc) {
      if (p.parent === null) continue;
      for (const u of p.ops) {
        const v = u.value;
        if (inScc.has(v as Instruction)) continue;
        if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) {
          sawUndef = true;
          continue;
        }
        if (outer === null) outer = v;
        else if (outer !== v) many = true;
      }
    }
    if (outer !== null && !many && (!sawUndef || outer.kind >= ValueKind.ConstantInt || outer.kind === ValueKind.Argument)) {
      const dummy: Instruction[] = [];
      for (const p of scc) if (p.parent !== null) replace(p, outer, dummy);
      continue;
    }
    if (!many) continue;
    // the inner phis (no operand outside the SCC) form smaller webs of their own
    const inner = scc.filter((p) => p.parent !== null && p.ops.every((u) => inScc.has(u.value as Instruction)));
    if (inner.length > 0 && inner.length < scc.length) for (const s of sccsOf(inner)) todo.push(s);
  }
  if (removed > 0) ctx.stat('copies removed', removed);
  return removed;
}

/**
 * Strongly connected components of the graph on `nodes` with an edge from a phi to each
 * operand phi in `nodes` (Tarjan's algorithm, iterative). Components come out operands
 * first, so the work stack (popping from the end) is filled in reverse.
 */
function sccsOf(nodes: Instruction[]): Instruction[][] {
  const index = new Map<Instruction, number>();
  for (let k = 0; k < nodes.length; k++) index.set(nodes[k], k);
  const n = nodes.length;
  const num = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const call: number[] = [];
  const cursor: number[] = [];
  const out: Instruction[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (num[root] >= 0) continue;
    call.push(root);
    cursor.push(0);
    num[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (call.length > 0) {
      const top = call.length - 1;
      const v = call[top];
      const ops = nodes[v].ops;
      if (cursor[top] < ops.length) {
        const w = index.get(ops[cursor[top]++].value as Instruction);
        if (w === undefined) continue;
        if (num[w] < 0) {
          num[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          call.push(w);
          cursor.push(0);
        } else if (onStack[w] && num[w] < low[v]) low[v] = num[w];
        continue;
      }
      call.pop();
      cursor.pop();
      if (call.length > 0) {
        const parent = call[call.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] === num[v]) {
        const comp: Instruction[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(nodes[w]);
        } while (w !== v);
        out.push(comp);
      }
    }
  }
  return out.reverse();
}

export const copypropPass: PassInfo = {
  name: 'copyprop',
  description: 'replace uses of copies (single-value phis and phi webs, select c,x,x, no-op casts, freeze of well-defined values)',
  create(): FunctionPass {
    return {
      kind: 'function',
      name: 'copyprop',
      run(fn: Function, ctx: PassContext): PassResult {
        return { changed: propagateCopies(fn, ctx) > 0, preserved: 'cfg' };
      },
    };
  },
};

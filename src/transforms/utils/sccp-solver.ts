/**
 * The SCCP solver and lattice (LLVM's Transforms/Utils/SCCPSolver): Wegman and Zadeck,
 * "Constant Propagation with Conditional Branches" (TOPLAS 1991), the SCC algorithm over
 * SSA edges and CFG edges, and the rewrite of a function by a solved lattice. The
 * function pass (scalar/sccp.ts) and the interprocedural one (ipo/ipsccp.ts) both use it.
 *
 * Invariants:
 *  - Every instruction has a lattice value that only moves down: top (no information yet)
 *    → constant c → overdefined. Arguments, globals and memory are overdefined; constants
 *    are themselves.
 *  - A block is executable once an edge into it is (the entry is); only instructions of
 *    executable blocks are evaluated; a phi meets only the values on executable edges, and
 *    undef/poison incoming values do not lower it (they may be chosen equal to the rest).
 *  - A branch marks only the edges its condition allows: a constant condition one edge,
 *    an overdefined one all edges, a top one none. After the fixed point, branches whose
 *    condition is still top (it depends only on undef) get all their edges, and the
 *    solver runs again — so no executable code is ever deleted on the strength of undef.
 *  - Evaluation uses src/analysis/instsimplify.ts on the operands' lattice constants (and
 *    the operands themselves where overdefined, so `x - x` and `x * 0` fold); an
 *    instruction with a top operand stays top.
 *
 * Then: uses of instructions with constant values are replaced by the constants (and the
 * instructions deleted when they have no side effects), branches and switches with known
 * conditions become unconditional, the successors' phis lose the dropped edges, and
 * blocks that are not executable are deleted.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { Constant, ConstantInt } from '../../ir/constants.js';
import { isTriviallyDead } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { voidType } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { simplifyInstruction, simplifyWithOperands } from '../../analysis/instsimplify.js';
import type { PassContext } from '../../pm/pass.js';
import { reportStats } from '../../pm/define-pass.js';
import type { SCCPTracer } from './sccp-solver-trace.js';

/** The lattice: top (no information yet) -> constant -> overdefined. */
export const TOP = 0;
export const CONST = 1;
export const OVER = 2;

/**
 * The lattice of one function: a state and constant per instruction id, executable blocks
 * and edges. SCCP's solver extends it; IPSCCP keeps one per function.
 */
export class SCCPLattice implements SCCPResultView {
  /** Lattice state per instruction id. */
  readonly state: Uint8Array;
  /** The constant of instructions in state CONST. */
  readonly value: (Constant | null)[];
  readonly executable: Uint8Array;
  readonly edges = new Set<number>();
  readonly n: number;
  readonly blocks: (BasicBlock | null)[];

  constructor(readonly fn: Function) {
    // ids stay as they are (no renumbering: cached analyses are indexed by them); arrays are
    // sized by the bounds
    this.n = fn.blockIdBound;
    this.state = new Uint8Array(fn.instIdBound);
    this.value = new Array(fn.instIdBound).fill(null);
    this.executable = new Uint8Array(this.n);
    this.blocks = new Array(this.n).fill(null);
    for (let b = fn.firstBlock; b !== null; b = b.next) this.blocks[b.id] = b;
  }

  isEdgeExecutable(from: BasicBlock, to: BasicBlock): boolean {
    return this.edges.has(from.id * this.n + to.id);
  }

  /** The constant an instruction was found to have, or null. */
  constantOf(i: Instruction): Constant | null {
    return i.id < this.state.length && this.state[i.id] === CONST ? this.value[i.id] : null;
  }
}

export class SCCPSolver extends SCCPLattice {
  private readonly flowWork: number[] = [];
  private readonly ssaWork: Instruction[] = [];
  /** Receives every step when set (sccp-solver-trace.ts); null: no cost. */
  tracer: SCCPTracer | null = null;


  /** The lattice of a value: [state, constant]. */
  private stateOf(v: Value): number {
    if (v.kind >= ValueKind.ConstantInt) return CONST;
    if (v.kind === ValueKind.Instruction) {
      const i = v as Instruction;
      return i.parent !== null && i.parent.parent === this.fn ? this.state[i.id] : OVER;
    }
    return OVER;
  }

  /** The value to evaluate with: the lattice constant, or the value itself when overdefined. */
  private operandFor(v: Value): Value {
    if (v.kind === ValueKind.Instruction) {
      const i = v as Instruction;
      if (i.parent !== null && i.parent.parent === this.fn && this.state[i.id] === CONST) return this.value[i.id]!;
    }
    return v;
  }

  solve(): void {
    const entry = this.fn.firstBlock!;
    this.markBlock(entry);
    for (;;) {
      this.drain();
      if (this.tracer !== null) this.tracer.fixpoint();
      if (!this.resolveUndefBranches()) break;
    }
  }

  private drain(): void {
    const n = this.n;
    while (this.flowWork.length > 0 || this.ssaWork.length > 0) {
      while (this.flowWork.length > 0) {
        const key = this.flowWork.pop()!;
        const to = this.blocks[key % n]!;
        if (this.tracer !== null) this.tracer.popEdge(this.blocks[(key - (key % n)) / n]!, to, this.executable[to.id] === 1);
        if (!this.executable[to.id]) this.markBlock(to);
        else for (let i = to.first; i !== null && i.op === Opcode.Phi; i = i.next) this.visit(i);
      }
      while (this.ssaWork.length > 0) {
        const v = this.ssaWork.pop()!;
        if (this.tracer !== null) this.tracer.popValue(v, this);
        for (let u = v.firstUse; u !== null; u = u.next) {
          const user = u.user as Instruction;
          if (user.kind !== ValueKind.Instruction || user.parent === null || user.parent.parent !== this.fn) continue;
          if (this.executable[user.parent.id]) this.visit(user);
        }
      }
    }
  }

  private markBlock(bb: BasicBlock): void {
    this.executable[bb.id] = 1;
    if (this.tracer !== null) this.tracer.block(bb);
    for (let i = bb.first; i !== null; i = i.next) this.visit(i);
  }

  private markEdge(from: BasicBlock, to: BasicBlock): void {
    if (to.parent !== this.fn) return;
    const key = from.id * this.n + to.id;
    if (this.edges.has(key)) return;
    this.edges.add(key);
    this.flowWork.push(key);
    if (this.tracer !== null) this.tracer.edge(from, to);
  }

  private markOver(i: Instruction): void {
    if (this.state[i.id] === OVER) return;
    this.state[i.id] = OVER;
    this.value[i.id] = null;
    this.ssaWork.push(i);
    if (this.tracer !== null) this.tracer.lattice(i, null);
  }

  private markConst(i: Instruction, c: Constant): void {
    const s = this.state[i.id];
    if (s === OVER) return;
    if (s === CONST) {
      if (this.value[i.id] !== c) this.markOver(i);
      return;
    }
    this.state[i.id] = CONST;
    this.value[i.id] = c;
    this.ssaWork.push(i);
    if (this.tracer !== null) this.tracer.lattice(i, c);
  }

  private visit(i: Instruction): void {
    if (i.isTerminator()) {
      this.visitTerminator(i);
      return;
    }
    if (!i.hasResult() || i.id >= this.state.length) return;
    if (this.state[i.id] === OVER) return;
    if (i.op === Opcode.Phi) {
      this.visitPhi(i);
      return;
    }
    if (i.op === Opcode.Select) {
      const cs = this.stateOf(i.ops[0].value);
      if (cs === TOP) return;
      const c = this.operandFor(i.ops[0].value);
      if (c.kind === ValueKind.ConstantInt) {
        this.copyLattice(i, i.ops[(c as ConstantInt).value !== 0n ? 1 : 2].value);
        return;
      }
    }
    if (!isEvaluable(i)) {
      this.markOver(i);
      return;
    }
    const ops = i.ops;
    const vals = new Array<Value>(ops.length);
    for (let k = 0; k < ops.length; k++) {
      const v = ops[k].value;
      if (this.stateOf(v) === TOP) return; // wait for the operand
      vals[k] = this.operandFor(v);
    }
    const r = simplifyWithOperands(i, vals);
    if (r !== null && r.kind >= ValueKind.ConstantInt) this.markConst(i, r as Constant);
    else this.markOver(i);
  }

  private copyLattice(i: Instruction, v: Value): void {
    const s = this.stateOf(v);
    if (s === TOP) return;
    if (s === OVER) this.markOver(i);
    else this.markConst(i, this.operandFor(v) as Constant);
  }

  private visitPhi(i: Instruction): void {
    const bb = i.parent!;
    let c: Constant | null = null;
    for (let k = 0; k < i.ops.length; k++) {
      if (!this.isEdgeExecutable(i.blocks![k], bb)) continue;
      const v = i.ops[k].value;
      if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) continue;
      const s = this.stateOf(v);
      if (s === TOP) continue;
      if (s === OVER) {
        this.markOver(i);
        return;
      }
      const cv = this.operandFor(v) as Constant;
      if (c === null) c = cv;
      else if (c !== cv) {
        this.markOver(i);
        return;
      }
    }
    if (c !== null) this.markConst(i, c);
  }

  private visitTerminator(t: Instruction): void {
    const bb = t.parent!;
    if (t.op === Opcode.Br) {
      if (t.ops.length === 1) {
        this.markEdge(bb, t.successor(0));
        return;
      }
      const cs = this.stateOf(t.ops[0].value);
      if (cs === TOP) return;
      const c = this.operandFor(t.ops[0].value);
      if (c.kind === ValueKind.ConstantInt) {
        this.markEdge(bb, t.successor((c as ConstantInt).value !== 0n ? 0 : 1));
        return;
      }
    } else if (t.op === Opcode.Switch) {
      const cs = this.stateOf(t.ops[0].value);
      if (cs === TOP) return;
      const c = this.operandFor(t.ops[0].value);
      if (c.kind === ValueKind.ConstantInt) {
        this.markEdge(bb, switchTarget(t, c));
        return;
      }
    }
    const ns = t.numSuccessors();
    for (let s = 0; s < ns; s++) this.markEdge(bb, t.successor(s));
  }

  /** Branches of executable blocks whose condition stayed top: give them every edge. */
  private resolveUndefBranches(): boolean {
    let changed = false;
    for (let id = 0; id < this.n; id++) {
      if (!this.executable[id]) continue;
      const t = this.blocks[id]!.terminator();
      if (t === null || (t.op !== Opcode.Br && t.op !== Opcode.Switch) || (t.op === Opcode.Br && t.ops.length === 1)) continue;
      if (this.stateOf(t.ops[0].value) !== TOP) continue;
      const ns = t.numSuccessors();
      for (let s = 0; s < ns; s++) {
        const to = t.successor(s);
        if (!this.isEdgeExecutable(t.parent!, to)) {
          this.markEdge(t.parent!, to);
          changed = true;
        }
      }
    }
    return changed;
  }

}

/** Instructions the solver evaluates; everything else (memory, calls, …) is overdefined. */
export function isEvaluable(i: Instruction): boolean {
  switch (i.op) {
    case Opcode.Alloca:
    case Opcode.Store:
    case Opcode.VAArg:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
    case Opcode.Fence:
    case Opcode.InsertElement:
    case Opcode.ExtractElement:
    case Opcode.ShuffleVector:
      return false;
    case Opcode.Call: {
      const f = i.calledFunction();
      return f !== null && f.name.startsWith('llvm.') && f.isDeclaration();
    }
    default:
      return true;
  }
}

export function switchTarget(t: Instruction, c: Value): BasicBlock {
  for (let k = 0; k < t.numCases; k++) if (t.caseValue(k) === c) return t.caseDest(k);
  return t.successor(0);
}

/** What a solved lattice says about one function (the intraprocedural solver or ipsccp's). */
export interface SCCPResultView {
  /** Per block id: 1 when the block can execute. */
  readonly executable: Uint8Array;
  isEdgeExecutable(from: BasicBlock, to: BasicBlock): boolean;
  constantOf(i: Instruction): Constant | null;
}

/** Rewrites `fn` by a solved lattice: constants, folded branches, unreachable blocks deleted. */
export function applySCCPResult(fn: Function, solver: SCCPResultView, ctx?: PassContext): { constants: number; branches: number; blocks: number } {
  let constants = 0;
  let branches = 0;
  let blocks = 0;
  const exec = solver.executable;

  // 1. replace instructions with constant values
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    if (!exec[b.id]) continue;
    for (let i = b.first; i !== null; ) {
      const next = i.next;
      const c = solver.constantOf(i);
      if (c !== null && i.hasResult()) {
        if (i.firstUse !== null) {
          i.replaceAllUsesWith(c);
          constants++;
        }
        if (isTriviallyDead(i)) i.eraseFromParent();
      }
      i = next;
    }
  }

  // 2. branches with edges that never execute become unconditional
  const touched: BasicBlock[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    if (!exec[b.id]) continue;
    const t = b.terminator();
    if (t === null || (t.op !== Opcode.Br && t.op !== Opcode.Switch) || t.numSuccessors() < 2) continue;
    const succs = t.successors();
    let live: BasicBlock | null = null;
    let dead = false;
    for (const s of succs) {
      if (solver.isEdgeExecutable(b, s)) live = s;
      else dead = true;
    }
    if (!dead || live === null) continue;
    const seen = new Set<BasicBlock>();
    for (const s of succs) {
      if (s === live || seen.has(s)) continue;
      seen.add(s);
      s.removePredecessorFromPhis(b);
      touched.push(s);
    }
    // keep exactly one phi entry for the remaining edge
    if (succs.filter((s) => s === live).length > 1) dedupePhiEntries(live, b);
    const br = new Instruction(Opcode.Br, voidType, [live]);
    b.insertBefore(br, t);
    t.eraseFromParent();
    branches++;
  }

  // 3. delete blocks that never execute
  const deadBlocks: BasicBlock[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) if (!exec[b.id]) deadBlocks.push(b);
  for (const b of deadBlocks) {
    for (const s of b.successors()) {
      if (exec[s.id]) {
        s.removePredecessorFromPhis(b);
        touched.push(s);
      }
    }
  }
  for (const b of deadBlocks) for (let i = b.first; i !== null; i = i.next) i.dropAllReferences();
  for (const b of deadBlocks) {
    b.eraseFromParent();
    blocks++;
  }

  // 4. phis that lost entries may now be trivial
  for (const s of touched) {
    if (s.parent === null) continue;
    for (let i = s.first; i !== null && i.op === Opcode.Phi; ) {
      const next = i.next;
      const v = simplifyInstruction(i);
      if (v !== null) {
        i.replaceAllUsesWith(v);
        i.eraseFromParent();
      }
      i = next;
    }
  }
  if (ctx) {
    reportStats(ctx, { 'values replaced by constants': constants, 'branches folded': branches, 'unreachable blocks removed': blocks });
  }
  return { constants, branches, blocks };
}

/** Leaves one phi entry for `pred` in each phi of `bb` (after a multi-edge became one). */
function dedupePhiEntries(bb: BasicBlock, pred: BasicBlock): void {
  for (let i = bb.first; i !== null && i.op === Opcode.Phi; i = i.next) {
    let first = true;
    for (let k = 0; k < i.blocks!.length; k++) {
      if (i.blocks![k] !== pred) continue;
      if (first) first = false;
      else {
        i.removeIncoming(k);
        k--;
      }
    }
  }
}


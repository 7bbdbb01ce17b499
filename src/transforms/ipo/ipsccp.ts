/**
 * ipsccp: sparse conditional constant propagation across the call graph, after LLVM's
 * IPSCCPPass (llvm/lib/Transforms/IPO/SCCP.cpp with SCCPSolver.cpp): Wegman and Zadeck's
 * algorithm (its lattice, evaluation rules and rewrite shared with sccp in src/transforms/utils/sccp-solver.ts) run over every function at once, where
 *  - an internal function whose every use is a direct call (its callers are all known) has
 *    its arguments in the lattice: each is the meet of the actual arguments of the call
 *    sites in executable blocks (but a `byval` argument, a copy, is overdefined), and its
 *    entry block is executable only once such a call
 *    site is (functions nothing can call stay unvisited and are left as they are);
 *  - every other defined function is entered from outside: its entry is executable and its
 *    arguments are overdefined;
 *  - a function whose definition is the one that runs has its return value in the lattice
 *    (the meet of its executable `ret`s), and calls to it take that value;
 *  - an internal scalar global whose every use is a non-volatile load or store of its own
 *    type starts at its initializer and meets every stored value: loads take its value.
 * Then each visited function is rewritten as sccp does (constants, folded branches, blocks
 * that never run deleted), arguments found constant are replaced, a tracked global found
 * constant loses its stores (they store the value it already holds) and its loads, and an
 * internal function whose every call's result was replaced returns poison (the value is
 * dead; LLVM does the same, and deadargelim can then drop it).
 *
 * Invariants: lattice values only go down (top → constant → overdefined); nothing is
 * concluded from a call site that cannot execute; calls through pointers and functions
 * with unknown callers make the values they touch overdefined.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { Constant, ConstantInt, PoisonValue } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { Argument, Value, ValueKind } from '../../ir/value.js';
import { simplifyWithOperands } from '../../analysis/instsimplify.js';
import { isTriviallyDead } from '../../ir/effects.js';
import { hasExactDefinition, isLocalLinkage, scanGlobalRefs } from './ipo-utils.js';
import { defineCountingPass } from '../../pm/define-pass.js';
import { applySCCPResult, CONST, isEvaluable, OVER, SCCPLattice, switchTarget, TOP } from '../utils/sccp-solver.js';

function isThreadLocal(v: Value): boolean {
  return v.kind === ValueKind.GlobalVariable && /\bthread_local\b/.test((v as GlobalVariable).attrs.prefix + ' ' + (v as GlobalVariable).attrs.suffix);
}

/** A lattice cell for a value that is not an instruction (argument, return value, global). */
interface Cell {
  s: number;
  c: Constant | null;
}

/** One function's lattice (transforms/utils/sccp-solver.ts). */
class FnState extends SCCPLattice {}

export class IPSCCPSolver {
  readonly fns = new Map<Function, FnState>();
  /** Arguments of functions whose callers are all known. */
  readonly args = new Map<Argument, Cell>();
  /** Return values of functions whose definition is exact. */
  readonly rets = new Map<Function, Cell>();
  readonly globals = new Map<GlobalVariable, Cell>();
  /** Direct call sites of each function (any block; only executable ones count). */
  readonly callSites = new Map<Function, Instruction[]>();
  /** Loads of each tracked global. */
  readonly globalLoads = new Map<GlobalVariable, Instruction[]>();
  /** Functions entered only through the call sites we see. */
  readonly argTracked = new Set<Function>();
  private readonly flowWork: [FnState, number][] = [];
  private readonly ssaWork: Value[] = [];
  /** Functions whose entry became reachable through a call. */
  private readonly entryWork: FnState[] = [];

  constructor(readonly m: Module) {
    const refs = scanGlobalRefs(m);
    for (const f of m.functions) {
      if (f.isDeclaration()) continue;
      this.fns.set(f, new FnState(f));
      const r = refs.get(f);
      const sites: Instruction[] = [];
      let allDirect = r === undefined || (!r.fromGlobals && r.viaConstant.length === 0);
      if (r !== undefined) {
        for (const { inst, index } of r.direct) {
          if (inst.op === Opcode.Call && index === 0 && inst.auxType === f.fnType) sites.push(inst);
          else allDirect = false;
        }
      }
      this.callSites.set(f, sites);
      if (isLocalLinkage(f) && allDirect && !f.fnType.vararg && !/\bnaked\b/.test(f.attrs.suffix)) {
        this.argTracked.add(f);
        // a byval (inalloca, preallocated) argument is a fresh copy made at the call: the
        // callee's pointer is never the caller's, whatever the caller passes
        for (const a of f.args) this.args.set(a, /\b(byval|inalloca|preallocated|swifterror)\b/.test(a.attrs) ? { s: OVER, c: null } : { s: TOP, c: null });
      }
      if (hasExactDefinition(f) && !f.returnType.isVoid() && !f.returnType.isAggregate()) this.rets.set(f, { s: TOP, c: null });
    }
    for (const g of m.globals) {
      if (!isLocalLinkage(g) || g.isConstant || g.initializer === null) continue;
      const t = g.valueType;
      if (!(t.isInt() || t.isPtr())) continue;
      const r = refs.get(g);
      if (r === undefined || r.fromGlobals || r.viaConstant.length > 0) continue;
      const loads: Instruction[] = [];
      let ok = true;
      for (const { inst, index } of r.direct) {
        const simple = (inst.flags & (Flag.Volatile | Flag.Atomic)) === 0;
        if (inst.op === Opcode.Load && index === 0 && simple && inst.type === t) loads.push(inst);
        else if (inst.op === Opcode.Store && index === 1 && simple && inst.operand(0).type === t) continue;
        else ok = false;
      }
      if (!ok) continue;
      const init = g.initializer;
      this.globals.set(g, { s: CONST, c: init });
      this.globalLoads.set(g, loads);
    }
  }

  private fnOf(i: Instruction): FnState | undefined {
    const f = i.parent?.parent;
    return f ? this.fns.get(f) : undefined;
  }

  /** cellState's constant (set by every call, read right after it): no tuple per query. */
  private cellConst: Constant | null = null;

  /** The lattice state of `v` (CONST, OVER or TOP); its constant is left in `cellConst`. */
  private cellState(v: Value): number {
    this.cellConst = null;
    if (v.kind >= ValueKind.ConstantInt) {
      this.cellConst = v as Constant;
      return CONST;
    }
    // the address of a global is a constant too (LLVM's lattice holds any Constant): a
    // function that always returns &g gives its calls that value (thread-local ones differ per thread)
    if ((v.kind === ValueKind.GlobalVariable || v.kind === ValueKind.Function) && !isThreadLocal(v)) {
      this.cellConst = v as unknown as Constant;
      return CONST;
    }
    if (v.kind === ValueKind.Instruction) {
      const i = v as Instruction;
      const fs = this.fnOf(i);
      if (fs === undefined || i.id >= fs.state.length) return OVER;
      this.cellConst = fs.value[i.id];
      return fs.state[i.id];
    }
    if (v.kind === ValueKind.Argument) {
      const c = this.args.get(v as Argument);
      if (c === undefined) return OVER;
      this.cellConst = c.c;
      return c.s;
    }
    return OVER;
  }

  /** The value to evaluate with: the lattice constant, or the value itself. */
  private operandFor(v: Value): Value {
    return this.cellState(v) === CONST ? this.cellConst! : v;
  }

  solve(): void {
    for (const [f, fs] of this.fns) if (!this.argTracked.has(f)) this.markBlock(fs, f.entry);
    for (;;) {
      this.drain();
      let again = false;
      for (const fs of this.fns.values()) if (this.resolveUndefBranches(fs)) again = true;
      if (!again) break;
    }
  }

  private drain(): void {
    while (this.flowWork.length > 0 || this.ssaWork.length > 0 || this.entryWork.length > 0) {
      while (this.entryWork.length > 0) {
        const fs = this.entryWork.pop()!;
        this.markBlock(fs, fs.fn.entry);
      }
      while (this.flowWork.length > 0) {
        const [fs, key] = this.flowWork.pop()!;
        const to = fs.blocks[key % fs.n]!;
        if (!fs.executable[to.id]) this.markBlock(fs, to);
        else for (let i = to.first; i !== null && i.op === Opcode.Phi; i = i.next) this.visit(fs, i);
      }
      while (this.ssaWork.length > 0) {
        const v = this.ssaWork.pop()!;
        for (let u = v.firstUse; u !== null; u = u.next) {
          const user = u.user as Instruction;
          if (user.kind !== ValueKind.Instruction || user.parent === null) continue;
          const fs = this.fnOf(user);
          if (fs !== undefined && fs.executable[user.parent.id]) this.visit(fs, user);
        }
      }
    }
  }

  private markBlock(fs: FnState, bb: BasicBlock): void {
    if (fs.executable[bb.id]) return;
    fs.executable[bb.id] = 1;
    for (let i = bb.first; i !== null; i = i.next) this.visit(fs, i);
  }

  private markEdge(fs: FnState, from: BasicBlock, to: BasicBlock): void {
    const key = from.id * fs.n + to.id;
    if (fs.edges.has(key)) return;
    fs.edges.add(key);
    this.flowWork.push([fs, key]);
  }

  private setInst(fs: FnState, i: Instruction, s: number, c: Constant | null): void {
    const old = fs.state[i.id];
    if (old === OVER) return;
    if (s === TOP) return;
    if (s === CONST && old === CONST) {
      if (fs.value[i.id] === c) return;
      s = OVER;
    }
    if (s === OVER) {
      fs.state[i.id] = OVER;
      fs.value[i.id] = null;
    } else {
      fs.state[i.id] = CONST;
      fs.value[i.id] = c;
    }
    this.ssaWork.push(i);
  }

  /** Meets a cell with a lattice value; true when it changed. */
  private meetCell(cell: Cell, s: number, c: Constant | null): boolean {
    if (cell.s === OVER || s === TOP) return false;
    if (s === OVER || (cell.s === CONST && cell.c !== c)) {
      cell.s = OVER;
      cell.c = null;
      return true;
    }
    if (cell.s === CONST) return false;
    cell.s = CONST;
    cell.c = c;
    return true;
  }

  private visit(fs: FnState, i: Instruction): void {
    if (i.isTerminator()) {
      this.visitTerminator(fs, i);
      return;
    }
    if (i.op === Opcode.Store) {
      const g = i.operand(1);
      const cell = g.kind === ValueKind.GlobalVariable ? this.globals.get(g as GlobalVariable) : undefined;
      if (cell !== undefined) {
        const s = this.cellState(i.operand(0));
        const c = this.cellConst;
        if (i.operand(0).kind === ValueKind.Undef || i.operand(0).kind === ValueKind.Poison) return;
        if (this.meetCell(cell, s, c)) for (const l of this.globalLoads.get(g as GlobalVariable)!) this.revisit(l);
      }
      return;
    }
    if (i.op === Opcode.Call) {
      this.visitCall(fs, i);
      return;
    }
    if (!i.hasResult() || i.id >= fs.state.length || fs.state[i.id] === OVER) return;
    if (i.op === Opcode.Load) {
      const g = i.operand(0);
      const cell = g.kind === ValueKind.GlobalVariable ? this.globals.get(g as GlobalVariable) : undefined;
      if (cell !== undefined) {
        this.setInst(fs, i, cell.s, cell.c);
        return;
      }
    }
    if (i.op === Opcode.Phi) {
      this.visitPhi(fs, i);
      return;
    }
    if (i.op === Opcode.Select) {
      const cs = this.cellState(i.ops[0].value);
      if (cs === TOP) return;
      const c = this.operandFor(i.ops[0].value);
      if (c.kind === ValueKind.ConstantInt) {
        const s = this.cellState(i.ops[(c as ConstantInt).value !== 0n ? 1 : 2].value);
        const v = this.cellConst;
        this.setInst(fs, i, s, v);
        return;
      }
    }
    if (!isEvaluable(i)) {
      this.setInst(fs, i, OVER, null);
      return;
    }
    const ops = i.ops;
    const vals = new Array<Value>(ops.length);
    for (let k = 0; k < ops.length; k++) {
      const v = ops[k].value;
      if (this.cellState(v) === TOP) return;
      vals[k] = this.operandFor(v);
    }
    const r = simplifyWithOperands(i, vals);
    if (r !== null && r.kind >= ValueKind.ConstantInt) this.setInst(fs, i, CONST, r as Constant);
    else this.setInst(fs, i, OVER, null);
  }

  private revisit(i: Instruction): void {
    const fs = this.fnOf(i);
    if (fs !== undefined && i.parent !== null && fs.executable[i.parent.id]) this.visit(fs, i);
  }

  private visitCall(fs: FnState, call: Instruction): void {
    const callee = call.calledFunction();
    const target = callee !== null && call.auxType === callee.fnType ? this.fns.get(callee) : undefined;
    if (callee !== null && target !== undefined) {
      if (this.argTracked.has(callee)) {
        for (let k = 0; k < callee.args.length; k++) {
          const v = call.arg(k);
          if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) continue;
          const s = this.cellState(v);
          const c = this.cellConst;
          const a = callee.args[k];
          if (this.meetCell(this.args.get(a)!, s, c)) this.ssaWork.push(a);
        }
        // queued, not visited here: a chain of calls must not become a chain of JS frames
        if (!target.executable[callee.entry.id]) this.entryWork.push(target);
      }
      if (!call.hasResult()) return;
      const ret = this.rets.get(callee);
      if (ret !== undefined) {
        this.setInst(fs, call, ret.s, ret.c);
        return;
      }
    }
    if (!call.hasResult() || fs.state[call.id] === OVER) return;
    if (!isEvaluable(call)) {
      this.setInst(fs, call, OVER, null);
      return;
    }
    const vals = new Array<Value>(call.ops.length);
    for (let k = 0; k < call.ops.length; k++) {
      const v = call.ops[k].value;
      if (this.cellState(v) === TOP) return;
      vals[k] = this.operandFor(v);
    }
    const r = simplifyWithOperands(call, vals);
    if (r !== null && r.kind >= ValueKind.ConstantInt) this.setInst(fs, call, CONST, r as Constant);
    else this.setInst(fs, call, OVER, null);
  }

  private visitPhi(fs: FnState, i: Instruction): void {
    const bb = i.parent!;
    let c: Constant | null = null;
    for (let k = 0; k < i.ops.length; k++) {
      if (!fs.isEdgeExecutable(i.blocks![k], bb)) continue;
      const v = i.ops[k].value;
      if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) continue;
      const s = this.cellState(v);
      const cv = this.cellConst;
      if (s === TOP) continue;
      if (s === OVER) {
        this.setInst(fs, i, OVER, null);
        return;
      }
      if (c === null) c = cv;
      else if (c !== cv) {
        this.setInst(fs, i, OVER, null);
        return;
      }
    }
    if (c !== null) this.setInst(fs, i, CONST, c);
  }

  private visitTerminator(fs: FnState, t: Instruction): void {
    const bb = t.parent!;
    if (t.op === Opcode.Ret) {
      const cell = this.rets.get(fs.fn);
      if (cell !== undefined && t.ops.length === 1) {
        const v = t.ops[0].value;
        if (v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) return;
        const s = this.cellState(v);
        const c = this.cellConst;
        if (this.meetCell(cell, s, c)) for (const site of this.callSites.get(fs.fn)!) this.revisit(site);
      }
      return;
    }
    if (t.op === Opcode.Br && t.ops.length === 1) {
      this.markEdge(fs, bb, t.successor(0));
      return;
    }
    if (t.op === Opcode.Br || t.op === Opcode.Switch) {
      const cs = this.cellState(t.ops[0].value);
      if (cs === TOP) return;
      const c = this.operandFor(t.ops[0].value);
      if (c.kind === ValueKind.ConstantInt) {
        this.markEdge(fs, bb, t.op === Opcode.Br ? t.successor((c as ConstantInt).value !== 0n ? 0 : 1) : switchTarget(t, c));
        return;
      }
    }
    const ns = t.numSuccessors();
    for (let s = 0; s < ns; s++) this.markEdge(fs, bb, t.successor(s));
  }

  private resolveUndefBranches(fs: FnState): boolean {
    let changed = false;
    for (let id = 0; id < fs.n; id++) {
      if (!fs.executable[id]) continue;
      const t = fs.blocks[id]!.terminator();
      if (t === null || (t.op !== Opcode.Br && t.op !== Opcode.Switch) || (t.op === Opcode.Br && t.ops.length === 1)) continue;
      if (this.cellState(t.ops[0].value) !== TOP) continue;
      const ns = t.numSuccessors();
      for (let s = 0; s < ns; s++) {
        const to = t.successor(s);
        if (!fs.isEdgeExecutable(t.parent!, to)) {
          this.markEdge(fs, t.parent!, to);
          changed = true;
        }
      }
    }
    return changed;
  }
}

export interface IPSCCPStats {
  constants: number;
  branches: number;
  blocks: number;
  args: number;
  returns: number;
  globals: number;
}

/** Runs IPSCCP on `m`; `changedFn` hears about every function it rewrote. */
export function runIPSCCP(m: Module, changedFn?: (f: Function) => void): IPSCCPStats {
  const st: IPSCCPStats = { constants: 0, branches: 0, blocks: 0, args: 0, returns: 0, globals: 0 };
  const solver = new IPSCCPSolver(m);
  solver.solve();
  const changed = new Set<Function>();
  for (const [f, fs] of solver.fns) {
    if (!fs.executable[f.entry.id]) continue;
    // arguments first: the rewrite below deletes instructions whose constants it uses
    if (solver.argTracked.has(f)) {
      for (const a of f.args) {
        const c = solver.args.get(a)!;
        if (c.s === CONST && a.firstUse !== null) {
          a.replaceAllUsesWith(c.c!);
          st.args++;
          changed.add(f);
        }
      }
    }
    const r = applySCCPResult(f, fs);
    st.constants += r.constants;
    st.branches += r.branches;
    st.blocks += r.blocks;
    if (r.constants + r.branches + r.blocks > 0) changed.add(f);
  }
  // calls whose callee returns a constant (applySCCPResult replaced their uses): a local
  // function whose every call was so replaced returns poison; the value is dead
  for (const [f, cell] of solver.rets) {
    if (cell.s !== CONST || !solver.argTracked.has(f) || !solver.fns.get(f)!.executable[f.entry.id]) continue;
    let allDead = true;
    for (const site of solver.callSites.get(f)!) if (site.parent !== null && site.firstUse !== null) allDead = false;
    if (!allDead) continue;
    let did = false;
    for (let b = f.firstBlock; b !== null; b = b.next) {
      const t = b.terminator();
      if (t !== null && t.op === Opcode.Ret && t.ops.length === 1 && t.ops[0].value.kind !== ValueKind.Poison) {
        t.setOperand(0, PoisonValue.get(f.returnType));
        did = true;
      }
    }
    if (did) {
      st.returns++;
      changed.add(f);
      cleanDead(f);
    }
  }
  // tracked globals that kept their initial value: loads are gone (replaced); stores store it again
  for (const [g, cell] of solver.globals) {
    if (cell.s !== CONST) continue;
    const refs: Instruction[] = [];
    for (let u = g.firstUse; u !== null; u = u.next) refs.push(u.user as Instruction);
    let did = false;
    for (const i of refs) {
      if (i.parent === null) continue;
      const f = i.parent.parent!;
      if (i.op === Opcode.Load) {
        if (i.firstUse !== null) i.replaceAllUsesWith(cell.c!);
        i.eraseFromParent();
      } else if (i.op === Opcode.Store) i.eraseFromParent();
      else continue;
      did = true;
      changed.add(f);
    }
    if (g.firstUse === null) {
      m.removeGlobal(g);
      did = true;
    }
    if (did) st.globals++;
  }
  for (const f of changed) changedFn?.(f);
  return st;
}

/** Deletes instructions left dead by the rewrite, to a fixed point (cheap: one function). */
function cleanDead(f: Function): void {
  for (let again = true; again; ) {
    again = false;
    for (let b = f.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; ) {
        const n = i.next;
        if (i.hasResult() && i.op !== Opcode.Phi && isTriviallyDead(i)) {
          i.eraseFromParent();
          again = true;
        } else if (i.op === Opcode.Phi && i.firstUse === null) {
          i.eraseFromParent();
          again = true;
        }
        i = n;
      }
    }
  }
}

export const ipsccpPass = defineCountingPass({
  name: 'ipsccp',
  description: 'interprocedural sparse conditional constant propagation: constant arguments, return values and internal globals',
  module: true,
  count: (m, ctx) => runIPSCCP(m, (f) => ctx.invalidate(f, 'none')),
  stats: { constants: 'values replaced by constants', branches: 'branches folded', blocks: 'unreachable blocks removed', args: 'arguments found constant', returns: 'return values zapped', globals: 'globals found constant' },
});

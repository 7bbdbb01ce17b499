/**
 * IRBuilder: creates instructions with the right result types and inserts them at a
 * position (the end of a block, or before an instruction), as LLVM's IRBuilder does.
 * It does no folding; frontends that want on-the-fly simplification call the
 * simplifier themselves.
 */
import { BasicBlock } from './basic-block.js';
import type { DbgRecord, MDNode } from './metadata.js';
import { ConstantInt } from './constants.js';
import type { Function } from './function.js';
import { Instruction } from './instruction.js';
import { abiAlign } from './layout.js';
import { Flag, Opcode, Pred } from './opcodes.js';
import { Type, TypeKind, i1, i32, i64, ptr, vectorType, voidType } from './types.js';
import type { Value } from './value.js';

export class IRBuilder {
  private block: BasicBlock | null = null;
  private before: Instruction | null = null;
  /**
   * Called with every instruction the builder inserts, after inserting it (LLVM's
   * IRBuilderCallbackInserter: instcombine puts new instructions on its worklist so).
   */
  onInsert: ((inst: Instruction) => void) | null = null;

  constructor(block?: BasicBlock) {
    if (block) this.setInsertPoint(block);
  }

  /** Inserts at the end of `block`. */
  setInsertPoint(block: BasicBlock): this {
    this.pendingRecords = null;
    this.block = block;
    this.before = null;
    return this;
  }

  /** Inserts right before `inst`. */
  setInsertPointBefore(inst: Instruction): this {
    this.pendingRecords = null;
    this.block = inst.parent;
    this.before = inst;
    return this;
  }

  get insertBlock(): BasicBlock | null {
    return this.block;
  }

  /** The `!dbg` location given to every instruction inserted (LLVM's SetCurrentDebugLocation); null: none. */
  debugLoc: MDNode | null = null;

  /**
   * Debug records (`#dbg_value`…) for the next instruction inserted, which they precede (a
   * front end says "variable x now holds v" before it has the instruction to hang that on);
   * dropped when the insertion point moves.
   */
  pendingRecords: DbgRecord[] | null = null;

  insert<T extends Instruction>(inst: T, name = ''): T {
    if (this.debugLoc !== null && inst.md === null) inst.md = [{ kind: 'dbg', node: this.debugLoc }];
    if (this.pendingRecords !== null) {
      inst.dbgRecords = inst.dbgRecords === null ? this.pendingRecords : inst.dbgRecords.concat(this.pendingRecords);
      this.pendingRecords = null;
    }
    if (name !== '') inst.name = name;
    if (this.block === null) throw new Error('IRBuilder has no insertion point');
    if (this.before !== null) this.block.insertBefore(inst, this.before);
    else this.block.append(inst);
    if (this.onInsert !== null) this.onInsert(inst);
    return inst;
  }

  // ---- arithmetic ------------------------------------------------------------------

  binary(op: Opcode, a: Value, b: Value, name = '', flags = 0): Instruction {
    const i = new Instruction(op, a.type, [a, b]);
    i.flags = flags;
    return this.insert(i, name);
  }
  add(a: Value, b: Value, name = '', flags = 0): Instruction { return this.binary(Opcode.Add, a, b, name, flags); }
  sub(a: Value, b: Value, name = '', flags = 0): Instruction { return this.binary(Opcode.Sub, a, b, name, flags); }
  mul(a: Value, b: Value, name = '', flags = 0): Instruction { return this.binary(Opcode.Mul, a, b, name, flags); }
  sdiv(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.SDiv, a, b, name); }
  udiv(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.UDiv, a, b, name); }
  srem(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.SRem, a, b, name); }
  urem(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.URem, a, b, name); }
  shl(a: Value, b: Value, name = '', flags = 0): Instruction { return this.binary(Opcode.Shl, a, b, name, flags); }
  lshr(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.LShr, a, b, name); }
  ashr(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.AShr, a, b, name); }
  and(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.And, a, b, name); }
  or(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.Or, a, b, name); }
  xor(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.Xor, a, b, name); }
  fadd(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.FAdd, a, b, name); }
  fsub(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.FSub, a, b, name); }
  fmul(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.FMul, a, b, name); }
  fdiv(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.FDiv, a, b, name); }
  frem(a: Value, b: Value, name = ''): Instruction { return this.binary(Opcode.FRem, a, b, name); }
  fneg(a: Value, name = ''): Instruction { return this.insert(new Instruction(Opcode.FNeg, a.type, [a]), name); }
  freeze(a: Value, name = ''): Instruction { return this.insert(new Instruction(Opcode.Freeze, a.type, [a]), name); }

  icmp(pred: Pred, a: Value, b: Value, name = ''): Instruction {
    const i = new Instruction(Opcode.ICmp, cmpResultType(a.type), [a, b]);
    i.pred = pred;
    return this.insert(i, name);
  }
  fcmp(pred: Pred, a: Value, b: Value, name = ''): Instruction {
    const i = new Instruction(Opcode.FCmp, cmpResultType(a.type), [a, b]);
    i.pred = pred;
    return this.insert(i, name);
  }

  cast(op: Opcode, v: Value, to: Type, name = '', flags = 0): Instruction {
    const i = new Instruction(op, to, [v]);
    i.flags = flags;
    return this.insert(i, name);
  }
  trunc(v: Value, to: Type, name = ''): Instruction { return this.cast(Opcode.Trunc, v, to, name); }
  zext(v: Value, to: Type, name = ''): Instruction { return this.cast(Opcode.ZExt, v, to, name); }
  sext(v: Value, to: Type, name = ''): Instruction { return this.cast(Opcode.SExt, v, to, name); }
  sitofp(v: Value, to: Type, name = ''): Instruction { return this.cast(Opcode.SIToFP, v, to, name); }
  fptosi(v: Value, to: Type, name = ''): Instruction { return this.cast(Opcode.FPToSI, v, to, name); }

  select(c: Value, a: Value, b: Value, name = ''): Instruction {
    return this.insert(new Instruction(Opcode.Select, a.type, [c, a, b]), name);
  }

  // ---- memory ------------------------------------------------------------------------

  alloca(type: Type, name = '', count: Value = ConstantInt.get(i32, 1)): Instruction {
    const i = new Instruction(Opcode.Alloca, ptr, [count]);
    i.auxType = type;
    i.align = abiAlign(type);
    return this.insert(i, name);
  }
  load(type: Type, p: Value, name = ''): Instruction {
    const i = new Instruction(Opcode.Load, type, [p]);
    i.align = abiAlign(type);
    return this.insert(i, name);
  }
  store(v: Value, p: Value): Instruction {
    const i = new Instruction(Opcode.Store, voidType, [v, p]);
    i.align = abiAlign(v.type);
    return this.insert(i);
  }
  gep(sourceType: Type, base: Value, indices: Value[], name = '', inbounds = true): Instruction {
    const i = new Instruction(Opcode.GetElementPtr, ptr, [base, ...indices]);
    i.auxType = sourceType;
    if (inbounds) i.flags = Flag.InBounds;
    return this.insert(i, name);
  }

  // ---- control flow --------------------------------------------------------------------

  br(dest: BasicBlock): Instruction {
    return this.insert(new Instruction(Opcode.Br, voidType, [dest]));
  }
  condBr(c: Value, t: BasicBlock, f: BasicBlock): Instruction {
    return this.insert(new Instruction(Opcode.Br, voidType, [c, t, f]));
  }
  switch(c: Value, dflt: BasicBlock, cases: [Value, BasicBlock][] = []): Instruction {
    const ops: Value[] = [c, dflt];
    for (const [v, b] of cases) ops.push(v, b);
    return this.insert(new Instruction(Opcode.Switch, voidType, ops));
  }
  ret(v?: Value): Instruction {
    return this.insert(new Instruction(Opcode.Ret, voidType, v === undefined ? [] : [v]));
  }
  unreachable(): Instruction {
    return this.insert(new Instruction(Opcode.Unreachable, voidType, []));
  }
  /** A phi with no incoming entries yet, placed after the block's existing phis. */
  phi(type: Type, name = ''): Instruction {
    const i = new Instruction(Opcode.Phi, type, []);
    i.blocks = [];
    if (name !== '') i.name = name;
    const bb = this.block!;
    bb.insertAfterPhis(i);
    return i;
  }

  call(callee: Function | Value, args: Value[], name = '', fnType?: Type): Instruction {
    const ft = fnType ?? (callee as Function).fnType;
    if (ft === undefined) throw new Error('indirect call needs the function type');
    const i = new Instruction(Opcode.Call, ft.returnType, [callee, ...args]);
    i.auxType = ft;
    return this.insert(i, name);
  }
}

function cmpResultType(t: Type): Type {
  return t.kind === TypeKind.Vector ? vectorType(i1, t.count) : i1;
}

/** Convenience constants. */
export const c32 = (v: number): ConstantInt => ConstantInt.get(i32, v);
export const c64 = (v: number | bigint): ConstantInt => ConstantInt.get(i64, v);

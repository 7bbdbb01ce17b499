/**
 * The state of one function's IR generation (see irgen.ts): the builder, the variable model
 * and value maker of the mode, the block being filled and the loops around it, unique
 * names. The generator is a chain of classes: FunctionGenBase < ExpressionGen
 * (irgen-expressions.ts: conditions and expressions) < FunctionGen (irgen-statements.ts:
 * the walk and the statements).
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { IRBuilder } from '../../ir/builder.js';
import type { MDNode } from '../../ir/metadata.js';

import { ConstantFP, ConstantInt } from '../../ir/constants.js';
import { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, abiAlign } from '../../ir/layout.js';
import { Opcode } from '../../ir/opcodes.js';
import { Type, floatType, i32, i64, ptr } from '../../ir/types.js';
import { type Value, ValueKind } from '../../ir/value.js';
import type { DeclStmt, Expr, FuncDecl, Stmt, VarDecl } from './ast.js';
import { FoldingValues, PlainValues, type ValueMaker } from './irgen-values.js';
import { AllocaVars, BraunVars, type VarHost, type VarModel } from './irgen-vars.js';
import { AssignedVariables } from './assigned.js';
import { scalarIRType } from './lower-init.js';
import type { ModuleGen } from './irgen.js';

export function globalAlign(t: Type): number {
  return allocSize(t) >= 16 ? 16 : abiAlign(t);
}

/** `i64 k`, cached for the small indices that dominate. */
const C64_CACHE: ConstantInt[] = [];
export function c64(k: number): ConstantInt {
  if (k >= 0 && k < 4096) {
    let c = C64_CACHE[k];
    if (c === undefined) {
      for (let j = C64_CACHE.length; j <= k; j++) C64_CACHE.push(ConstantInt.get(i64, j));
      c = C64_CACHE[k];
    }
    return c;
  }
  return ConstantInt.get(i64, k);
}
export const FALSE = ConstantInt.false();
export const EMPTY: Value[] = [];
/** Expression depth handled by plain recursion before switching to the generator walk. */
export const MAX_RECURSION = 200;

export const TRUE = ConstantInt.true();
export const ZERO_F = ConstantFP.get(floatType, 0);
export const ZERO_I = ConstantInt.get(i32, 0);

// ---------------------------------------------------------------------------- function

/** "Branch on the truth of `e` to `t` or `f`": a task of the trampoline next to the nodes. */
export class CondTask {
  readonly kind = 'Cond' as const;
  constructor(
    readonly e: Expr,
    readonly t: BasicBlock,
    readonly f: BasicBlock,
  ) {}
}

/** "The truth of `e` as an i1" (the right operand of a `&&`/`||` value). */
export class TruthTask {
  readonly kind = 'Truth' as const;
  constructor(readonly e: Expr) {}
}

export type Task = Stmt | DeclStmt | Expr | CondTask | TruthTask;
export type Gen = Generator<Task, Value | null, Value | null>;

export interface LoopTargets {
  cond: BasicBlock;
  end: BasicBlock;
}

export abstract class FunctionGenBase implements VarHost {
  readonly b = new IRBuilder();
  protected readonly vars: VarModel;
  protected readonly values: ValueMaker;
  protected readonly entry: BasicBlock;
  protected lastAlloca: Instruction | null = null;
  /** The block being filled, or null in unreachable code. */
  protected cur: BasicBlock | null;
  /** The block the value maker's CSE table describes. */
  protected filling: BasicBlock;
  protected readonly loops: LoopTargets[] = [];
  readonly declValue: (Value | null)[];
  readonly declNumber: Int32Array;
  readonly assigned: Uint8Array;
  /** Braun mode: the locals each `if` and `while` assigns. */
  protected assignedIn: AssignedVariables | null = null;
  protected readonly nameCount = new Map<string, number>();
  protected readonly maxDepth: number;

  constructor(
    protected readonly mg: ModuleGen,
    protected readonly decl: FuncDecl,
    readonly fn: Function,
  ) {
    this.entry = new BasicBlock(this.uniq('entry'));
    fn.appendBlock(this.entry);
    this.b.setInsertPoint(this.entry);
    this.cur = this.entry;
    this.filling = this.entry;
    this.maxDepth = mg.recursionLimit;
    this.declValue = mg.declValue;
    this.declNumber = mg.declNumber;
    this.assigned = mg.assigned;
    if (mg.mode === 'alloca') {
      this.vars = new AllocaVars(this);
      this.values = new PlainValues(this.b);
    } else {
      // before the variables are made: it marks which locals need an SSA variable at all
      this.assignedIn = new AssignedVariables(decl.body!, this.assigned);
      this.vars = new BraunVars(this, mg.fold, this.assignedIn.statements);
      this.values = mg.fold ? new FoldingValues(this.b, mg.cseTable) : new PlainValues(this.b);
    }
    this.vars.seal(this.entry);
    if (mg.debug !== null) this.sp = mg.debug.subprogram(fn, decl.name, decl.pos);
    // the CSE table is shared with the previous function: forget its last block
    this.values.startBlock(this.entry);
  }
  /** The function's DISubprogram with `debugInfo`, else null. */
  protected sp: MDNode | null = null;
  /** -g: each local's or parameter's DILocalVariable, by declaration id. */
  protected readonly diVars = new Map<number, MDNode>();

  /**
   * -g: a DILocalVariable for `d` (parameter number `arg`, 0 for a local), declared as clang
   * declares it: `#dbg_declare` of its alloca (alloca mode, arrays), or `#dbg_value` of the
   * parameter's value (Braun mode), before the next instruction generated.
   */
  protected describeVariable(d: VarDecl, arg: number, value: Value | null): void {
    const dbg = this.mg.debug!;
    const v = dbg.variable(this.sp!, d.name, d.pos, d.type, arg);
    if (v === null) return;
    this.diVars.set(d.id, v);
    const loc = dbg.location(this.sp!, d.pos);
    const slot = this.declValue[d.id];
    const r = slot !== null && slot !== undefined && slot.kind === ValueKind.Instruction && (slot as Instruction).op === Opcode.Alloca ? dbg.declare(slot, v, loc) : value !== null ? dbg.value(value, v, loc) : null;
    if (r !== null) (this.b.pendingRecords ??= []).push(r);
  }

  /** -g, Braun mode: `#dbg_value` of the value a local scalar now holds (an alloca's store says it otherwise). */
  protected describeValue(d: VarDecl, value: Value): void {
    if (this.mg.mode === 'alloca') return;
    const v = this.diVars.get(d.id);
    if (v === undefined) return;
    const loc = this.b.debugLoc ?? this.mg.debug!.location(this.sp!, d.pos);
    (this.b.pendingRecords ??= []).push(this.mg.debug!.value(value, v, loc));
  }

  // ---- VarHost -------------------------------------------------------------------------

  entryAlloca(type: Type, name: string): Instruction {
    const a = new Instruction(Opcode.Alloca, ptr, [ConstantInt.get(i32, 1)]);
    a.auxType = type;
    a.align = globalAlign(type);
    a.name = this.uniq(name);
    if (this.lastAlloca === null) this.entry.prepend(a);
    else a.insertAfter(this.lastAlloca);
    this.lastAlloca = a;
    return a;
  }

  typeOf(d: VarDecl): Type {
    return d.type.kind === 'pointer' ? ptr : scalarIRType(d.elem);
  }

  // ---- names -----------------------------------------------------------------------------

  /** A name unique in the function: `x`, `x.1`, … (`if.then`, `if.then1`, … for labels). */
  protected uniq(base: string): string {
    const n = this.nameCount.get(base);
    if (n === undefined) {
      this.nameCount.set(base, 0);
      return base;
    }
    this.nameCount.set(base, n + 1);
    return base.includes('.') ? `${base}${n + 1}` : `${base}.${n + 1}`;
  }

  protected block(label: string): BasicBlock {
    return new BasicBlock(this.uniq(label));
  }

  /** Phis made by the SSA builder carry their variable's name; make them unique. */
  protected namePhis(): void {
    for (let bb = this.fn.firstBlock; bb !== null; bb = bb.next) {
      for (let i = bb.first; i !== null && i.op === Opcode.Phi; i = i.next) if (i.name !== '') i.name = this.uniq(i.name);
    }
  }

  // ---- blocks ------------------------------------------------------------------------------

  /**
   * Starts filling `bb` if some branch reaches it (else the code that would go there is
   * unreachable and skipped). `seal`: all of its predecessors exist (not so for a loop
   * header, whose back edges come later). A sealed block whose only predecessor reaches it
   * by an unconditional branch (a condition folded to a constant) is not made: its code
   * continues the predecessor, whose `br` is removed.
   */
  protected enter(bb: BasicBlock, seal = true): void {
    const u = bb.firstUse;
    if (u === null) {
      this.cur = null;
      return;
    }
    if (seal && u.next === null) {
      const br = u.user as Instruction;
      const p = br.parent;
      if (br.op === Opcode.Br && br.ops.length === 1 && p !== null) {
        br.eraseFromParent();
        this.b.setInsertPoint(p);
        this.cur = p;
        if (p !== this.filling) {
          this.filling = p;
          this.values.startBlock(p);
        }
        return;
      }
    }
    this.fn.appendBlock(bb);
    if (seal) this.vars.seal(bb);
    this.b.setInsertPoint(bb);
    this.cur = bb;
    this.filling = bb;
    this.values.startBlock(bb);
  }

  protected br(target: BasicBlock): void {
    if (this.cur === null) return;
    this.b.br(target);
    this.cur = null;
  }

  protected condBr(c: Value, t: BasicBlock, f: BasicBlock): void {
    if (c instanceof ConstantInt) this.b.br(c.value !== 0n ? t : f);
    else this.b.condBr(c, t, f);
    this.cur = null;
  }
}

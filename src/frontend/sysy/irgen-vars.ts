/**
 * Where SysY local scalars live during IR generation — the one thing the two modes do
 * differently:
 *
 *  - `AllocaVars` (`--ssa=alloca`): clang's -O0 shape. Every local scalar and every
 *    parameter gets an entry-block alloca (`%x.addr` for parameters, stored on entry);
 *    reads are loads, writes are stores. `mem2reg` promotes them afterwards.
 *  - `BraunVars` (`--ssa=braun`): SSA directly, with the SSABuilder of src/transforms/utils/ssa-builder.ts
 *    (Braun et al., CC 2013). Each local scalar is a builder variable; reads and writes
 *    are readVariable/writeVariable at the block being filled; blocks are sealed as soon
 *    as IR generation has emitted all their predecessors (structured control flow makes
 *    that immediate for every block but a loop header, sealed after the loop body). The
 *    join after an `if` and the header and exit of a `while` know which locals the
 *    statement assigns (assigned.ts); a read of any other local there goes straight to the
 *    block where the statement began, so Braun's algorithm makes no phi for it (one it would
 *    only remove again as trivial: at 100k lines, 16k phis made instead of 32k).
 *
 * Braun mode gives a variable that no assignment statement targets (an array parameter,
 * a parameter or local only initialized) no builder variable at all: its initializer, which
 * dominates every read in its scope, is its value — the frontend's version of mem2reg's
 * single-store fast path, and no phis are made and removed for it at loop headers.
 * A declaration without initializer writes nothing, so a read before the first write
 * sees the value of the previous loop iteration or `undef` — exactly what the alloca
 * gives after mem2reg, so both modes agree even on such programs.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { IRBuilder } from '../../ir/builder.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Type } from '../../ir/types.js';
import type { Argument, Value } from '../../ir/value.js';
import { simplifyPhiValues } from '../../analysis/instsimplify.js';
import { UndefValue } from '../../ir/constants.js';
import { SSABuilder } from '../../transforms/utils/ssa-builder.js';
import { removeRedundantPhis } from '../../transforms/ssa/redundant-phis.js';
import type { AssignedSet } from './assigned.js';
import type { VarDecl } from './ast.js';

/** What a variable model needs from the function being generated. */
export interface VarHost {
  readonly fn: Function;
  readonly b: IRBuilder;
  /** A new alloca at the top of the entry block. */
  entryAlloca(type: Type, name: string): Instruction;
  /** The LLVM type of a scalar or array-parameter declaration. */
  typeOf(d: VarDecl): Type;
  /**
   * Per-declaration storage, indexed by the program-wide declaration id and shared by all
   * functions (ids are unique, so no function sees another's entries): an address or value,
   * and a number.
   */
  readonly declValue: (Value | null)[];
  readonly declNumber: Int32Array;
  /** 1 for local scalars and parameters that some assignment statement of the function targets. */
  readonly assigned: Uint8Array;
}

export interface VarModel {
  /** A parameter (scalar or array) and its incoming argument; called in the entry block. */
  param(d: VarDecl, arg: Argument): void;
  /** A local scalar's declaration (its initializer, if any, follows as a write). */
  local(d: VarDecl): void;
  read(d: VarDecl, bb: BasicBlock): Value;
  write(d: VarDecl, bb: BasicBlock, v: Value): void;
  /** All predecessors of `bb` (which is in the function) exist. */
  seal(bb: BasicBlock): void;
  /**
   * `bb` joins the paths of an `if` or heads or exits a `while` that began at the end of
   * `start` and assigns only the locals `assigned` (decl ids; null: any): the others have at
   * `bb` the value they have at the end of `start`.
   */
  join(bb: BasicBlock, start: BasicBlock, assigned: AssignedSet): void;
  /** The function is complete. */
  finish(): void;
}

export class AllocaVars implements VarModel {
  /** The alloca of each declaration (host.declValue). */
  private readonly slot: (Value | null)[];
  constructor(private readonly h: VarHost) {
    this.slot = h.declValue;
  }

  param(d: VarDecl, arg: Argument): void {
    const a = this.h.entryAlloca(arg.type, d.name + '.addr');
    this.slot[d.id] = a;
    this.h.b.store(arg, a);
  }
  local(d: VarDecl): void {
    this.slot[d.id] = this.h.entryAlloca(this.h.typeOf(d), d.name);
  }
  read(d: VarDecl): Value {
    return this.h.b.load(this.h.typeOf(d), this.slot[d.id]!);
  }
  write(d: VarDecl, _bb: BasicBlock, v: Value): void {
    this.h.b.store(v, this.slot[d.id]!);
  }
  seal(): void {}
  join(): void {}
  finish(): void {}
}

export interface BraunStats {
  phisCreated: number;
  phisRemovedTrivial: number;
  phisRemovedByHook: number;
  /** Removed by Algorithm 5 at the end of the function (redundant SCCs, §3.2). */
  phisRemovedRedundant: number;
}

const DIRECT = -1;

export class BraunVars implements VarModel {
  readonly ssa: SSABuilder;
  /** Builder variable per declaration id (host.declNumber), or DIRECT. */
  private readonly varOf: Int32Array;
  /** The value of DIRECT declarations (host.declValue). */
  private readonly direct: (Value | null)[];
  private readonly assigned: Uint8Array;
  /** The decl id of each builder variable. */
  private readonly declOf: number[] = [];
  /** Per block id: where the structured statement that `bb` joins began, and what it assigns (see `join`). */
  private readonly joinStart: (BasicBlock | undefined)[] = [];
  private readonly joinAssigned: (readonly number[] | undefined)[] = [];
  /** The builder's phis, for Algorithm 5 at the end. */
  private readonly phis: Instruction[] = [];
  private removedRedundant = 0;

  /** `statements`: the size of the function body, to size the builder's tables once. */
  constructor(
    private readonly h: VarHost,
    fold: boolean,
    statements = 0,
  ) {
    this.varOf = h.declNumber;
    this.direct = h.declValue;
    this.assigned = h.assigned;
    // On-the-fly phi folding: phi(v, undef, v) is v when v is a constant or an argument
    // (values that dominate everything); other undef merges need dominance, which the
    // builder does not have yet, so they stay (as in plain Cytron SSA).
    const hook = fold ? (phi: Instruction): Value | null => simplifyPhiValues(phi.operands(), phi, null) : null;
    const shortcut = (bb: BasicBlock, v: number): BasicBlock | null => {
      const start = this.joinStart[bb.id];
      return start !== undefined && !this.joinAssigned[bb.id]!.includes(this.declOf[v]) ? start : null;
    };
    this.ssa = new SSABuilder(h.fn, { simplifyPhi: hook, shortcut, expectedDefinitions: 2 * statements, onPhiCreated: (phi) => this.phis.push(phi) });
  }

  param(d: VarDecl, arg: Argument): void {
    if (this.assigned[d.id] === 0) {
      this.varOf[d.id] = DIRECT;
      this.direct[d.id] = arg;
      return;
    }
    const v = this.ssa.declareVariable(arg.type, d.name);
    this.declOf[v] = d.id;
    this.varOf[d.id] = v;
    this.ssa.writeVariable(v, this.h.b.insertBlock!, arg);
  }
  local(d: VarDecl): void {
    if (this.assigned[d.id] === 0) {
      // the initializer's write follows; without one, every read is undef
      this.varOf[d.id] = DIRECT;
      this.direct[d.id] = UndefValue.get(this.h.typeOf(d));
      return;
    }
    const v = this.ssa.declareVariable(this.h.typeOf(d), d.name);
    this.declOf[v] = d.id;
    this.varOf[d.id] = v;
  }
  read(d: VarDecl, bb: BasicBlock): Value {
    const v = this.varOf[d.id];
    return v === DIRECT ? this.direct[d.id]! : this.ssa.readVariable(v, bb);
  }
  write(d: VarDecl, bb: BasicBlock, v: Value): void {
    const x = this.varOf[d.id];
    if (x === DIRECT) this.direct[d.id] = v;
    else this.ssa.writeVariable(x, bb, v);
  }
  seal(bb: BasicBlock): void {
    this.ssa.sealBlock(bb);
  }
  join(bb: BasicBlock, start: BasicBlock, assigned: AssignedSet): void {
    if (assigned === null) return;
    this.joinStart[bb.id] = start;
    this.joinAssigned[bb.id] = assigned;
  }
  finish(): void {
    // every block must have been sealed, or some phi would miss operands
    const open = this.ssa.unsealedBlocks();
    if (open.length > 0) throw new Error(`internal error: IR generation left ${open.length} block(s) unsealed in @${this.h.fn.name}`);
    // Trivial-phi removal leaves webs of phis that only carry one value (copies such as a
    // swap of two equal variables): Braun et al.'s Algorithm 5 removes them, so the result
    // is minimal SSA by itself (§3.2-3.3), without a separate redundant-phis pass.
    const live = this.phis.filter((p) => p.parent !== null);
    if (live.length > 0) {
      const st = removeRedundantPhis(this.h.fn, live);
      this.removedRedundant += st.redundant + st.trivial;
    }
  }

  get stats(): BraunStats {
    return { ...this.ssa.stats, phisRemovedRedundant: this.removedRedundant };
  }
}

/**
 * Instructions. One monomorphic class for every opcode (V8 keeps property accesses on
 * hot paths monomorphic); opcode-specific data lives in a few shared fields.
 *
 * Operand layout per opcode (LLVM's, except that a call's callee comes first):
 *   ret [v]         br [dest] | [cond, ifTrue, ifFalse]     switch [cond, default, v0, bb0, v1, bb1, ...]
 *   binary [a, b]   cast/fneg/freeze [v]   icmp/fcmp [a, b] (pred)   select [c, a, b]
 *   alloca [count] (auxType = allocated type)   load [ptr]   store [value, ptr]
 *   getelementptr [ptr, idx...] (auxType = source element type)
 *   call [callee, args...] (auxType = function type)
 *   phi [v0, v1, ...] with blocks[i] the block v_i comes from (blocks are not operands, as in LLVM)
 *   extractvalue [agg] / insertvalue [agg, v] with `indices`; shufflevector [a, b] with `indices` = mask
 *
 * Invariants: `ops[i].index === i`; the instruction is on its block's list iff `parent` is set;
 * `id` is dense within the parent function (see Function.renumber()).
 */
import { Opcode, OPCODE_NAMES, Pred, isTerminatorOp } from './opcodes.js';
import { Type, voidType } from './types.js';
import { metadataHooks, newUse, type Use, type User, Value, ValueKind, linkUse, setUseValue, unlinkUse } from './value.js';
import type { DbgRecord, MDAttachment } from './metadata.js';
import type { BasicBlock } from './basic-block.js';
import type { Function } from './function.js';

/** Attributes of a call site, kept as printed text. */
export interface CallAttrs {
  /** Calling convention (`fastcc`), empty for the default. */
  cconv: string;
  /** Return attributes (`noundef`, `zeroext`). */
  ret: string;
  /** One entry per argument. */
  args: string[];
  /** Function attributes after the argument list (`#3`, `nounwind`). */
  fn: string;
}

export class Instruction extends Value implements User {
  ops!: Use[]; // set by the constructor (no throwaway empty array per instruction)
  parent: BasicBlock | null = null;
  prev: Instruction | null = null;
  next: Instruction | null = null;
  /** Dense index within the parent function; -1 when not in a function. */
  id = -1;
  /** Bit set of `Flag`s. */
  flags = 0;
  /** icmp/fcmp predicate. */
  pred: Pred = 0 as Pred;
  /** alloca: allocated type; getelementptr: source element type; call: callee's function type. */
  auxType: Type | null = null;
  /** phi: incoming blocks, parallel to `ops`. */
  blocks: BasicBlock[] | null = null;
  /** extractvalue/insertvalue indices, shufflevector mask (-1 = poison). */
  indices: number[] | null = null;
  /** `align N` of alloca/load/store (0 = not given). */
  align = 0;
  /** Call-site attributes. */
  callAttrs: CallAttrs | null = null;
  /** Metadata attachments (`!dbg`, `!tbaa`, `!llvm.loop`…) in LLVM's order (see metadata.ts), or null. */
  md: MDAttachment[] | null = null;
  /** Debug records printed before this instruction (`#dbg_value(…)`), or null. */
  dbgRecords: DbgRecord[] | null = null;
  /** Extra printed text some rare forms need (atomic orderings, `inrange`, …). */
  extra: string | null = null;
  /**
   * Where the parser read this instruction (a character offset into the module's
   * `source.text`), so verifier reports can say file:line:col; -1 when made by a transform
   * or the builder.
   */
  srcOffset = -1;

  constructor(
    readonly op: Opcode,
    type: Type,
    operands: readonly Value[] = [],
  ) {
    super(ValueKind.Instruction, type);
    const n = operands.length;
    // Array literals for the common sizes: like Use records (see newUse), literal allocation
    // sites let V8 allocate these long-lived arrays in the old space directly. Every operand
    // array is a packed one (a literal, or grown by push; never `new Array(n)`, which is
    // holey): with one elements kind, every `ops[k]` in the code base stays monomorphic.
    let ops: Use[];
    if (n === 1) ops = [newUse(operands[0], this, 0)];
    else if (n === 2) ops = [newUse(operands[0], this, 0), newUse(operands[1], this, 1)];
    else if (n === 3) ops = [newUse(operands[0], this, 0), newUse(operands[1], this, 1), newUse(operands[2], this, 2)];
    else {
      ops = [];
      for (let i = 0; i < n; i++) ops.push(newUse(operands[i], this, i));
    }
    for (let i = 0; i < n; i++) linkUse(ops[i]);
    this.ops = ops;
  }

  get opcodeName(): string {
    return OPCODE_NAMES[this.op];
  }

  get numOperands(): number {
    return this.ops.length;
  }

  operand(i: number): Value {
    return this.ops[i].value;
  }

  setOperand(i: number, v: Value): void {
    setUseValue(this.ops[i], v);
  }

  /** Appends an operand slot. */
  addOperand(v: Value): void {
    const u = newUse(v, this, this.ops.length);
    linkUse(u);
    this.ops.push(u);
  }

  /** Removes operand slot `i`, shifting the later ones down. */
  removeOperand(i: number): void {
    const ops = this.ops;
    unlinkUse(ops[i]);
    for (let j = i + 1; j < ops.length; j++) {
      ops[j].index = j - 1;
      ops[j - 1] = ops[j];
    }
    ops.pop();
  }

  operands(): Value[] {
    return this.ops.map((u) => u.value);
  }

  /** Replaces every operand equal to `from` with `to`. */
  replaceUsesOfWith(from: Value, to: Value): void {
    for (const u of this.ops) if (u.value === from) setUseValue(u, to);
  }

  /** Unlinks every operand from its value's use list (the instruction becomes an empty shell). */
  dropAllReferences(): void {
    for (const u of this.ops) unlinkUse(u);
    this.ops = [];
    if (this.blocks !== null) this.blocks = [];
  }

  isTerminator(): boolean {
    return isTerminatorOp(this.op);
  }

  get function(): Function | null {
    return this.parent === null ? null : this.parent.parent;
  }

  // ---- list manipulation ------------------------------------------------------

  /** Takes the instruction out of its block without touching its operands or uses. */
  removeFromParent(): void {
    const bb = this.parent;
    if (bb === null) return;
    // Debug records stay where they are, as LLVM's do: they move to the next instruction.
    if (this.dbgRecords !== null) {
      const n = this.next;
      if (n !== null) n.dbgRecords = n.dbgRecords === null ? this.dbgRecords : this.dbgRecords.concat(n.dbgRecords);
      this.dbgRecords = null;
    }
    bb.unlinkInstruction(this);
  }

  /** Removes the instruction from its block and drops its operands. It must have no uses. */
  eraseFromParent(): void {
    if (this.firstUse !== null) {
      throw new Error(`cannot erase '${this.opcodeName}' instruction${this.name ? ' %' + this.name : ''}: it still has ${this.numUses} use(s)`);
    }
    this.removeFromParent();
    // before the operands go: debug records of this value are salvaged from them
    if (metadataHooks.active) metadataHooks.erased(this);
    this.dropAllReferences();
  }

  insertBefore(pos: Instruction): void {
    pos.parent!.insertBefore(this, pos);
  }

  insertAfter(pos: Instruction): void {
    const bb = pos.parent!;
    if (pos.next === null) bb.append(this);
    else bb.insertBefore(this, pos.next);
  }

  moveBefore(pos: Instruction): void {
    this.removeFromParent();
    this.insertBefore(pos);
  }

  // ---- terminators -------------------------------------------------------------

  numSuccessors(): number {
    switch (this.op) {
      case Opcode.Br:
        return this.ops.length === 1 ? 1 : 2;
      case Opcode.Switch:
        return this.ops.length >> 1;
      case Opcode.IndirectBr:
        return this.ops.length - 1;
      default:
        return 0;
    }
  }

  successor(i: number): BasicBlock {
    switch (this.op) {
      case Opcode.Br:
        return (this.ops.length === 1 ? this.ops[0].value : this.ops[i + 1].value) as BasicBlock;
      case Opcode.Switch:
        return (i === 0 ? this.ops[1].value : this.ops[2 * i + 1].value) as BasicBlock;
      case Opcode.IndirectBr:
        return this.ops[i + 1].value as BasicBlock;
      default:
        throw new RangeError(`${this.opcodeName} has no successors`);
    }
  }

  setSuccessor(i: number, bb: BasicBlock): void {
    switch (this.op) {
      case Opcode.Br:
        this.setOperand(this.ops.length === 1 ? 0 : i + 1, bb);
        return;
      case Opcode.Switch:
        this.setOperand(i === 0 ? 1 : 2 * i + 1, bb);
        return;
      case Opcode.IndirectBr:
        this.setOperand(i + 1, bb);
        return;
      default:
        throw new RangeError(`${this.opcodeName} has no successors`);
    }
  }

  successors(): BasicBlock[] {
    const n = this.numSuccessors();
    const out = new Array<BasicBlock>(n);
    for (let i = 0; i < n; i++) out[i] = this.successor(i);
    return out;
  }

  isConditionalBranch(): boolean {
    return this.op === Opcode.Br && this.ops.length === 3;
  }

  // ---- phi ---------------------------------------------------------------------

  get numIncoming(): number {
    return this.ops.length;
  }
  incomingValue(i: number): Value {
    return this.ops[i].value;
  }
  incomingBlock(i: number): BasicBlock {
    return this.blocks![i];
  }
  setIncomingValue(i: number, v: Value): void {
    setUseValue(this.ops[i], v);
  }
  setIncomingBlock(i: number, bb: BasicBlock): void {
    this.blocks![i] = bb;
  }
  addIncoming(v: Value, bb: BasicBlock): void {
    this.addOperand(v);
    this.blocks!.push(bb);
  }
  removeIncoming(i: number): Value {
    const v = this.ops[i].value;
    this.removeOperand(i);
    this.blocks!.splice(i, 1);
    return v;
  }
  /** Index of the entry for predecessor `bb`, or -1. */
  blockIndex(bb: BasicBlock): number {
    return this.blocks!.indexOf(bb);
  }
  /** The value flowing in from predecessor `bb`. */
  incomingValueFor(bb: BasicBlock): Value | undefined {
    const i = this.blocks!.indexOf(bb);
    return i < 0 ? undefined : this.ops[i].value;
  }

  // ---- switch ------------------------------------------------------------------

  get numCases(): number {
    return (this.ops.length - 2) >> 1;
  }
  caseValue(i: number): Value {
    return this.ops[2 + 2 * i].value;
  }
  caseDest(i: number): BasicBlock {
    return this.ops[3 + 2 * i].value as BasicBlock;
  }
  addCase(v: Value, bb: BasicBlock): void {
    this.addOperand(v);
    this.addOperand(bb);
  }
  removeCase(i: number): void {
    this.removeOperand(2 + 2 * i + 1);
    this.removeOperand(2 + 2 * i);
  }

  // ---- calls -------------------------------------------------------------------

  /** The called value (a Function for direct calls). */
  get callee(): Value {
    return this.ops[0].value;
  }
  /** The callee when it is a function of this module, else null. */
  calledFunction(): Function | null {
    const c = this.ops[0].value;
    return c.kind === ValueKind.Function ? (c as Function) : null;
  }
  get numArgs(): number {
    return this.ops.length - 1;
  }
  arg(i: number): Value {
    return this.ops[i + 1].value;
  }
  args(): Value[] {
    const out: Value[] = [];
    for (let i = 1; i < this.ops.length; i++) out.push(this.ops[i].value);
    return out;
  }

  // ---- memory ------------------------------------------------------------------

  /** The address operand of a load or store. */
  pointerOperand(): Value {
    return this.op === Opcode.Store ? this.ops[1].value : this.ops[0].value;
  }

  /** A shallow copy: same opcode, type, flags and operands (fresh uses), not in a block. */
  clone(): Instruction {
    const c = new Instruction(this.op, this.type, this.operands());
    c.name = this.name;
    c.flags = this.flags;
    c.pred = this.pred;
    c.auxType = this.auxType;
    c.blocks = this.blocks === null ? null : this.blocks.slice();
    c.indices = this.indices === null ? null : this.indices.slice();
    c.align = this.align;
    c.callAttrs = this.callAttrs === null ? null : { ...this.callAttrs, args: this.callAttrs.args.slice() };
    c.md = this.md === null ? null : this.md.slice();
    c.extra = this.extra;
    return c;
  }

  hasResult(): boolean {
    return this.type !== voidType;
  }
}

export function isInstruction(v: Value): v is Instruction {
  return v.kind === ValueKind.Instruction;
}

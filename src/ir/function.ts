/**
 * Functions and global variables (LLVM's GlobalValues: constants whose value is their
 * address, so their type is `ptr`).
 *
 * Invariants: a function's blocks form a doubly linked list; the first is the entry.
 * Block and instruction ids are dense-ish: new ones get `blockIdBound++` /
 * `instIdBound++`; `renumber()` compacts them in layout order so analyses can size
 * typed arrays by the bounds.
 */
import { BasicBlock } from './basic-block.js';
import type { Constant } from './constants.js';
import { Instruction } from './instruction.js';
import { Type, ptr as ptrTy, ptrType } from './types.js';
import { Argument, Value, ValueKind, unlinkUse } from './value.js';
import type { Module } from './module.js';
import type { MDAttachment } from './metadata.js';

/** Attributes and flags of a global value, kept as printed so they survive a round trip. */
export interface GlobalAttrs {
  /** `internal`, `private`, `linkonce_odr`, … ('' = external). */
  linkage: string;
  /** Words between linkage and the type/keyword: `dso_local`, `hidden`, `unnamed_addr`, `thread_local`, `fastcc`, return attributes… */
  prefix: string;
  /** Text after the signature / initializer: `#0`, `local_unnamed_addr`, `section "s"`, `comdat`, `align 16`, `!dbg !3`… */
  suffix: string;
}

export class Function extends Value {
  args: Argument[];
  firstBlock: BasicBlock | null = null;
  lastBlock: BasicBlock | null = null;
  numBlocks = 0;
  blockIdBound = 0;
  instIdBound = 0;
  parent: Module | null = null;
  attrs: GlobalAttrs = { linkage: '', prefix: '', suffix: '' };
  /** Metadata attachments (`!dbg !5`, `!prof !7`), or null. */
  md: MDAttachment[] | null = null;
  /** Return-value attributes (`noundef`, `signext`). */
  retAttrs = '';

  constructor(
    name: string,
    /** The function's type (`i32 (ptr, ...)`); the value's own type is `ptr`. */
    public fnType: Type,
    argNames: readonly string[] = [],
  ) {
    super(ValueKind.Function, ptrTy);
    this.name = name;
    this.args = fnType.params.map((t, i) => new Argument(t, this, i, argNames[i] ?? ''));
  }

  /**
   * Sets the type and fresh arguments of a function that has no body yet (the parser
   * creates functions on first reference, before it has read their headers).
   */
  setSignature(fnType: Type, argNames: readonly string[] = []): void {
    if (this.firstBlock !== null) throw new Error('cannot change the signature of a function with a body');
    this.fnType = fnType;
    this.args = fnType.params.map((t, i) => new Argument(t, this, i, argNames[i] ?? ''));
  }

  get returnType(): Type {
    return this.fnType.returnType;
  }

  isDeclaration(): boolean {
    return this.firstBlock === null;
  }

  get entry(): BasicBlock {
    if (this.firstBlock === null) throw new Error(`@${this.name} is a declaration`);
    return this.firstBlock;
  }

  *[Symbol.iterator](): IterableIterator<BasicBlock> {
    let b = this.firstBlock;
    while (b !== null) {
      const n = b.next;
      yield b;
      b = n;
    }
  }

  blocks(): BasicBlock[] {
    const out: BasicBlock[] = new Array(this.numBlocks);
    let k = 0;
    for (let b = this.firstBlock; b !== null; b = b.next) out[k++] = b;
    return out;
  }

  /** Every instruction, in layout order. */
  instructions(): Instruction[] {
    const out: Instruction[] = [];
    for (let b = this.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null; i = i.next) out.push(i);
    return out;
  }

  private adoptBlock(bb: BasicBlock): void {
    if (bb.parent !== null) throw new Error('block is already in a function');
    bb.parent = this;
    bb.id = this.blockIdBound++;
    this.numBlocks++;
    for (let i = bb.first; i !== null; i = i.next) i.id = this.instIdBound++;
  }

  appendBlock(bb: BasicBlock): BasicBlock {
    this.adoptBlock(bb);
    bb.prev = this.lastBlock;
    bb.next = null;
    if (this.lastBlock !== null) this.lastBlock.next = bb;
    else this.firstBlock = bb;
    this.lastBlock = bb;
    return bb;
  }

  insertBlockAfter(bb: BasicBlock, pos: BasicBlock): BasicBlock {
    if (pos.next === null) return this.appendBlock(bb);
    return this.insertBlockBefore(bb, pos.next);
  }

  insertBlockBefore(bb: BasicBlock, pos: BasicBlock): BasicBlock {
    this.adoptBlock(bb);
    bb.next = pos;
    bb.prev = pos.prev;
    if (pos.prev !== null) pos.prev.next = bb;
    else this.firstBlock = bb;
    pos.prev = bb;
    return bb;
  }

  /** Internal: unlinks a block (see BasicBlock.removeFromParent). */
  unlinkBlock(bb: BasicBlock): void {
    if (bb.prev !== null) bb.prev.next = bb.next;
    else this.firstBlock = bb.next;
    if (bb.next !== null) bb.next.prev = bb.prev;
    else this.lastBlock = bb.prev;
    bb.prev = bb.next = null;
    bb.parent = null;
    bb.id = -1;
    this.numBlocks--;
  }

  /** Gives blocks and instructions consecutive ids in layout order. */
  renumber(): void {
    let b = 0;
    let n = 0;
    for (let bb = this.firstBlock; bb !== null; bb = bb.next) {
      bb.id = b++;
      for (let i = bb.first; i !== null; i = i.next) i.id = n++;
    }
    this.blockIdBound = b;
    this.instIdBound = n;
  }

  /** Detaches the function from its module; its body stays intact. */
  removeFromParent(): void {
    this.parent?.removeFunction(this);
  }

  /** Deletes the body, turning the function into a declaration. */
  deleteBody(): void {
    // Only uses of values that outlive the body (arguments, globals, functions) are unlinked:
    // uses of the body's own instructions and blocks die with it, and unlinking them one by
    // one was most of the cost of streaming's per-function clean-up.
    for (let b = this.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        const ops = i.ops;
        for (let k = 0; k < ops.length; k++) {
          const kind = ops[k].value.kind;
          if (kind !== ValueKind.Instruction && kind !== ValueKind.BasicBlock) unlinkUse(ops[k]);
        }
      }
    }
    while (this.firstBlock !== null) this.unlinkBlock(this.firstBlock);
    this.blockIdBound = this.instIdBound = 0;
  }
}

export class GlobalVariable extends Value {
  initializer: Constant | null;
  isConstant: boolean;
  align = 0;
  /** Metadata attachments (`!dbg !5`), or null. */
  md: MDAttachment[] | null = null;
  parent: Module | null = null;
  attrs: GlobalAttrs = { linkage: '', prefix: '', suffix: '' };

  constructor(
    name: string,
    /** The type of the object the global holds; the value's own type is `ptr addrspace(N)`. */
    readonly valueType: Type,
    initializer: Constant | null,
    isConstant = false,
    /** The address space it lives in (`@g = addrspace(1) global ...`): its uses are `ptr addrspace(1) @g`. */
    addrSpace = 0,
  ) {
    super(ValueKind.GlobalVariable, addrSpace === 0 ? ptrTy : ptrType(addrSpace));
    this.name = name;
    this.initializer = initializer;
    this.isConstant = isConstant;
  }

  isDeclaration(): boolean {
    return this.initializer === null;
  }
}

/** `@a = alias i32, ptr @b`: kept so such modules parse; calls through it resolve to the aliasee. */
export class GlobalAlias extends Value {
  parent: Module | null = null;
  attrs: GlobalAttrs = { linkage: '', prefix: '', suffix: '' };
  constructor(
    name: string,
    readonly valueType: Type,
    public aliasee: Constant,
  ) {
    super(ValueKind.GlobalAlias, ptrTy);
    this.name = name;
  }
}

export function isFunction(v: Value): v is Function {
  return v.kind === ValueKind.Function;
}
export function isGlobalVariable(v: Value): v is GlobalVariable {
  return v.kind === ValueKind.GlobalVariable;
}

/**
 * Values and use lists, after LLVM's `Value`/`Use`/`User`.
 *
 * Invariants:
 *  - Every operand slot of a user is a `Use` object; `use.value` is the operand.
 *  - A value that tracks uses (instructions, arguments, blocks, globals, functions)
 *    threads all `Use`s naming it on a doubly linked list starting at `firstUse`,
 *    so adding, removing and rewriting an operand is O(1). Constants are immutable and
 *    shared between modules, so they do not keep use lists.
 *  - `numUses` is the length of that list.
 */
import type { Type } from './types.js';

export enum ValueKind {
  Argument,
  BasicBlock,
  Instruction,
  Function,
  GlobalVariable,
  GlobalAlias,
  ConstantInt,
  ConstantFP,
  ConstantNull,
  Undef,
  Poison,
  ConstantZero,
  ConstantArray,
  ConstantStruct,
  ConstantVector,
  ConstantString,
  ConstantExpr,
  BlockAddress,
  Metadata,
  InlineAsm,
}

let nextUid = 1;

/**
 * How metadata follows values (set by metadata.ts, which value.ts cannot import): `active`
 * stays false until a function-local value is first wrapped as metadata, so code without
 * debug info pays one load per RAUW or erase.
 */
export const metadataHooks: {
  active: boolean;
  replaced: (from: Value, to: Value) => void;
  erased: (v: Value) => void;
} = { active: false, replaced: () => {}, erased: () => {} };

/**
 * One operand slot: a node of its value's doubly linked use list.
 *
 * A plain record made by `newUse` from an object literal, not a class: V8 tracks literal
 * allocation sites and, seeing that nearly every Use outlives the young generation (a
 * parsed module keeps them all), allocates them straight in the old space instead of
 * copying each one twice through the nursery (class instances get no such feedback).
 */
export interface Use {
  value: Value;
  /** The instruction (or other user) that owns this operand slot. */
  readonly user: User;
  /** Operand index within the user. */
  index: number;
  prev: Use | null;
  next: Use | null;
}

export function newUse(value: Value, user: User, index: number): Use {
  return { value, user, index, prev: null, next: null };
}

/** Anything with operands: instructions (and, structurally, nothing else that tracks uses). */
export interface User extends Value {
  ops: Use[];
}

export class Value {
  /** Unique across the process; a cheap hash key. */
  readonly uid: number = nextUid++;
  name = '';
  firstUse: Use | null = null;
  numUses = 0;

  constructor(
    readonly kind: ValueKind,
    public type: Type,
  ) {}

  /** Whether this value keeps a use list (false for constants, which are shared). */
  get tracksUses(): boolean {
    return this.kind < ValueKind.ConstantInt;
  }

  hasUses(): boolean {
    return this.firstUse !== null;
  }

  hasOneUse(): boolean {
    return this.numUses === 1;
  }

  /** The uses of this value, safe against the current use being removed while iterating. */
  *uses(): IterableIterator<Use> {
    let u = this.firstUse;
    while (u !== null) {
      const next = u.next;
      yield u;
      u = next;
    }
  }

  /** The distinct users of this value. */
  users(): User[] {
    const out: User[] = [];
    for (let u = this.firstUse; u !== null; u = u.next) {
      if (out.length === 0 || out[out.length - 1] !== u.user) {
        if (!out.includes(u.user)) out.push(u.user);
      }
    }
    return out;
  }

  /** Makes every use of this value use `v` instead. */
  replaceAllUsesWith(v: Value): void {
    if (v === this) return;
    if (metadataHooks.active) metadataHooks.replaced(this, v);
    let u = this.firstUse;
    while (u !== null) {
      const next = u.next;
      setUseValue(u, v);
      u = next;
    }
  }

  /** Replaces uses for which `pred(use)` holds. */
  replaceUsesWithIf(v: Value, pred: (u: Use) => boolean): void {
    let u = this.firstUse;
    while (u !== null) {
      const next = u.next;
      if (pred(u)) setUseValue(u, v);
      u = next;
    }
  }
}

export function linkUse(u: Use): void {
  const v = u.value;
  if (v.kind >= ValueKind.ConstantInt) return;
  const head = v.firstUse;
  u.prev = null;
  u.next = head;
  if (head !== null) head.prev = u;
  v.firstUse = u;
  v.numUses++;
}

export function unlinkUse(u: Use): void {
  const v = u.value;
  if (v.kind >= ValueKind.ConstantInt) return;
  const p = u.prev;
  const n = u.next;
  if (p !== null) p.next = n;
  else v.firstUse = n;
  if (n !== null) n.prev = p;
  u.prev = u.next = null;
  v.numUses--;
}

/** Points an existing use at another value, keeping both use lists exact. */
export function setUseValue(u: Use, v: Value): void {
  if (u.value === v) return;
  unlinkUse(u);
  u.value = v;
  linkUse(u);
}

/** A function argument. */
export class Argument extends Value {
  constructor(
    type: Type,
    public parent: import('./function.js').Function | null,
    public index: number,
    name = '',
  ) {
    super(ValueKind.Argument, type);
    this.name = name;
  }
  /** Parameter attributes as printed (`noundef`, `nocapture` ...), kept opaquely. */
  attrs = '';
}

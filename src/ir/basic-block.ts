/**
 * Basic blocks: a doubly linked list of instructions, phis first and one terminator last
 * (the verifier checks the shape; the list operations here do not).
 *
 * Invariants: `id` is dense within the parent function; a block's uses are the branch
 * operands that name it (phi incoming blocks are not uses, as in LLVM).
 */
import { Instruction } from './instruction.js';
import { Opcode } from './opcodes.js';
import { UndefValue } from './constants.js';
import { labelType, voidType } from './types.js';
import { metadataHooks, Value, ValueKind } from './value.js';
import type { Function } from './function.js';

export class BasicBlock extends Value {
  parent: Function | null = null;
  first: Instruction | null = null;
  last: Instruction | null = null;
  prev: BasicBlock | null = null;
  next: BasicBlock | null = null;
  /** Dense index within the parent function; -1 when detached. */
  id = -1;
  /** Number of instructions in the block. */
  size = 0;
  /**
   * Whether a `blockaddress` names this block (set when one is made; never cleared, as
   * LLVM's hasAddressTaken while the constant lives). Such a block may be the target of
   * an `indirectbr` through a value no pass can follow, so passes do not merge it into a
   * predecessor, forward it away or move its code elsewhere; it is deleted only when
   * unreachable, and then its blockaddress constants print as `inttoptr (i32 1 to ptr)`,
   * what LLVM's ~BasicBlock leaves in their place.
   */
  addressTaken = false;

  constructor(name = '') {
    super(ValueKind.BasicBlock, labelType);
    this.name = name;
  }

  *[Symbol.iterator](): IterableIterator<Instruction> {
    let i = this.first;
    while (i !== null) {
      const n = i.next;
      yield i;
      i = n;
    }
  }

  /** LLVM's BasicBlock::hasAddressTaken: a live blockaddress names this block. */
  hasAddressTaken(): boolean {
    return this.addressTaken && this.parent !== null;
  }

  instructions(): Instruction[] {
    const out: Instruction[] = [];
    for (let i = this.first; i !== null; i = i.next) out.push(i);
    return out;
  }

  /** The block's terminator, or null when the block does not (yet) end in one. */
  terminator(): Instruction | null {
    const l = this.last;
    return l !== null && l.isTerminator() ? l : null;
  }

  phis(): Instruction[] {
    const out: Instruction[] = [];
    for (let i = this.first; i !== null && i.op === Opcode.Phi; i = i.next) out.push(i);
    return out;
  }

  firstNonPhi(): Instruction | null {
    let i = this.first;
    while (i !== null && i.op === Opcode.Phi) i = i.next;
    return i;
  }

  successors(): BasicBlock[] {
    const t = this.terminator();
    return t === null ? [] : t.successors();
  }

  /**
   * The distinct predecessors, found through the block's uses by terminators, in the
   * function's block order.
   */
  predecessors(): BasicBlock[] {
    const out: BasicBlock[] = [];
    for (let u = this.firstUse; u !== null; u = u.next) {
      const user = u.user as Instruction;
      if (user.kind === ValueKind.Instruction && user.isTerminator() && user.parent !== null && !out.includes(user.parent)) {
        out.push(user.parent);
      }
    }
    if (out.length > 1) sortById(out);
    return out;
  }

  singlePredecessor(): BasicBlock | null {
    const p = this.predecessors();
    return p.length === 1 ? p[0] : null;
  }

  // ---- list operations ----------------------------------------------------------

  private adopt(inst: Instruction): void {
    if (inst.parent !== null) throw new Error('instruction is already in a block; call removeFromParent() first');
    inst.parent = this;
    const fn = this.parent;
    if (fn !== null) inst.id = fn.instIdBound++;
    this.size++;
  }

  append(inst: Instruction): Instruction {
    this.adopt(inst);
    inst.prev = this.last;
    inst.next = null;
    if (this.last !== null) this.last.next = inst;
    else this.first = inst;
    this.last = inst;
    return inst;
  }

  prepend(inst: Instruction): Instruction {
    if (this.first === null) return this.append(inst);
    return this.insertBefore(inst, this.first);
  }

  insertBefore(inst: Instruction, pos: Instruction): Instruction {
    if (pos.parent !== this) throw new Error('insertion point is not in this block');
    this.adopt(inst);
    inst.next = pos;
    inst.prev = pos.prev;
    if (pos.prev !== null) pos.prev.next = inst;
    else this.first = inst;
    pos.prev = inst;
    return inst;
  }

  /** Inserts before the terminator (at the end when there is none). */
  insertBeforeTerminator(inst: Instruction): Instruction {
    const t = this.terminator();
    return t === null ? this.append(inst) : this.insertBefore(inst, t);
  }

  /** Inserts after the phis. */
  insertAfterPhis(inst: Instruction): Instruction {
    const p = this.firstNonPhi();
    return p === null ? this.append(inst) : this.insertBefore(inst, p);
  }

  /**
   * Moves every instruction of `src` to the end of this block, each with its debug records
   * (LLVM's BasicBlock::splice): the records describe positions in the moved code, unlike
   * `removeFromParent`, which leaves them at the old position for the next instruction.
   */
  spliceAllFrom(src: BasicBlock): void {
    for (let i = src.first; i !== null; ) {
      const n = i.next;
      src.unlinkInstruction(i);
      this.append(i);
      i = n;
    }
  }

  /** Internal: unlinks without dropping operands. */
  unlinkInstruction(inst: Instruction): void {
    if (inst.prev !== null) inst.prev.next = inst.next;
    else this.first = inst.next;
    if (inst.next !== null) inst.next.prev = inst.prev;
    else this.last = inst.prev;
    inst.prev = inst.next = null;
    inst.parent = null;
    inst.id = -1;
    this.size--;
  }

  /** Detaches the block from its function (instructions and uses unchanged). */
  removeFromParent(): void {
    if (this.parent !== null) this.parent.unlinkBlock(this);
  }

  /**
   * Deletes the block: drops every instruction's operands and detaches it. Instructions
   * defined here must have no uses left outside the block; branches to this block must
   * already be gone (the verifier catches the rest).
   */
  eraseFromParent(): void {
    for (let i = this.first; i !== null; i = i.next) i.dropAllReferences();
    for (let i = this.first; i !== null; ) {
      const n = i.next;
      if (i.firstUse !== null) {
        // uses left in other blocks: point them at poison-free undef so the IR stays well typed
        i.replaceAllUsesWith(UndefValue.get(i.type));
      }
      if (metadataHooks.active) metadataHooks.erased(i);
      i.parent = null;
      i.prev = i.next = null;
      i = n;
    }
    this.first = this.last = null;
    this.size = 0;
    this.removeFromParent();
  }

  /**
   * Moves `from` and every instruction after it into a new block placed after this one,
   * and ends this block with `br label %new`. Successors' phis are rewired. Returns the new block.
   */
  splitAt(from: Instruction, name = ''): BasicBlock {
    const fn = this.parent!;
    const nb = new BasicBlock(name);
    fn.insertBlockAfter(nb, this);
    const oldSuccs = this.successors();
    let i: Instruction | null = from;
    while (i !== null) {
      const n: Instruction | null = i.next;
      this.unlinkInstruction(i);
      nb.append(i);
      i = n;
    }
    for (const s of oldSuccs) s.replacePhiIncomingBlock(this, nb);
    const br = new Instruction(Opcode.Br, voidType, [nb]);
    this.append(br);
    return nb;
  }

  /** In every phi of this block, renames incoming block `from` to `to`. */
  replacePhiIncomingBlock(from: BasicBlock, to: BasicBlock): void {
    for (let i = this.first; i !== null && i.op === Opcode.Phi; i = i.next) {
      const bs = i.blocks!;
      for (let k = 0; k < bs.length; k++) if (bs[k] === from) bs[k] = to;
    }
  }

  /** Removes `pred`'s entries from this block's phis (one entry, or all when `all`). */
  removePredecessorFromPhis(pred: BasicBlock, all = true): void {
    for (let i = this.first; i !== null && i.op === Opcode.Phi; i = i.next) {
      for (let k = i.blocks!.length - 1; k >= 0; k--) {
        if (i.blocks![k] === pred) {
          i.removeIncoming(k);
          if (!all) break;
        }
      }
    }
  }
}


export function isBasicBlock(v: Value): v is BasicBlock {
  return v.kind === ValueKind.BasicBlock;
}

/**
 * Sorts blocks by id, in place. A block has a few predecessors: an insertion sort for short
 * lists is faster than Array.prototype.sort and allocates nothing (the printer asks every
 * block for its sorted predecessors: 24 MB of the sort's scratch arrays at 1M instructions).
 */
export function sortById(bs: BasicBlock[]): void {
  const n = bs.length;
  if (n > 16) {
    bs.sort((a, b) => a.id - b.id);
    return;
  }
  for (let i = 1; i < n; i++) {
    const b = bs[i];
    let j = i - 1;
    while (j >= 0 && bs[j].id > b.id) {
      bs[j + 1] = bs[j];
      j--;
    }
    bs[j + 1] = b;
  }
}

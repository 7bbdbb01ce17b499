/**
 * The marker algorithm of Braun, Buchwald, Hack, Leißa, Mallon and Zwinkau, "Simple and
 * Efficient Construction of Static Single Assignment Form" (CC 2013), §3.3 "Reducing the
 * number of temporary φ functions": the lookup of a variable in a sealed block with
 * predecessors does not place a phi before looking into them (as Algorithm 2 does to break
 * cycles); it only marks the block. Reaching a marked block again means the lookup went
 * round a cycle: only then is a phi placed there, to break it. When all predecessors have
 * answered, the mark goes; a phi is placed (or the one the cycle placed is completed) only if
 * they gave different values, else the block takes their one value. So acyclic regions get no
 * temporary phis at all; only data-flow cycles may, and tryRemoveTrivialPhi removes those
 * that turn out trivial. Unsealed blocks still get incomplete phis (Algorithm 4).
 *
 * SSABuilder (ssa-builder.ts) uses this engine for readVariable and for the operands of
 * incomplete phis at sealBlock when built with `{ lookup: 'marker' }`.
 *
 * Invariants: the lookup is an explicit stack of frames, one per marked block (no recursion
 * whose depth grows with the CFG); a block is marked exactly while its frame is on the stack,
 * and gets its definition in the table when its frame is popped; at most one cycle-breaking
 * phi per frame.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Instruction } from '../../ir/instruction.js';
import type { Value } from '../../ir/value.js';

/** What the engine needs of the builder (closures over its private state). */
export interface MarkerHost {
  /** The definition of `variable` at the end of `block` in the table, or null. */
  def(variable: number, block: BasicBlock): Value | null;
  setDef(variable: number, block: BasicBlock, value: Value): void;
  sealed(block: BasicBlock): boolean;
  preds(block: BasicBlock): readonly BasicBlock[];
  /** An incomplete phi in unsealed `block` (recorded as its definition); Algorithm 4. */
  incomplete(variable: number, block: BasicBlock): Instruction;
  /** A new pending phi at the top of `block`. */
  newPhi(variable: number, block: BasicBlock): Instruction;
  /** Ends the pending state of `phi` and runs tryRemoveTrivialPhi; what it stands for now. */
  complete(phi: Instruction): Value;
  undef(variable: number): Value;
  resolve(v: Value): Value;
  /** The tracer's hooks (null when not tracing). */
  trace: MarkerTrace | null;
  /** The tracer's hook for an operand added to an incomplete phi at sealBlock. */
  operand: ((phi: Instruction, v: Value, pred: BasicBlock) => void) | null;
}

export interface MarkerTrace {
  found(variable: number, block: BasicBlock, v: Value): void;
  undef(variable: number, block: BasicBlock): void;
  incomplete(variable: number, block: BasicBlock, phi: Instruction): void;
  mark(variable: number, block: BasicBlock, preds: readonly BasicBlock[]): void;
  cycle(variable: number, block: BasicBlock, phi: Instruction): void;
  /** The frame of `block` is done: `values` from its predecessors, and what it decided. */
  unmark(variable: number, block: BasicBlock, values: readonly Value[], how: 'same' | 'phi' | 'cycle-phi', phi: Instruction | null): void;
}

class MarkerFrame {
  block: BasicBlock = null as unknown as BasicBlock;
  preds: readonly BasicBlock[] = [];
  index = 0;
  vals: Value[] = [];
  /** The phi placed when the lookup came round to this (marked) block. */
  phi: Instruction | null = null;
}

export class MarkerLookup {
  private readonly frames: MarkerFrame[] = [];
  private n = 0;
  /** Per block id: 1 + the index of its frame while marked, else 0. */
  private mark: Int32Array = new Int32Array(16);

  constructor(private readonly host: MarkerHost) {}

  /** The value of `variable` at the end of `block` (its definition, or found through its predecessors). */
  read(variable: number, block: BasicBlock): Value {
    const h = this.host;
    const base = this.n;
    let r = this.enter(variable, block);
    for (;;) {
      if (this.n === base) return r!;
      const f = this.frames[this.n - 1];
      if (r !== null) {
        f.vals.push(r);
        f.index++;
        r = null;
      }
      if (f.index < f.preds.length) {
        const p = f.preds[f.index];
        // a second edge from the same block carries the same value
        r = f.index > 0 && f.preds[f.index - 1] === p ? f.vals[f.vals.length - 1] : this.enter(variable, p);
        continue;
      }
      this.n--;
      this.mark[f.block.id] = 0;
      r = this.finish(variable, f);
      h.setDef(variable, f.block, r);
      f.vals = [];
      f.phi = null;
    }
  }

  /** sealBlock: the operands of incomplete `phi` of `variable` by marker lookups, then its trivial test. */
  completeIncomplete(phi: Instruction, variable: number, preds: readonly BasicBlock[]): void {
    const h = this.host;
    for (let k = 0; k < preds.length; k++) {
      const p = preds[k];
      const v = k > 0 && preds[k - 1] === p ? phi.ops[phi.ops.length - 1].value : h.resolve(this.read(variable, p));
      if (h.operand !== null) h.operand(phi, v, p);
      phi.addIncoming(v, p);
    }
    h.complete(phi);
  }

  /** A value if `block` answers at once; null after pushing (and marking) its frame. */
  private enter(variable: number, block: BasicBlock): Value | null {
    const h = this.host;
    const d = h.def(variable, block);
    if (d !== null) {
      if (h.trace !== null) h.trace.found(variable, block, h.resolve(d));
      return d;
    }
    const id = block.id;
    if (id >= this.mark.length) {
      const m = new Int32Array(Math.max(id + 1, this.mark.length * 2));
      m.set(this.mark);
      this.mark = m;
    }
    if (this.mark[id] !== 0) {
      // round a cycle back to a marked block: a phi breaks the cycle (its frame completes it)
      const f = this.frames[this.mark[id] - 1];
      const phi = h.newPhi(variable, block);
      f.phi = phi;
      h.setDef(variable, block, phi);
      if (h.trace !== null) h.trace.cycle(variable, block, phi);
      return phi;
    }
    if (!h.sealed(block)) {
      const phi = h.incomplete(variable, block);
      if (h.trace !== null) h.trace.incomplete(variable, block, phi);
      return phi;
    }
    const preds = h.preds(block);
    if (preds.length === 0) {
      const u = h.undef(variable);
      h.setDef(variable, block, u);
      if (h.trace !== null) h.trace.undef(variable, block);
      return u;
    }
    if (this.n === this.frames.length) this.frames.push(new MarkerFrame());
    const f = this.frames[this.n++];
    f.block = block;
    f.preds = preds;
    f.index = 0;
    f.vals = [];
    f.phi = null;
    this.mark[id] = this.n;
    if (h.trace !== null) h.trace.mark(variable, block, preds);
    return null;
  }

  /** The predecessors have answered: one value, or a phi merging theirs. */
  private finish(variable: number, f: MarkerFrame): Value {
    const h = this.host;
    const vals = f.vals.map((v) => h.resolve(v));
    if (f.phi !== null) {
      const phi = f.phi;
      for (let k = 0; k < vals.length; k++) phi.addIncoming(vals[k], f.preds[k]);
      if (h.trace !== null) h.trace.unmark(variable, f.block, vals, 'cycle-phi', phi);
      return h.complete(phi);
    }
    let same = true;
    for (let k = 1; k < vals.length; k++) {
      if (vals[k] !== vals[0]) {
        same = false;
        break;
      }
    }
    if (same) {
      if (h.trace !== null) h.trace.unmark(variable, f.block, vals, 'same', null);
      return vals[0];
    }
    const phi = h.newPhi(variable, f.block);
    for (let k = 0; k < vals.length; k++) phi.addIncoming(vals[k], f.preds[k]);
    if (h.trace !== null) h.trace.unmark(variable, f.block, vals, 'phi', phi);
    return h.complete(phi);
  }
}

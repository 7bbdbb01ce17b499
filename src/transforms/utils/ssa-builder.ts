/**
 * SSA construction while the CFG is being built, after Braun, Buchwald, Hack, Leißa, Mallon
 * and Zwinkau, "Simple and Efficient Construction of Static Single Assignment Form" (CC 2013),
 * Algorithms 1–4: local value numbering per block (`writeVariable`/`readVariable`), global
 * lookup through predecessors, incomplete phis in blocks whose predecessors are not all known
 * yet, completed when the block is sealed, and trivial-phi removal that re-examines the phis
 * using a removed one.
 *
 * ## API (for frontends)
 *
 *   const ssa = new SSABuilder(fn);
 *   const x = ssa.declareVariable(i32, 'x');        // variables are dense numbers with a type
 *   ssa.writeVariable(x, block, value);              // x := value at the current end of block
 *   const v = ssa.readVariable(x, block);            // the SSA value of x at the end of block
 *   ssa.sealBlock(block);                            // all predecessors of block are known
 *
 * The frontend creates blocks (appended to `fn`) and instructions with the IRBuilder; it must
 * finish a block's terminator before sealing its successors, and call `sealBlock(b)` once
 * every branch to `b` exists. Phis appear at the top of blocks as reads need them. A read in
 * a sealed block without predecessors (the entry, or unreachable code) with no definition
 * gives `undef`. Example: `while (i < n) i = i + 1;`
 *
 *   const b = new IRBuilder(entry); ssa.sealBlock(entry);
 *   ssa.writeVariable(i, entry, c32(0)); b.br(header);              // header not sealed yet:
 *   b.setInsertPoint(header);                                        // the back edge is missing
 *   const c = b.icmp(Pred.SLT, ssa.readVariable(i, header), n);     // incomplete phi for i
 *   b.condBr(c, body, exit); ssa.sealBlock(body); ssa.sealBlock(exit);
 *   b.setInsertPoint(body);
 *   ssa.writeVariable(i, body, b.add(ssa.readVariable(i, body), c32(1)));
 *   b.br(header); ssa.sealBlock(header);                             // now the phi gets operands
 *   b.setInsertPoint(exit); b.ret(ssa.readVariable(i, exit));        // the phi of header
 *
 * Options: `simplifyPhi` is called on every completed phi that is not trivial, and may return
 * a value to replace it with (on-the-fly folding, e.g. "phi(x, undef) is x", or equal
 * constants); `predecessors` supplies the CFG when it is not read from the IR (one entry per
 * edge); `sealAll` treats every block as sealed (the CFG is complete, as in SSA repair).
 *
 * Invariants: the definition table maps (variable, block) to the value of the variable at
 * the end of the block (or, for a block being filled, at the current point); a phi is
 * "pending" while it is incomplete or its operands are being read, and pending phis are
 * never judged trivial; a removed phi forwards to its replacement, so stale table entries
 * resolve on lookup. Lookups through chains of single-predecessor blocks and the operand
 * reads of phis use an explicit stack of frames, not recursion, so a million-block chain
 * cannot overflow the stack. Block and instruction ids are used as array indices: do not
 * call fn.renumber() while the builder is in use (it would also mix up which phis are the
 * builder's: those are the phis with ids above the function's bound when it was created).
 */
import { sortById, type BasicBlock } from '../../ir/basic-block.js';
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import type { Type } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import type { BraunTracer } from './ssa-builder-trace.js';
import { MarkerLookup } from './ssa-builder-marker.js';

export interface SSABuilderOptions {
  /** The predecessors of a block, one entry per CFG edge (default: read from the branches in the IR). */
  predecessors?: (block: BasicBlock) => readonly BasicBlock[];
  /** Every block counts as sealed: the CFG is complete (SSA repair). */
  sealAll?: boolean;
  /** Expected number of (variable, block) definitions, to size the table once (default small). */
  expectedDefinitions?: number;
  /**
   * On-the-fly simplification: called with a completed phi that is not trivial; return a value
   * to replace the phi with (it must dominate the phi's uses), or null to keep it.
   */
  simplifyPhi?: ((phi: Instruction, builder: SSABuilder) => Value | null) | null;
  /** Called for every phi the builder creates (e.g. to collect them). */
  onPhiCreated?: ((phi: Instruction, variable: number) => void) | null;
  /**
   * What a frontend knows from its structured control flow: `variable` has, at the top of
   * `block`, the value it has at the end of the returned block (which dominates `block`),
   * or null when nothing is known. The lookup then goes there instead of making a phi at
   * `block` — for a variable the `if` or loop that `block` ends or heads does not assign,
   * where the phi would be trivial (Brandis and Mössenböck, TOPLAS 1994).
   */
  shortcut?: ((block: BasicBlock, variable: number) => BasicBlock | null) | null;
  /** Receives every step of the construction (ssa-builder-trace.ts); null: no cost. */
  tracer?: BraunTracer | null;
  /** How a lookup crosses a join: 'phi-first' (Algorithm 2, a phi before the operands; default) or
   *  'marker' (§3.3, ssa-builder-marker.ts: a phi only where predecessors disagree or a cycle returns). */
  lookup?: 'phi-first' | 'marker';
}

export interface SSABuilderStats {
  phisCreated: number;
  /** Removed by Braun's rule (only itself and one other value as operands). */
  phisRemovedTrivial: number;
  /** Removed because `simplifyPhi` returned a value. */
  phisRemovedByHook: number;
}

/** A phi whose operands are being read (one predecessor after the other). */
class Frame {
  phi: Instruction = null as unknown as Instruction;
  variable = 0;
  block: BasicBlock = null as unknown as BasicBlock;
  preds: readonly BasicBlock[] = [];
  index = 0;
  /** chain[chainStart..chainEnd) are single-predecessor blocks that take this phi's final value. */
  chainStart = 0;
  chainEnd = 0;
  /** False for phis completed by sealBlock: their block's definition may have moved on. */
  writeBack = true;
}

const OURS = 1;
const PENDING = 2;

export class SSABuilder {
  readonly fn: Function;
  readonly stats: SSABuilderStats = { phisCreated: 0, phisRemovedTrivial: 0, phisRemovedByHook: 0 };
  private readonly types: Type[] = [];
  private readonly names: string[] = [];
  private readonly predsOpt: ((block: BasicBlock) => readonly BasicBlock[]) | null;
  private readonly sealAll: boolean;
  private readonly hook: ((phi: Instruction, builder: SSABuilder) => Value | null) | null;
  private readonly onPhiCreated: ((phi: Instruction, variable: number) => void) | null;
  private readonly shortcut: ((block: BasicBlock, variable: number) => BasicBlock | null) | null;
  private readonly tracer: BraunTracer | null;

  // definition table: open addressing on (variable, block id)
  private keyVar: Int32Array;
  private keyBlock: Int32Array;
  private vals: (Value | null)[];
  private mask: number;
  private used = 0;

  // per block id
  private sealed: Uint8Array;
  private predCache: (readonly BasicBlock[] | undefined)[] = [];
  private incHead: Int32Array;
  private visit: Int32Array;
  private visitEpoch = 0;
  // incomplete phis: linked lists per block
  private incVar: Int32Array = new Int32Array(16);
  private incNext: Int32Array = new Int32Array(16);
  private incPhi: Instruction[] = [];
  private incCount = 0;

  // per instruction id - idBase (only instructions created after the builder can be its phis)
  private flags: Uint8Array;
  private readonly idBase: number;
  private readonly forward = new Map<Instruction, Value>();

  // the explicit stacks
  private frames: Frame[] = [];
  private nFrames = 0;
  private chain: BasicBlock[] = [];
  private chainLen = 0;
  private readonly phiWork: Instruction[] = [];
  private readonly marker: MarkerLookup | null = null;

  constructor(fn: Function, opts: SSABuilderOptions = {}) {
    this.fn = fn;
    this.predsOpt = opts.predecessors ?? null;
    this.sealAll = opts.sealAll ?? false;
    this.hook = opts.simplifyPhi ?? null;
    this.onPhiCreated = opts.onPhiCreated ?? null;
    this.shortcut = opts.shortcut ?? null;
    this.tracer = opts.tracer ?? null;
    let cap = 64; // grows by rehashing; a small start keeps a builder per small function cheap
    const want = 2 * (opts.expectedDefinitions ?? 0);
    while (cap < want) cap *= 2;
    this.keyVar = new Int32Array(cap).fill(-1);
    this.keyBlock = new Int32Array(cap);
    this.vals = new Array(cap).fill(null);
    this.mask = cap - 1;
    // Per-block arrays grow to the highest block id used, per-phi flags start at the ids the
    // function had when the builder was made: a short-lived builder (one SSA repair in a big
    // function) allocates little.
    const nb = this.sealAll ? 16 : Math.max(16, fn.blockIdBound);
    this.sealed = new Uint8Array(nb);
    this.incHead = new Int32Array(nb).fill(-1);
    this.visit = new Int32Array(nb);
    this.idBase = fn.instIdBound;
    this.flags = new Uint8Array(16);
    if (opts.lookup === 'marker') {
      const incomplete = (v: number, b: BasicBlock): Instruction => this.addIncomplete(b.id, v, this.newPhi(v, b), true);
      this.marker = new MarkerLookup({
        def: (v, b) => this.lookup(v, this.blockId(b)), setDef: (v, b, val) => this.setDef(v, b.id, val), sealed: (b) => this.isSealed(b), preds: (b) => this.predsOf(b), incomplete,
        newPhi: (v, b) => this.newPhi(v, b), complete: (phi) => this.completePhi(phi), undef: (v) => UndefValue.get(this.types[v]), resolve: (v) => this.resolve(v),
        operand: this.tracer === null ? null : (phi, v, p) => this.tracer!.operand(this, phi, v, p), trace: this.tracer === null ? null : this.tracer.markerTrace(this),
      });
    }
  }

  // ---- the API ------------------------------------------------------------------------------

  /** A new variable of `type`; returns its number (0, 1, 2, …). `name` names its phis. */
  declareVariable(type: Type, name = ''): number {
    this.types.push(type);
    this.names.push(name);
    return this.types.length - 1;
  }

  get numVariables(): number {
    return this.types.length;
  }

  variableType(variable: number): Type {
    return this.types[variable];
  }

  /** The name given to `declareVariable` (`v<number>` when none). */
  variableName(variable: number): string {
    return this.names[variable] || `v${variable}`;
  }

  /** Records that `variable` holds `value` at the (current) end of `block`. */
  writeVariable(variable: number, block: BasicBlock, value: Value): void {
    this.checkVariable(variable);
    if (this.tracer !== null) this.tracer.write(this, variable, block, value);
    this.setDef(variable, this.blockId(block), value);
  }

  /** The SSA value of `variable` at the (current) end of `block`, creating phis as needed. */
  readVariable(variable: number, block: BasicBlock): Value {
    this.checkVariable(variable);
    const d = this.lookup(variable, this.blockId(block));
    if (this.tracer !== null) this.tracer.read(this, variable, block, d === null ? null : this.resolve(d));
    if (d !== null) return d;
    const r = this.marker !== null ? this.marker.read(variable, block) : this.drive(this.nFrames, this.descend(variable, block));
    if (this.tracer !== null) this.tracer.readDone(this, variable, block, r);
    return r;
  }

  /** Declares that every predecessor of `block` is known; completes its incomplete phis. */
  sealBlock(block: BasicBlock): void {
    const id = this.blockId(block);
    if (this.sealed[id]) return;
    this.sealed[id] = 1;
    this.predCache[id] = undefined;
    let e = this.incHead[id];
    this.incHead[id] = -1;
    if (e < 0) {
      if (this.tracer !== null) this.tracer.seal(this, block, [], this.predsOf(block));
      return;
    }
    const preds = this.predsOf(block);
    // the list is newest first; complete in creation order for readable output
    const pending: number[] = [];
    for (; e >= 0; e = this.incNext[e]) pending.push(e);
    if (this.tracer !== null) this.tracer.seal(this, block, pending.map((en) => this.incPhi[en]).reverse(), preds);
    for (let k = pending.length - 1; k >= 0; k--) {
      const en = pending[k];
      const phi = this.incPhi[en];
      this.incPhi[en] = null as unknown as Instruction;
      if (this.marker !== null) {
        this.marker.completeIncomplete(phi, this.incVar[en], preds);
        continue;
      }
      this.pushFrame(phi, this.incVar[en], block, preds, this.chainLen, false);
      this.drive(this.nFrames - 1, null);
    }
  }

  isSealed(block: BasicBlock): boolean {
    if (this.sealAll) return true;
    const id = block.id;
    return id >= 0 && id < this.sealed.length && this.sealed[id] === 1;
  }

  /**
   * Braun's Algorithm 3 without recursion: if `phi` merges only itself and one value (or
   * nothing: undef), replace it, then re-examine the phis that used it. Returns what `phi`
   * stands for now.
   */
  tryRemoveTrivialPhi(phi: Instruction): Value {
    const work = this.phiWork;
    const base = work.length;
    work.push(phi);
    while (work.length > base) {
      const p = work.pop()!;
      if (p.parent === null) continue;
      const fl = this.flagOf(p);
      if ((fl & OURS) === 0 || (fl & PENDING) !== 0) continue;
      let same: Value | null = null;
      let trivial = true;
      const ops = p.ops;
      for (let k = 0; k < ops.length; k++) {
        const v = ops[k].value;
        if (v === same || v === p) continue;
        if (same !== null) {
          trivial = false;
          break;
        }
        same = v;
      }
      let byHook = false;
      if (!trivial) {
        const r = this.hook === null ? null : this.hook(p, this);
        if (r === null || r === p) {
          if (this.tracer !== null) this.tracer.notTrivial(this, p);
          continue;
        }
        same = r;
        byHook = true;
      }
      if (same === null) same = UndefValue.get(p.type);
      if (this.tracer !== null) this.tracer.trivial(this, p, same, byHook);
      for (let u = p.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user !== p && user.kind === ValueKind.Instruction && user.op === Opcode.Phi) work.push(user);
      }
      p.replaceAllUsesWith(same);
      this.forward.set(p, same);
      p.eraseFromParent();
      if (byHook) this.stats.phisRemovedByHook++;
      else this.stats.phisRemovedTrivial++;
    }
    return this.resolve(phi);
  }

  /** What `v` stands for now: a phi the builder removed forwards to its replacement. */
  resolve(v: Value): Value {
    while (v.kind === ValueKind.Instruction && (v as Instruction).parent === null) {
      const f = this.forward.get(v as Instruction);
      if (f === undefined) break;
      v = f;
    }
    return v;
  }

  /** Whether the builder created `phi` (and it is still in the function). */
  isBuilderPhi(phi: Instruction): boolean {
    return phi.parent !== null && (this.flagOf(phi) & OURS) !== 0;
  }

  /** Blocks of `fn` that are not sealed yet (a frontend should have none left at the end). */
  unsealedBlocks(): BasicBlock[] {
    const out: BasicBlock[] = [];
    if (this.sealAll) return out;
    for (let b = this.fn.firstBlock; b !== null; b = b.next) if (!this.isSealed(b)) out.push(b);
    return out;
  }

  /**
   * Creates a phi for `variable` at the top of `block`, marked pending (the caller fills it
   * and then calls `completePhi`). For clients such as SSA repair that place phis themselves.
   */
  createPendingPhi(variable: number, block: BasicBlock): Instruction {
    return this.newPhi(variable, block);
  }

  /** The predecessors the builder sees for `block`, one entry per edge (edges from one block adjacent). */
  predecessorsOf(block: BasicBlock): readonly BasicBlock[] {
    this.blockId(block);
    return this.predsOf(block);
  }

  /** Ends the pending state of a phi made by `createPendingPhi` and tries to remove it. */
  completePhi(phi: Instruction): Value {
    this.setFlag(phi, this.flagOf(phi) & ~PENDING);
    return this.tryRemoveTrivialPhi(phi);
  }

  // ---- the lookup engine ----------------------------------------------------------------------

  /**
   * Walks up from `block` through sealed single-predecessor blocks (and the frontend's
   * shortcuts) until a definition, an unsealed block (incomplete phi), a block without
   * predecessors (undef) or a join (a phi whose operands the caller's `drive` loop reads:
   * returns null after pushing its frame).
   */
  private descend(variable: number, block: BasicBlock): Value | null {
    const chainStart = this.chainLen;
    const epoch = ++this.visitEpoch;
    let blk = block;
    let r: Value;
    for (;;) {
      const id = this.blockId(blk);
      const d = this.lookup(variable, id);
      if (d !== null) {
        r = d;
        if (this.tracer !== null && blk !== block) this.tracer.found(this, variable, blk, this.resolve(d));
        break;
      }
      if (this.shortcut !== null && this.visit[id] !== epoch) {
        const s = this.shortcut(blk, variable);
        if (s !== null) {
          this.visit[id] = epoch;
          this.pushChain(blk);
          blk = s;
          continue;
        }
      }
      if (!this.sealAll && !this.sealed[id]) {
        const phi = this.newPhi(variable, blk);
        this.addIncomplete(id, variable, phi);
        this.setDef(variable, id, phi);
        r = phi;
        if (this.tracer !== null) this.tracer.incomplete(this, variable, blk, phi);
        break;
      }
      const preds = this.predsOf(blk);
      if (preds.length === 0) {
        r = UndefValue.get(this.types[variable]);
        this.setDef(variable, id, r);
        if (this.tracer !== null) this.tracer.undef(this, variable, blk);
        break;
      }
      let single = true;
      const p0 = preds[0];
      for (let k = 1; k < preds.length; k++) {
        if (preds[k] !== p0) {
          single = false;
          break;
        }
      }
      if (single && this.visit[id] !== epoch) {
        this.visit[id] = epoch;
        if (this.tracer !== null) this.tracer.single(this, variable, blk, p0);
        this.pushChain(blk);
        blk = p0;
        continue;
      }
      // a join (or a cycle of single-predecessor blocks, broken here): phi first, operands next
      const phi = this.newPhi(variable, blk);
      this.setDef(variable, id, phi);
      if (this.tracer !== null) this.tracer.join(this, variable, blk, phi, preds);
      this.pushFrame(phi, variable, blk, preds, chainStart, true);
      return null;
    }
    for (let k = chainStart; k < this.chainLen; k++) this.setDef(variable, this.chain[k].id, r);
    this.chainLen = chainStart;
    return r;
  }

  /** Runs frames above `base` to completion; `r` is the value just found (or null). */
  private drive(base: number, r: Value | null): Value {
    for (;;) {
      if (this.nFrames === base) return r!;
      const f = this.frames[this.nFrames - 1];
      if (r !== null) {
        if (this.tracer !== null) this.tracer.operand(this, f.phi, this.resolve(r), f.preds[f.index]);
        f.phi.addIncoming(r, f.preds[f.index]);
        f.index++;
        r = null;
      }
      if (f.index < f.preds.length) {
        const p = f.preds[f.index];
        // a second edge from the same block carries the same value
        if (f.index > 0 && f.preds[f.index - 1] === p) r = f.phi.ops[f.phi.ops.length - 1].value;
        else r = this.descend(f.variable, p);
        continue;
      }
      this.nFrames--;
      const phi = f.phi;
      this.setFlag(phi, this.flagOf(phi) & ~PENDING);
      r = this.tryRemoveTrivialPhi(phi);
      if (f.writeBack) {
        for (let k = f.chainStart; k < f.chainEnd; k++) this.setDef(f.variable, this.chain[k].id, r);
        this.setDef(f.variable, f.block.id, r);
        this.chainLen = f.chainStart;
      }
    }
  }

  private pushFrame(phi: Instruction, variable: number, block: BasicBlock, preds: readonly BasicBlock[], chainStart: number, writeBack: boolean): Frame {
    if (this.nFrames === this.frames.length) this.frames.push(new Frame());
    const f = this.frames[this.nFrames++];
    f.phi = phi;
    f.variable = variable;
    f.block = block;
    f.preds = preds;
    f.index = 0;
    f.chainStart = chainStart;
    f.chainEnd = this.chainLen;
    f.writeBack = writeBack;
    return f;
  }

  private pushChain(b: BasicBlock): void {
    if (this.chainLen === this.chain.length) this.chain.push(b);
    else this.chain[this.chainLen] = b;
    this.chainLen++;
  }

  private newPhi(variable: number, block: BasicBlock): Instruction {
    const phi = new Instruction(Opcode.Phi, this.types[variable], []);
    phi.blocks = [];
    const name = this.names[variable];
    if (name !== '') phi.name = name;
    block.prepend(phi);
    this.setFlag(phi, OURS | PENDING);
    this.stats.phisCreated++;
    if (this.onPhiCreated !== null) this.onPhiCreated(phi, variable);
    return phi;
  }

  /** Records incomplete `phi` of `block`; with `define`, also as the variable's definition there. */
  private addIncomplete(blockId: number, variable: number, phi: Instruction, define = false): Instruction {
    if (define) this.setDef(variable, blockId, phi);
    const e = this.incCount++;
    if (e === this.incVar.length) {
      const v2 = new Int32Array(e * 2);
      v2.set(this.incVar);
      this.incVar = v2;
      const n2 = new Int32Array(e * 2);
      n2.set(this.incNext);
      this.incNext = n2;
    }
    this.incVar[e] = variable;
    this.incPhi[e] = phi;
    this.incNext[e] = this.incHead[blockId];
    this.incHead[blockId] = e;
    return phi;
  }

  private predsOf(block: BasicBlock): readonly BasicBlock[] {
    const id = block.id;
    const c = this.predCache[id];
    if (c !== undefined) return c;
    let preds: readonly BasicBlock[];
    if (this.predsOpt !== null) preds = this.predsOpt(block);
    else {
      const out: BasicBlock[] = [];
      for (let u = block.firstUse; u !== null; u = u.next) {
        const user = u.user as Instruction;
        if (user.kind !== ValueKind.Instruction || !user.isTerminator()) continue;
        const pb = user.parent;
        if (pb !== null && pb.parent === this.fn) out.push(pb);
      }
      // group edges from the same block together (the drive loop reuses the value)
      if (out.length > 1) sortById(out);
      preds = out;
    }
    if (this.sealAll || this.sealed[id]) this.predCache[id] = preds;
    return preds;
  }

  // ---- the definition table -------------------------------------------------------------------

  private lookup(variable: number, blockId: number): Value | null {
    const mask = this.mask;
    let h = hash(variable, blockId) & mask;
    const kv = this.keyVar;
    const kb = this.keyBlock;
    for (;;) {
      const k = kv[h];
      if (k === -1) return null;
      if (k === variable && kb[h] === blockId) {
        const v = this.vals[h]!;
        if (v.kind === ValueKind.Instruction && (v as Instruction).parent === null && this.forward.has(v as Instruction)) {
          const r = this.resolve(v);
          this.vals[h] = r;
          return r;
        }
        return v;
      }
      h = (h + 1) & mask;
    }
  }

  private setDef(variable: number, blockId: number, value: Value): void {
    if ((this.used + 1) * 2 > this.mask + 1) this.rehash();
    const mask = this.mask;
    let h = hash(variable, blockId) & mask;
    const kv = this.keyVar;
    const kb = this.keyBlock;
    for (;;) {
      const k = kv[h];
      if (k === -1) {
        kv[h] = variable;
        kb[h] = blockId;
        this.vals[h] = value;
        this.used++;
        return;
      }
      if (k === variable && kb[h] === blockId) {
        this.vals[h] = value;
        return;
      }
      h = (h + 1) & mask;
    }
  }

  private rehash(): void {
    const oldV = this.keyVar;
    const oldB = this.keyBlock;
    const oldVals = this.vals;
    const cap = (this.mask + 1) * 2;
    this.keyVar = new Int32Array(cap).fill(-1);
    this.keyBlock = new Int32Array(cap);
    this.vals = new Array(cap).fill(null);
    this.mask = cap - 1;
    this.used = 0;
    for (let i = 0; i < oldV.length; i++) if (oldV[i] !== -1) this.setDef(oldV[i], oldB[i], oldVals[i]!);
  }

  // ---- ids ------------------------------------------------------------------------------------

  private blockId(block: BasicBlock): number {
    const id = block.id;
    if (block.parent !== this.fn || id < 0) throw new Error('SSABuilder: the block is not in the builder\'s function (append it to the function first)');
    if (id >= this.sealed.length) this.growBlocks(id + 1);
    return id;
  }

  private growBlocks(need: number): void {
    const cap = Math.max(need, this.sealed.length * 2);
    const s = new Uint8Array(cap);
    s.set(this.sealed);
    this.sealed = s;
    const h = new Int32Array(cap).fill(-1);
    h.set(this.incHead);
    this.incHead = h;
    const v = new Int32Array(cap);
    v.set(this.visit);
    this.visit = v;
  }

  private flagOf(i: Instruction): number {
    const id = i.id - this.idBase;
    return id >= 0 && id < this.flags.length ? this.flags[id] : 0;
  }

  private setFlag(i: Instruction, f: number): void {
    const id = i.id - this.idBase;
    if (id < 0) return;
    if (id >= this.flags.length) {
      const g = new Uint8Array(Math.max(id + 1, this.flags.length * 2));
      g.set(this.flags);
      this.flags = g;
    }
    this.flags[id] = f;
  }

  private checkVariable(variable: number): void {
    if (!(variable >= 0 && variable < this.types.length)) throw new RangeError(`SSABuilder: unknown variable ${variable} (declare it with declareVariable)`);
  }
}

/** Mixes (variable, block) so that the low bits the table uses depend on all input bits. */
function hash(variable: number, blockId: number): number {
  let h = (Math.imul(variable, 0x9e3779b1) + Math.imul(blockId + 1, 0x85ebca77)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

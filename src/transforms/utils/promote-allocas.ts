/**
 * The promotion of mem2reg: allocas to SSA registers by the algorithm of Cytron, Ferrante, Rosen,
 * Wegman and Zadeck ("Efficiently Computing Static Single Assignment Form and the Control
 * Dependence Graph", TOPLAS 1991), with the refinements of LLVM's PromoteMemoryToRegister:
 *
 *  - promotable = an entry-block alloca only loaded and stored (same type, not volatile, its
 *    address never stored), plus lifetime markers (LLVM's isAllocaPromotable);
 *  - fast paths: an alloca stored once (loads it dominates take the stored value), one used
 *    in a single block (a linear sweep), one never stored (every load reads undef);
 *  - phis at the iterated dominance frontier of the storing blocks, pruned by liveness
 *    (a block gets a phi only if the variable is live on entry to it: no dead phis), by
 *    Cytron's worklist over the frontiers — LLVM walks dominator subtrees instead, which
 *    costs a whole subtree per variable and is quadratic on long functions;
 *  - renaming along the dominator tree with an explicit stack and an undo log (no
 *    recursion); a load before any store reads `undef`;
 *  - finally LLVM's clean-up: a new phi that merges one value with itself and undef becomes
 *    that value when the value dominates the phi (iterated), which is why a variable that
 *    is uninitialised on some path usually needs no phi.
 *
 * Invariants: the CFG is never changed (the dominator tree stays valid); each variable's
 * renaming stack is the undo log restricted to it, so at block b, `cur[v]` is the reaching
 * definition of v at the point being renamed; only phis created here are filled or
 * simplified. Accesses in unreachable blocks are dropped (loads read undef), as LLVM leaves
 * them dead.
 *
 * Hot paths index typed arrays by instruction id (`varOf`) and block id (marks); no Maps.
 * The arrays are shared by all promotions and only grow (see PromoteScratch).
 *
 * The result has as many phis as opt-19 -passes=mem2reg in every function of the test
 * programs (test/ssa/corpus-*.test.ts, bench/mem2reg-phis.ts).
 */
import type { CFG } from '../../analysis/cfg.js';
import type { DominatorTree } from '../../analysis/dominators.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import { PoisonValue, UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import { Argument, Value, ValueKind } from '../../ir/value.js';
import { functionSlots, type FunctionSlots } from '../../text/slots.js';
import { IDFCalculator, type Frontiers } from '../../analysis/idf.js';
import { grow, growU8, renameAlongDominatorTree, scratch } from './promote-rename.js';
import { simplifyPhisLikeLLVM } from './phi-simplify.js';
import { addPoisonForUnreachablePredecessors, deleteAccess, emptyPromoteStats, removeIntrinsicUsers, type PromoteStats } from './promote-memory.js';

export interface PromoteOptions {
  /**
   * LLVM's clean-up of new phis that merge one value with undef (default true). Off, the
   * result is plain pruned Cytron SSA (what the Braun comparison uses).
   */
  simplifyPhis?: boolean;
  /** Receives a step-by-step explanation (the `--trace=mem2reg` teaching view). */
  trace?: ((line: string) => void) | null;
}

/**
 * Whether `v` can never be poison, judged without context (LLVM's isGuaranteedNotToBePoison
 * for constants and arguments). A single store of such a value may serve loads it does not
 * dominate, since those read uninitialised memory anyway.
 */
function guaranteedNotPoison(v: Value): boolean {
  switch (v.kind) {
    case ValueKind.Argument:
      return /\b(noundef|dereferenceable|dereferenceable_or_null)\b/.test((v as Argument).attrs);
    case ValueKind.ConstantInt:
    case ValueKind.ConstantFP:
    case ValueKind.ConstantNull:
    case ValueKind.GlobalVariable:
    case ValueKind.Function:
    case ValueKind.Undef:
      return true;
    case ValueKind.ConstantZero:
      return v.type.kind === TypeKind.Vector;
    default:
      return false;
  }
}

// ---- the promotion ---------------------------------------------------------------------------

/**
 * Promotes `allocas` (each promotable, in `fn`'s entry block) using `dt`, the dominator tree
 * of `fn`. Adds to `stats`; returns the phis that remain. The phases, as LLVM's
 * PromoteMem2Reg::run: dead allocas go (`removeDeadAllocas`); one scan collects every
 * variable's accesses (`collectAccesses`); each variable then takes a fast path
 * (`promoteNeverStoredAlloca`, `rewriteSingleStoreAlloca`, `promoteSingleBlockAlloca`) or
 * gets phis at the live-in part of its iterated dominance frontier (`computeLiveInBlocks`,
 * `placePhis`); the general ones are renamed together along the dominator tree, and the new
 * phis cleaned up (`finish`).
 */
export function promoteAllocas(fn: Function, dt: DominatorTree, allocas: readonly Instruction[], opts: PromoteOptions = {}, stats: PromoteStats = emptyPromoteStats()): Instruction[] {
  const cfg = dt.cfg;
  if (cfg === null || cfg.fn !== fn) throw new Error('promoteAllocas: the dominator tree is not of this function');
  const p = new AllocaPromotion(fn, dt, cfg, opts, stats);
  if (!p.removeDeadAllocas(allocas)) return [];
  p.collectAccesses();
  p.markBase = scratch.takeMarks(p.V + 1, cfg.n);
  for (let v = 0; v < p.V; v++) p.promoteVariable(v);
  return p.finish();
}

/** One run of promoteAllocas: its variables, their accesses (in `scratch`) and its trace. */
class AllocaPromotion {
  readonly trace: ((line: string) => void) | null;
  private readonly slots: FunctionSlots | null;
  /** The allocas with uses, by variable number. */
  live: Instruction[] = [];
  V = 0;
  /** Their ids (erasing an instruction resets its id: kept to clean `varOf` at the end). */
  private liveIds = new Int32Array(0);
  private names: string[] = [];
  private phiOwner: Map<Instruction, string> | null = null;
  private nAcc = 0;
  /** fn.instIdBound when the accesses were collected (ids below it index `varOf`). */
  private idBound = 0;
  markBase = 0;
  private idf: IDFCalculator | null = null;
  private frontiers: Frontiers | null = null;
  private nGeneral = 0;
  private readonly newPhis: Instruction[] = [];
  private readonly newPhiVar: number[] = [];
  private readonly firstNewId: number;

  constructor(
    readonly fn: Function,
    readonly dt: DominatorTree,
    readonly cfg: CFG,
    readonly opts: PromoteOptions,
    readonly stats: PromoteStats,
  ) {
    this.trace = opts.trace ?? null;
    this.slots = this.trace !== null ? functionSlots(fn) : null;
    this.firstNewId = fn.instIdBound;
  }

  bname(b: BasicBlock): string {
    return '%' + (this.slots!.nameOf(b) ?? '?');
  }

  vname(v: Value): string {
    if (v.kind === ValueKind.Undef) return 'undef';
    const s = this.slots!.nameOf(v);
    if (s !== undefined) return '%' + s;
    if (v.kind === ValueKind.ConstantInt) return String((v as unknown as { value: bigint }).value);
    return v.kind === ValueKind.Instruction ? `(new ${(v as Instruction).opcodeName})` : '(value)';
  }

  /** Phase 0: lifetime markers go; allocas without uses are dead. False when none is left. */
  removeDeadAllocas(allocas: readonly Instruction[]): boolean {
    const { trace, stats, live } = this;
    for (const ai of allocas) {
      removeIntrinsicUsers(ai);
      if (ai.firstUse === null) {
        if (trace !== null) trace(`${this.vname(ai)}: no loads or stores: deleted`);
        ai.eraseFromParent();
        stats.deadAllocas++;
        stats.allocasPromoted++;
      } else live.push(ai);
    }
    this.V = live.length;
    return this.V > 0;
  }

  /**
   * Phase 1: one scan in layout order: each variable's accesses in program order, its
   * stores, and for each block it touches whether the first access there is a load
   * (live-in seed). Accesses in unreachable blocks are dropped.
   */
  collectAccesses(): void {
    const { fn, live, V } = this;
    const S = scratch;
    const depth = this.dt.depth;
    const idBound = (this.idBound = fn.instIdBound);
    if (S.varOf.length < idBound) {
      const g = new Int32Array(Math.max(idBound, S.varOf.length * 2)).fill(-1);
      S.varOf = g;
    }
    const varOf = S.varOf;
    let totalUses = 0;
    this.liveIds = new Int32Array(V);
    for (let v = 0; v < V; v++) {
      this.liveIds[v] = live[v].id;
      varOf[live[v].id] = v;
      totalUses += live[v].numUses;
    }
    if (this.trace !== null) {
      this.names = live.map((a) => this.vname(a));
      this.phiOwner = new Map<Instruction, string>();
    }
    const accInst = S.accInst;
    const accBlock = (S.accBlock = grow(S.accBlock, totalUses));
    const accPos = (S.accPos = grow(S.accPos, totalUses));
    const accNext = (S.accNext = grow(S.accNext, totalUses));
    const accStore = (S.accStore = growU8(S.accStore, totalUses));
    const head = (S.head = grow(S.head, V));
    const tail = (S.tail = grow(S.tail, V));
    const nStores = (S.nStores = grow(S.nStores, V));
    const onlyStore = (S.onlyStore = grow(S.onlyStore, V));
    const nBlocks = (S.nBlocks = grow(S.nBlocks, V));
    const lastBlock = (S.lastBlock = grow(S.lastBlock, V));
    const general = (S.general = growU8(S.general, V));
    // (variable, block) entries: flags bit 1 = first access a load, bit 2 = has a store
    const entBlock = (S.entBlock = grow(S.entBlock, totalUses));
    const entFlags = (S.entFlags = growU8(S.entFlags, totalUses));
    const entNext = (S.entNext = grow(S.entNext, totalUses));
    const entHead = (S.entHead = grow(S.entHead, V));
    const curEnt = (S.curEnt = grow(S.curEnt, V));
    head.fill(-1, 0, V);
    tail.fill(-1, 0, V);
    nStores.fill(0, 0, V);
    onlyStore.fill(-1, 0, V);
    nBlocks.fill(0, 0, V);
    lastBlock.fill(-1, 0, V);
    entHead.fill(-1, 0, V);
    curEnt.fill(-1, 0, V);
    general.fill(0, 0, V);
    let nAcc = 0;
    let nEnt = 0;
    let droppedUnreachable = 0;
    for (let bb = fn.firstBlock; bb !== null; bb = bb.next) {
      const b = bb.id;
      const reachable = depth[b] >= 0;
      let pos = 0;
      for (let i = bb.first; i !== null; ) {
        const next: Instruction | null = i.next;
        pos++;
        const op = i.op;
        if (op === Opcode.Load || op === Opcode.Store) {
          const p = op === Opcode.Load ? i.ops[0].value : i.ops[1].value;
          if (p.kind === ValueKind.Instruction) {
            const pid = (p as Instruction).id;
            const v = pid >= 0 && pid < idBound ? varOf[pid] : -1;
            if (v >= 0 && live[v] === p) {
              if (!reachable) {
                if (op === Opcode.Load) i.replaceAllUsesWith(UndefValue.get(i.type));
                i.eraseFromParent();
                droppedUnreachable++;
                i = next;
                continue;
              }
              const k = nAcc++;
              accInst[k] = i;
              accBlock[k] = b;
              accPos[k] = pos;
              accNext[k] = -1;
              accStore[k] = 0;
              if (tail[v] >= 0) accNext[tail[v]] = k;
              else head[v] = k;
              tail[v] = k;
              const isStore = op === Opcode.Store;
              if (lastBlock[v] !== b) {
                lastBlock[v] = b;
                nBlocks[v]++;
                const e = nEnt++;
                entBlock[e] = b;
                entNext[e] = -1;
                entFlags[e] = isStore ? 2 : 1;
                entNext[e] = entHead[v];
                entHead[v] = e;
                curEnt[v] = e;
              } else if (isStore) entFlags[curEnt[v]] |= 2;
              if (isStore) {
                accStore[k] = 1;
                nStores[v]++;
                onlyStore[v] = k;
              }
            }
          }
        }
        i = next;
      }
    }
    this.nAcc = nAcc;
    if (this.trace !== null && droppedUnreachable > 0) this.trace(`dropped ${droppedUnreachable} load(s)/store(s) in unreachable blocks`);
  }

  /** Phase 2, for variable v: a fast path, or phis by the live-in part of the IDF. */
  promoteVariable(v: number): void {
    const S = scratch;
    const ai = this.live[v];
    const { stats, trace } = this;
    if (S.head[v] < 0) {
      if (trace !== null) trace(`${this.names[v]}: only used in unreachable code: deleted`);
      ai.eraseFromParent();
      stats.deadAllocas++;
      stats.allocasPromoted++;
      return;
    }
    if (S.nStores[v] === 0) return this.promoteNeverStoredAlloca(v);
    let remainingFromSingleStore = false;
    if (S.nStores[v] === 1) {
      if (this.rewriteSingleStoreAlloca(v)) return;
      remainingFromSingleStore = true;
    } else if (S.nBlocks[v] === 1 && !(S.accStore[S.head[v]] === 0)) {
      return this.promoteSingleBlockAlloca(v);
    }
    const nDefs = this.computeLiveInBlocks(v, remainingFromSingleStore);
    this.placePhis(v, nDefs, remainingFromSingleStore);
  }

  /** Never stored: every load reads undef. */
  private promoteNeverStoredAlloca(v: number): void {
    const { accInst, accNext, head } = scratch;
    const ai = this.live[v];
    const u = UndefValue.get(ai.auxType!);
    for (let k = head[v]; k >= 0; k = accNext[k]) {
      const ld = accInst[k]!;
      ld.replaceAllUsesWith(u);
      deleteAccess(ld);
    }
    ai.eraseFromParent();
    this.stats.neverStored++;
    this.stats.allocasPromoted++;
    if (this.trace !== null) this.trace(`${this.names[v]}: never stored: every load reads undef`);
  }

  /**
   * Stored once (LLVM's rewriteSingleStoreAlloca): every load the store dominates takes the
   * stored value (a value that can never be poison serves every load). True when no load is
   * left; otherwise the rest go through phi placement.
   */
  private rewriteSingleStoreAlloca(v: number): boolean {
    const { accInst, accNext, accStore, accBlock, accPos, head, onlyStore } = scratch;
    const { dt, cfg, stats, trace } = this;
    const ai = this.live[v];
    const type = ai.auxType!;
    const ks = onlyStore[v];
    const st = accInst[ks]!;
    const val = st.ops[0].value;
    const sb = accBlock[ks];
    const requireDom = val.kind === ValueKind.Instruction || !guaranteedNotPoison(val);
    let remaining = 0;
    for (let k = head[v]; k >= 0; k = accNext[k]) {
      if (accStore[k]) continue;
      const lb = accBlock[k];
      if (requireDom) {
        if (lb === sb ? accPos[k] < accPos[ks] : !dt.dominates(sb, lb)) {
          remaining++;
          continue;
        }
      }
      const ld = accInst[k]!;
      ld.replaceAllUsesWith(val === ld ? PoisonValue.get(type) : val);
      deleteAccess(ld);
      accInst[k] = null;
    }
    if (remaining === 0) {
      deleteAccess(st);
      ai.eraseFromParent();
      stats.singleStore++;
      stats.allocasPromoted++;
      if (trace !== null) trace(`${this.names[v]}: stored once (${this.vname(val)} in ${this.bname(cfg.blocks[sb]!)}): every load takes the stored value`);
      return true;
    }
    if (trace !== null) trace(`${this.names[v]}: stored once in ${this.bname(cfg.blocks[sb]!)}, but ${remaining} load(s) are not dominated by the store: phis by the iterated dominance frontier`);
    return false;
  }

  /** Used in one block, first access a store (LLVM's promoteSingleBlockAlloca): a linear sweep. */
  private promoteSingleBlockAlloca(v: number): void {
    const { accInst, accNext, accStore, accBlock, head } = scratch;
    const ai = this.live[v];
    const type = ai.auxType!;
    let cur: Value = UndefValue.get(type);
    for (let k = head[v]; k >= 0; k = accNext[k]) {
      const i = accInst[k]!;
      if (accStore[k]) cur = i.ops[0].value;
      else i.replaceAllUsesWith(cur === i ? PoisonValue.get(type) : cur);
      deleteAccess(i);
    }
    ai.eraseFromParent();
    this.stats.singleBlock++;
    this.stats.allocasPromoted++;
    if (this.trace !== null) this.trace(`${this.names[v]}: only used in ${this.bname(this.cfg.blocks[accBlock[head[v]]]!)}: each load takes the nearest store above it`);
  }

  /**
   * The general case (LLVM's ComputeLiveInBlocks): marks variable v's defining blocks in
   * `defMark` (listed in `scratch.defs`) and its live-in blocks in `liveMark`: from the
   * blocks whose first access is a load, backwards, stopping at definitions. Returns the
   * number of defining blocks.
   */
  private computeLiveInBlocks(v: number, remainingFromSingleStore: boolean): number {
    const S = scratch;
    const { accStore, accInst, accNext, accBlock, head, onlyStore, entHead, entNext, entBlock, entFlags, defMark, liveMark } = S;
    const { predOff, pred } = this.cfg;
    const mark = this.markBase + v + 1;
    let defs = S.defs;
    let work = S.work;
    let nDefs = 0;
    let sp = 0;
    if (remainingFromSingleStore) {
      const sb = accBlock[onlyStore[v]];
      defMark[sb] = mark;
      defs = grow(defs, 1);
      defs[nDefs++] = sb;
      for (let k = head[v]; k >= 0; k = accNext[k]) {
        if (accStore[k] || accInst[k] === null) continue;
        work = grow(work, sp + 1);
        work[sp++] = accBlock[k];
      }
    } else {
      for (let e = entHead[v]; e >= 0; e = entNext[e]) {
        const b = entBlock[e];
        if (entFlags[e] & 2) {
          defMark[b] = mark;
          defs = grow(defs, nDefs + 1);
          defs[nDefs++] = b;
        }
      }
      for (let e = entHead[v]; e >= 0; e = entNext[e]) {
        if (entFlags[e] & 1) {
          work = grow(work, sp + 1);
          work[sp++] = entBlock[e];
        }
      }
    }
    if (this.trace !== null) this.seeds = Array.from(work.subarray(0, sp));
    while (sp > 0) {
      const b = work[--sp];
      if (liveMark[b] === mark) continue;
      liveMark[b] = mark;
      for (let j = predOff[b], e = predOff[b + 1]; j < e; j++) {
        const p = pred[j];
        if (defMark[p] === mark || liveMark[p] === mark) continue;
        work = grow(work, sp + 1);
        work[sp++] = p;
      }
    }
    S.defs = defs;
    S.work = work;
    return nDefs;
  }

  /** For the trace: the blocks whose first access is a load (computeLiveInBlocks' seeds). */
  private seeds: number[] = [];

  /** Phis for variable v at the IDF of its defining blocks, where v is live-in (pruned SSA). */
  private placePhis(v: number, nDefs: number, remainingFromSingleStore: boolean): void {
    const S = scratch;
    const { cfg, dt, stats, trace } = this;
    const { defs, liveMark } = S;
    const layoutIndex = cfg.layoutIndex;
    const mark = this.markBase + v + 1;
    const ai = this.live[v];
    if (this.idf === null) {
      if (S.idf === null) S.idf = new IDFCalculator(dt);
      else S.idf.retarget(dt);
      this.idf = S.idf;
      this.frontiers = this.idf.frontiers();
    }
    const idf = this.idf;
    const m = idf.calculateFromFrontiers(this.frontiers!, defs, nDefs, liveMark, mark);
    const phiBlocks = idf.result.slice(0, m);
    phiBlocks.sort((a, b) => layoutIndex[a] - layoutIndex[b]);
    if (trace !== null) {
      const nm = (ids: ArrayLike<number>): string =>
        `{${Array.from(ids)
          .sort((a, b) => layoutIndex[a] - layoutIndex[b])
          .map((b) => this.bname(cfg.blocks[b]!))
          .join(', ')}}`;
      const liveList: number[] = [];
      for (const b of cfg.order) if (liveMark[b] === mark && dt.depth[b] >= 0) liveList.push(b);
      if (!remainingFromSingleStore) trace(`${this.names[v]}: ${S.nStores[v]} stores in ${S.nBlocks[v]} blocks: phis by the iterated dominance frontier`);
      trace(`  defining blocks: ${nm(defs.subarray(0, nDefs))}`);
      trace(`  blocks whose first access is a load: ${nm(this.seeds)}; live-in blocks: ${nm(liveList)}`);
      const full = idf.calculateFromFrontiers(this.frontiers!, defs, nDefs, null, 0);
      const fullList = Array.from(idf.result.subarray(0, full));
      const pruned = fullList.filter((b) => liveMark[b] !== mark);
      trace(`  IDF of the defining blocks: ${nm(fullList)}`);
      if (pruned.length > 0) trace(`  pruned (variable not live-in, the phi would be dead): ${nm(pruned)}`);
      trace(`  phis placed in: ${nm(phiBlocks)}`);
    }
    const type = ai.auxType!;
    let version = 0;
    for (let j = 0; j < phiBlocks.length; j++) {
      const bb = cfg.blocks[phiBlocks[j]]!;
      const phi = new Instruction(Opcode.Phi, type, []);
      phi.blocks = [];
      phi.name = `${ai.name}.${version++}`;
      bb.prepend(phi);
      if (this.phiOwner !== null) this.phiOwner.set(phi, this.names[v]);
      this.newPhis.push(phi);
      this.newPhiVar.push(v);
    }
    stats.phisInserted += phiBlocks.length;
    S.general[v] = 1;
    this.nGeneral++;
  }

  /**
   * Phase 3: the general variables renamed together along the dominator tree, their allocas
   * deleted, the new phis cleaned up as LLVM does; the shared arrays left clean.
   */
  finish(): Instruction[] {
    const S = scratch;
    const { fn, dt, live, V, stats, trace, newPhis } = this;
    const { varOf, general, accInst } = S;
    if (this.nGeneral > 0) renameAlongDominatorTree(fn, dt, live, varOf, this.idBound, general, newPhis, this.newPhiVar, this.firstNewId);
    // leave the shared arrays clean: varOf at -1, no references to deleted instructions
    for (let v = 0; v < V; v++) varOf[this.liveIds[v]] = -1;
    accInst.fill(null, 0, this.nAcc);

    for (let v = 0; v < V; v++) {
      if (!general[v]) continue;
      const ai = live[v];
      if (ai.firstUse !== null) ai.replaceAllUsesWith(PoisonValue.get(ai.type));
      ai.eraseFromParent();
      stats.allocasPromoted++;
    }

    let remaining: Instruction[] = newPhis;
    if (this.opts.simplifyPhis !== false && newPhis.length > 0) {
      remaining = simplifyPhisLikeLLVM(newPhis, dt, (phi, r) => {
        stats.phisRemoved++;
        if (trace !== null) trace(`the phi of ${this.phiOwner!.get(phi)} in ${this.bname(phi.parent!)} merges ${r.kind === ValueKind.Undef ? 'only undef' : `only ${this.vname(r)} (ignoring itself and undef; ${this.vname(r)} dominates it)`}: replaced`);
      });
    }
    if (this.nGeneral > 0) addPoisonForUnreachablePredecessors(remaining, dt);
    return remaining;
  }
}


/**
 * mem2reg: promotes allocas to SSA registers by the algorithm of Cytron, Ferrante, Rosen,
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
import type { DominatorTree } from '../../analysis/dominators.js';
import type { BasicBlock } from '../../ir/basic-block.js';
import { PoisonValue, UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { TypeKind } from '../../ir/types.js';
import { Argument, unlinkUse, Value, ValueKind } from '../../ir/value.js';
import { printFunction, printModule } from '../../text/printer.js';
import { parseModule } from '../../text/parser.js';
import { functionSlots } from '../../text/slots.js';
import { computeDominators } from '../../analysis/dominators.js';
import { DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { FunctionPass, PassContext, PassResult } from '../../pm/pass.js';
import type { PassInfo } from '../../pm/registry.js';
import { IDFCalculator, type Frontiers } from '../../analysis/idf-calculator.js';
import { simplifyPhisLikeLLVM } from '../utils/phi-simplify.js';
import type { RenameTracer } from './mem2reg-rename-trace.js';

export interface PromoteOptions {
  /**
   * LLVM's clean-up of new phis that merge one value with undef (default true). Off, the
   * result is plain pruned Cytron SSA (what the Braun comparison uses).
   */
  simplifyPhis?: boolean;
  /** Receives a step-by-step explanation (the `--trace=mem2reg` teaching view). */
  trace?: ((line: string) => void) | null;
  /**
   * The textbook placements (Cytron et al. 1991; Briggs, Cooper, Harvey and Simpson 1998):
   * 'pruned' (the IDF of the storing blocks where the variable is live-in), 'semi-pruned'
   * (the whole IDF, but only for variables live on entry to some block), 'minimal' (the whole
   * IDF of every variable). With a placement there are no fast paths and no clean-up, so
   * every placed phi stays (dead ones too). Without one (default): LLVM's mem2reg — pruned
   * placement plus its fast paths (a load not dominated by the only store of a constant
   * takes that constant) and the undef clean-up.
   */
  placement?: PhiPlacement;
  /** Receives the renaming walk step by step (mem2reg-trace.ts). */
  renameTrace?: RenameTracer | null;
}

export type PhiPlacement = 'pruned' | 'semi-pruned' | 'minimal';

export interface PromoteStats {
  /** Allocas removed, counting dead ones. */
  allocasPromoted: number;
  deadAllocas: number;
  singleStore: number;
  singleBlock: number;
  neverStored: number;
  phisInserted: number;
  /** New phis removed by the clean-up (one value plus undef). */
  phisRemoved: number;
}

export function emptyPromoteStats(): PromoteStats {
  return { allocasPromoted: 0, deadAllocas: 0, singleStore: 0, singleBlock: 0, neverStored: 0, phisInserted: 0, phisRemoved: 0 };
}

// ---- promotability (LLVM's isAllocaPromotable) -------------------------------------------

function isLifetimeMarker(i: Instruction): boolean {
  if (i.op !== Opcode.Call) return false;
  const f = i.calledFunction();
  return f !== null && (f.name.startsWith('llvm.lifetime.start') || f.name.startsWith('llvm.lifetime.end'));
}

function onlyUsedByLifetimeMarkers(v: Value): boolean {
  for (let u = v.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.kind !== ValueKind.Instruction || !isLifetimeMarker(user)) return false;
  }
  return true;
}

function hasAllZeroIndices(gep: Instruction): boolean {
  for (let k = 1; k < gep.ops.length; k++) {
    const c = gep.ops[k].value;
    if (c.kind === ValueKind.ConstantZero) continue;
    if (c.kind !== ValueKind.ConstantInt || (c as unknown as { value: bigint }).value !== 0n) return false;
  }
  return true;
}

/** Whether `ai` can be promoted: only direct, non-volatile loads and stores of its type, plus lifetime markers. */
export function isAllocaPromotable(ai: Instruction): boolean {
  if (ai.op !== Opcode.Alloca) return false;
  const t = ai.auxType;
  if (t === null) return false;
  for (let u = ai.firstUse; u !== null; u = u.next) {
    const user = u.user as Instruction;
    if (user.kind !== ValueKind.Instruction) return false;
    switch (user.op) {
      case Opcode.Load:
        if ((user.flags & Flag.Volatile) !== 0 || user.type !== t) return false;
        break;
      case Opcode.Store:
        // the address itself must not escape through the store
        if (u.index !== 1 || user.ops[0].value === ai) return false;
        if ((user.flags & Flag.Volatile) !== 0 || user.ops[0].value.type !== t) return false;
        break;
      case Opcode.Call:
        if (!isLifetimeMarker(user)) return false;
        break;
      case Opcode.BitCast:
      case Opcode.AddrSpaceCast:
        if (!onlyUsedByLifetimeMarkers(user)) return false;
        break;
      case Opcode.GetElementPtr:
        if (u.index !== 0 || !hasAllZeroIndices(user) || !onlyUsedByLifetimeMarkers(user)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** The promotable allocas of the entry block, in order (what LLVM's mem2reg pass promotes). */
export function promotableAllocas(fn: Function): Instruction[] {
  const out: Instruction[] = [];
  const entry = fn.firstBlock;
  if (entry === null) return out;
  for (let i = entry.first; i !== null && i !== entry.last; i = i.next) if (i.op === Opcode.Alloca && isAllocaPromotable(i)) out.push(i);
  return out;
}

/** Deletes lifetime markers (and the casts/GEPs that only feed them) of a promotable alloca. */
export function removeIntrinsicUsers(ai: Instruction): void {
  let u = ai.firstUse;
  while (u !== null) {
    const next = u.next;
    const user = u.user as Instruction;
    if (user.op !== Opcode.Load && user.op !== Opcode.Store) {
      if (user.type.kind !== TypeKind.Void) {
        let uu = user.firstUse;
        while (uu !== null) {
          const n2 = uu.next;
          (uu.user as Instruction).eraseFromParent();
          uu = n2;
        }
      }
      // the next use may belong to `user` itself (a marker using the alloca twice)
      let nx = next;
      while (nx !== null && nx.user === user) nx = nx.next;
      user.eraseFromParent();
      u = nx;
      continue;
    }
    u = next;
  }
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
 * Deletes a load or store whose result has no uses: like eraseFromParent, without
 * allocating fresh operand arrays for an instruction nobody will see again (mem2reg deletes
 * about half the instructions of clang -O0 code).
 */
export function deleteAccess(i: Instruction): void {
  if (i.firstUse !== null) throw new Error(`mem2reg: deleting a ${i.opcodeName} that still has uses`);
  const ops = i.ops;
  for (let k = 0; k < ops.length; k++) unlinkUse(ops[k]);
  i.removeFromParent();
}

/** Growable Int32Array. */
function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

function growU8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  return new Uint8Array(Math.max(need, a.length * 2));
}

/**
 * Work arrays shared by all promotions (a module has thousands of functions: allocating
 * fresh typed arrays for each costs more than the promotion). They only grow. Per-block
 * marks are unique numbers from a counter, so they never need clearing; `varOf` is kept at
 * -1 outside a promotion.
 */
class PromoteScratch {
  varOf = new Int32Array(0);
  accInst: (Instruction | null)[] = [];
  accBlock = new Int32Array(64);
  accPos = new Int32Array(64);
  accNext = new Int32Array(64);
  accStore = new Uint8Array(64);
  entBlock = new Int32Array(64);
  entFlags = new Uint8Array(64);
  entNext = new Int32Array(64);
  head = new Int32Array(16);
  tail = new Int32Array(16);
  nStores = new Int32Array(16);
  onlyStore = new Int32Array(16);
  nBlocks = new Int32Array(16);
  lastBlock = new Int32Array(16);
  entHead = new Int32Array(16);
  curEnt = new Int32Array(16);
  general = new Uint8Array(16);
  defMark = new Int32Array(16);
  liveMark = new Int32Array(16);
  mark = 0;
  defs = new Int32Array(16);
  work = new Int32Array(16);
  // renaming
  phiVar = new Int32Array(16);
  stackBlock = new Int32Array(16);
  stackMark = new Int32Array(16);
  logVar = new Int32Array(64);
  logVal: Value[] = [];
  cur: Value[] = [];
  idf: IDFCalculator | null = null;

  /** Marks base..base+count are fresh for the per-block mark arrays (sized for n blocks). */
  takeMarks(count: number, n: number): number {
    if (this.mark > 0x7fff0000 - count) {
      this.defMark.fill(0);
      this.liveMark.fill(0);
      this.mark = 0;
    }
    this.defMark = grow(this.defMark, n);
    this.liveMark = grow(this.liveMark, n);
    const base = this.mark;
    this.mark += count;
    return base;
  }
}

const scratch = new PromoteScratch();

/**
 * Promotes `allocas` (each promotable, in `fn`'s entry block) using `dt`, the dominator tree
 * of `fn`. Adds to `stats`; returns the phis that remain.
 */
export function promoteAllocas(fn: Function, dt: DominatorTree, allocas: readonly Instruction[], opts: PromoteOptions = {}, stats: PromoteStats = emptyPromoteStats()): Instruction[] {
  const cfg = dt.cfg;
  if (cfg === null || cfg.fn !== fn) throw new Error('promoteAllocas: the dominator tree is not of this function');
  const trace = opts.trace ?? null;
  const slots = trace !== null ? functionSlots(fn) : null;
  const bname = (b: BasicBlock): string => '%' + (slots!.nameOf(b) ?? '?');
  const vname = (v: Value): string => {
    if (v.kind === ValueKind.Undef) return 'undef';
    const s = slots!.nameOf(v);
    if (s !== undefined) return '%' + s;
    if (v.kind === ValueKind.ConstantInt) return String((v as unknown as { value: bigint }).value);
    return v.kind === ValueKind.Instruction ? `(new ${(v as Instruction).opcodeName})` : '(value)';
  };
  const depth = dt.depth;
  const placement = opts.placement ?? 'pruned';
  const pruned = placement === 'pruned';
  const llvm = opts.placement === undefined;

  // 0. lifetime markers go; allocas without uses are dead
  const live: Instruction[] = [];
  for (const ai of allocas) {
    removeIntrinsicUsers(ai);
    if (ai.firstUse === null) {
      if (trace !== null) trace(`${vname(ai)}: no loads or stores: deleted`);
      ai.eraseFromParent();
      stats.deadAllocas++;
      stats.allocasPromoted++;
    } else live.push(ai);
  }
  const V = live.length;
  if (V === 0) return [];

  const S = scratch;
  const idBound = fn.instIdBound;
  if (S.varOf.length < idBound) {
    const g = new Int32Array(Math.max(idBound, S.varOf.length * 2)).fill(-1);
    S.varOf = g;
  }
  const varOf = S.varOf;
  let totalUses = 0;
  // erasing an instruction resets its id: remember them to clean varOf at the end
  const liveIds = new Int32Array(V);
  for (let v = 0; v < V; v++) {
    liveIds[v] = live[v].id;
    varOf[live[v].id] = v;
    totalUses += live[v].numUses;
  }
  const names: string[] = trace !== null ? live.map((a) => vname(a)) : [];
  const phiOwner = trace !== null ? new Map<Instruction, string>() : null;

  // 1. one scan in layout order: each variable's accesses in program order, its stores, and
  //    for each block it touches whether the first access there is a load (live-in seed)
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
  if (trace !== null && droppedUnreachable > 0) trace(`dropped ${droppedUnreachable} load(s)/store(s) in unreachable blocks`);

  // 2. fast paths, then phi placement for the rest
  const n = cfg.n;
  const markBase = S.takeMarks(V + 1, n);
  const defMark = S.defMark;
  const liveMark = S.liveMark;
  const predOff = cfg.predOff;
  const pred = cfg.pred;
  const layoutIndex = cfg.layoutIndex;
  let idf: IDFCalculator | null = null;
  let frontiers: Frontiers | null = null;
  let defs = S.defs;
  let work = S.work;
  let nGeneral = 0;
  const newPhis: Instruction[] = [];
  const newPhiVar: number[] = [];
  const firstNewId = fn.instIdBound;

  for (let v = 0; v < V; v++) {
    const ai = live[v];
    const type = ai.auxType!;
    if (head[v] < 0) {
      if (trace !== null) trace(`${names[v]}: only used in unreachable code: deleted`);
      ai.eraseFromParent();
      stats.deadAllocas++;
      stats.allocasPromoted++;
      continue;
    }
    if (nStores[v] === 0) {
      const u = UndefValue.get(type);
      for (let k = head[v]; k >= 0; k = accNext[k]) {
        const ld = accInst[k]!;
        ld.replaceAllUsesWith(u);
        deleteAccess(ld);
      }
      ai.eraseFromParent();
      stats.neverStored++;
      stats.allocasPromoted++;
      if (trace !== null) trace(`${names[v]}: never stored: every load reads undef`);
      continue;
    }
    let remainingFromSingleStore = false;
    if (llvm && nStores[v] === 1) {
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
        if (trace !== null) trace(`${names[v]}: stored once (${vname(val)} in ${bname(cfg.blocks[sb]!)}): every load takes the stored value`);
        continue;
      }
      remainingFromSingleStore = true;
      if (trace !== null) trace(`${names[v]}: stored once in ${bname(cfg.blocks[sb]!)}, but ${remaining} load(s) are not dominated by the store: phis by the iterated dominance frontier`);
    } else if (llvm && nBlocks[v] === 1 && !(accStore[head[v]] === 0)) {
      // single block, first access a store: a linear sweep
      let cur: Value = UndefValue.get(type);
      for (let k = head[v]; k >= 0; k = accNext[k]) {
        const i = accInst[k]!;
        if (accStore[k]) cur = i.ops[0].value;
        else i.replaceAllUsesWith(cur === i ? PoisonValue.get(type) : cur);
        deleteAccess(i);
      }
      ai.eraseFromParent();
      stats.singleBlock++;
      stats.allocasPromoted++;
      if (trace !== null) trace(`${names[v]}: only used in ${bname(cfg.blocks[accBlock[head[v]]]!)}: each load takes the nearest store above it`);
      continue;
    }

    // general case: definition blocks, live-in blocks, IDF ∩ live-in
    const mark = markBase + v + 1;
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
    const seeds: number[] | null = trace !== null ? Array.from(work.subarray(0, sp)) : null;
    // semi-pruned: a variable never live on entry to a block is block-local, it needs no phi
    const local = sp === 0;
    // live-in: from the blocks whose first access is a load, backwards, stopping at definitions
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
    if (idf === null) {
      if (S.idf === null) S.idf = new IDFCalculator(dt);
      else S.idf.retarget(dt);
      idf = S.idf;
      frontiers = idf.frontiers();
    }
    const m = pruned
      ? idf.calculateFromFrontiers(frontiers!, defs, nDefs, liveMark, mark)
      : placement === 'semi-pruned' && local
        ? 0
        : idf.calculateFromFrontiers(frontiers!, defs, nDefs, null, 0);
    const phiBlocks = idf.result.slice(0, m);
    phiBlocks.sort((a, b) => layoutIndex[a] - layoutIndex[b]);
    if (trace !== null) {
      const nm = (ids: ArrayLike<number>): string =>
        `{${Array.from(ids)
          .sort((a, b) => layoutIndex[a] - layoutIndex[b])
          .map((b) => bname(cfg.blocks[b]!))
          .join(', ')}}`;
      const liveList: number[] = [];
      for (const b of cfg.order) if (liveMark[b] === mark && depth[b] >= 0) liveList.push(b);
      if (!remainingFromSingleStore) trace(`${names[v]}: ${nStores[v]} stores in ${nBlocks[v]} blocks: phis by the iterated dominance frontier`);
      trace(`  defining blocks: ${nm(defs.subarray(0, nDefs))}`);
      trace(`  blocks whose first access is a load: ${nm(seeds!)}; live-in blocks: ${nm(liveList)}`);
      const full = idf.calculateFromFrontiers(frontiers!, defs, nDefs, null, 0);
      const fullList = Array.from(idf.result.subarray(0, full));
      const notLive = fullList.filter((b) => liveMark[b] !== mark);
      trace(`  IDF of the defining blocks: ${nm(fullList)}`);
      if (pruned && notLive.length > 0) trace(`  pruned (variable not live-in, the phi would be dead): ${nm(notLive)}`);
      if (placement === 'minimal') trace('  minimal SSA: a phi in every block of the IDF, live or not');
      else if (placement === 'semi-pruned') trace(local ? '  semi-pruned SSA: never live on entry to a block (block-local), no phis' : '  semi-pruned SSA: live on entry to some block, a phi in every block of the IDF');
      trace(`  phis placed in: ${nm(phiBlocks)}`);
    }
    let version = 0;
    for (let j = 0; j < phiBlocks.length; j++) {
      const bb = cfg.blocks[phiBlocks[j]]!;
      const phi = new Instruction(Opcode.Phi, type, []);
      phi.blocks = [];
      phi.name = `${ai.name}.${version++}`;
      bb.prepend(phi);
      if (phiOwner !== null) phiOwner.set(phi, names[v]);
      newPhis.push(phi);
      newPhiVar.push(v);
    }
    stats.phisInserted += phiBlocks.length;
    general[v] = 1;
    nGeneral++;
  }

  S.defs = defs;
  S.work = work;
  if (nGeneral > 0) {
    if (opts.renameTrace != null) opts.renameTrace.start(live, general);
    renameAlongDominatorTree(fn, dt, live, varOf, idBound, general, newPhis, newPhiVar, firstNewId, opts.renameTrace ?? null);
  }
  // leave the shared arrays clean: varOf at -1, no references to deleted instructions
  for (let v = 0; v < V; v++) varOf[liveIds[v]] = -1;
  accInst.fill(null, 0, nAcc);

  for (let v = 0; v < V; v++) {
    if (!general[v]) continue;
    const ai = live[v];
    if (ai.firstUse !== null) ai.replaceAllUsesWith(PoisonValue.get(ai.type));
    ai.eraseFromParent();
    stats.allocasPromoted++;
  }

  let remaining = newPhis;
  if (opts.simplifyPhis !== false && llvm && newPhis.length > 0) {
    remaining = simplifyPhisLikeLLVM(newPhis, dt, (phi, r) => {
      stats.phisRemoved++;
      if (trace !== null) trace(`the phi of ${phiOwner!.get(phi)} in ${bname(phi.parent!)} merges ${r.kind === ValueKind.Undef ? 'only undef' : `only ${vname(r)} (ignoring itself and undef; ${vname(r)} dominates it)`}: replaced`);
    });
  }
  if (nGeneral > 0) addPoisonForUnreachablePredecessors(remaining, dt);
  return remaining;
}

/**
 * Cytron's renaming: a preorder walk of the dominator tree with an explicit stack. The
 * current definition of every variable lives in `cur`; entering a block logs what it
 * overwrites, leaving it (when the walk moves to a block outside its subtree) undoes the log.
 */
function renameAlongDominatorTree(
  fn: Function,
  dt: DominatorTree,
  live: readonly Instruction[],
  varOf: Int32Array,
  idBound: number,
  general: Uint8Array,
  newPhis: readonly Instruction[],
  newPhiVar: readonly number[],
  firstNewId: number,
  rt: RenameTracer | null,
): void {
  const cfg = dt.cfg!;
  const S = scratch;
  const V = live.length;
  const cur = S.cur;
  for (let v = 0; v < V; v++) cur[v] = UndefValue.get(live[v].auxType!);
  const phiSpan = Math.max(1, fn.instIdBound - firstNewId);
  const phiVar = (S.phiVar = grow(S.phiVar, phiSpan));
  phiVar.fill(-1, 0, phiSpan);
  for (let k = 0; k < newPhis.length; k++) phiVar[newPhis[k].id - firstNewId] = newPhiVar[k];

  const preorder = dt.preorder;
  const dfsIn = dt.dfsIn;
  const dfsOut = dt.dfsOut;
  const stackBlock = (S.stackBlock = grow(S.stackBlock, preorder.length + 1));
  const stackMark = (S.stackMark = grow(S.stackMark, preorder.length + 1));
  let sp = 0;
  let logVar = S.logVar;
  const logVal = S.logVal;
  let logLen = 0;

  for (let pi = 0; pi < preorder.length; pi++) {
    const b = preorder[pi];
    while (sp > 0) {
      const t = stackBlock[sp - 1];
      if (dfsIn[t] <= dfsIn[b] && dfsOut[b] <= dfsOut[t]) break;
      const mk = stackMark[sp - 1];
      if (rt !== null) rt.leave(cfg.blocks[t]!, Array.from(logVar.subarray(mk, logLen)), dt.depth[t]);
      while (logLen > mk) {
        logLen--;
        cur[logVar[logLen]] = logVal[logLen];
      }
      sp--;
    }
    stackBlock[sp] = b;
    stackMark[sp] = logLen;
    sp++;
    const bb = cfg.blocks[b]!;
    if (rt !== null) rt.enter(bb, dt.depth[b]);
    for (let i = bb.first; i !== null; ) {
      const next: Instruction | null = i.next;
      const op = i.op;
      if (op === Opcode.Phi) {
        const rel = i.id - firstNewId;
        if (rel >= 0 && rel < phiSpan) {
          const v = phiVar[rel];
          if (v >= 0) {
            if (logLen === logVar.length) S.logVar = logVar = grow(logVar, logLen + 1);
            logVar[logLen] = v;
            logVal[logLen++] = cur[v];
            cur[v] = i;
            if (rt !== null) rt.define(v, i, 'phi', bb, dt.depth[b]);
          }
        }
      } else if (op === Opcode.Load) {
        const p = i.ops[0].value;
        if (p.kind === ValueKind.Instruction) {
          const pid = (p as Instruction).id;
          const v = pid >= 0 && pid < idBound ? varOf[pid] : -1;
          if (v >= 0 && general[v] && live[v] === p) {
            if (rt !== null) rt.use(v, i, cur[v], bb, dt.depth[b]);
            i.replaceAllUsesWith(cur[v]);
            deleteAccess(i);
          }
        }
      } else if (op === Opcode.Store) {
        const p = i.ops[1].value;
        if (p.kind === ValueKind.Instruction) {
          const pid = (p as Instruction).id;
          const v = pid >= 0 && pid < idBound ? varOf[pid] : -1;
          if (v >= 0 && general[v] && live[v] === p) {
            if (logLen === logVar.length) S.logVar = logVar = grow(logVar, logLen + 1);
            logVar[logLen] = v;
            logVal[logLen++] = cur[v];
            cur[v] = i.ops[0].value;
            if (rt !== null) rt.define(v, cur[v], 'store', bb, dt.depth[b]);
            deleteAccess(i);
          }
        }
      }
      i = next;
    }
    const t = bb.last;
    if (t === null || !t.isTerminator()) continue;
    const ns = t.numSuccessors();
    for (let s = 0; s < ns; s++) {
      const sb = t.successor(s);
      for (let p = sb.first; p !== null && p.op === Opcode.Phi; p = p.next) {
        const rel = p.id - firstNewId;
        if (rel < 0 || rel >= phiSpan) continue;
        const v = phiVar[rel];
        if (v >= 0) {
          if (rt !== null) rt.fill(v, p, cur[v], bb, sb, dt.depth[b]);
          p.addIncoming(cur[v], bb);
        }
      }
    }
  }
  if (rt !== null) {
    for (let end = logLen; sp > 0; sp--) {
      rt.leave(cfg.blocks[stackBlock[sp - 1]]!, Array.from(logVar.subarray(stackMark[sp - 1], end)), dt.depth[stackBlock[sp - 1]]);
      end = stackMark[sp - 1];
    }
  }
  logVal.length = 0;
  cur.length = 0;
}

/** Phis of reachable blocks get poison from unreachable predecessors (one entry per edge), as LLVM does. */
export function addPoisonForUnreachablePredecessors(phis: readonly Instruction[], dt: DominatorTree): void {
  const cfg = dt.cfg!;
  for (const phi of phis) {
    const b = phi.parent!.id;
    for (let j = cfg.predOff[b]; j < cfg.predOff[b + 1]; j++) {
      const p = cfg.pred[j];
      if (dt.depth[p] >= 0) continue;
      const pb = cfg.blocks[p]!;
      const c = cfg.edgeCount(p, b);
      for (let k = 0; k < c; k++) phi.addIncoming(PoisonValue.get(phi.type), pb);
    }
  }
}

/**
 * LLVM's mem2reg pass: promote the promotable entry-block allocas, again until none is left
 * (promoting one can make another promotable, e.g. a pointer kept in a promoted slot).
 */
export function promoteMemoryToRegister(fn: Function, dt: DominatorTree, opts: PromoteOptions = {}, stats: PromoteStats = emptyPromoteStats(), first?: Instruction[]): PromoteStats {
  let allocas = first ?? promotableAllocas(fn);
  while (allocas.length > 0) {
    // only a promoted slot that held pointers can make another alloca promotable
    let heldPointers = false;
    for (const a of allocas) if (a.auxType!.kind !== TypeKind.Int && a.auxType!.kind !== TypeKind.Double && a.auxType!.kind !== TypeKind.Float) heldPointers = true;
    promoteAllocas(fn, dt, allocas, opts, stats);
    if (!heldPointers) break;
    allocas = promotableAllocas(fn);
  }
  return stats;
}

/**
 * A teaching view of mem2reg on `fn`: for every promoted variable its defining blocks, its
 * live-in blocks, the IDF, what liveness pruned, where phis went and which the clean-up
 * removed, then the promoted function. Works on a copy: `fn` is not changed.
 */
export function traceMem2Reg(fn: Function): string {
  if (fn.isDeclaration()) throw new Error(`@${fn.name} is a declaration`);
  const m = fn.parent;
  if (m === null) throw new Error('traceMem2Reg: the function is not in a module');
  const copy = parseModule(printModule(m), '<mem2reg trace copy>');
  const f = copy.functions.find((g) => g.name === fn.name);
  if (f === undefined) throw new Error(`traceMem2Reg: @${fn.name} not found in the copy`);
  const lines: string[] = [`mem2reg on @${fn.name} (Cytron et al. with LLVM's refinements; names as in the input)`];
  const dt = computeDominators(f);
  const stats = promoteMemoryToRegister(f, dt, { trace: (l) => lines.push(l) });
  lines.push(
    `summary: ${stats.allocasPromoted} alloca(s) promoted (${stats.singleStore} stored once, ${stats.singleBlock} in one block, ${stats.neverStored} never stored, ${stats.deadAllocas} dead), ` +
      `${stats.phisInserted} phi(s) inserted, ${stats.phisRemoved} removed by the clean-up`,
  );
  lines.push('', printFunction(f));
  return lines.join('\n') + '\n';
}

export function reportPromoteStats(ctx: PassContext, s: PromoteStats): void {
  if (s.allocasPromoted > 0) ctx.stat('allocas promoted', s.allocasPromoted);
  if (s.singleStore > 0) ctx.stat('allocas promoted with a single store', s.singleStore);
  if (s.singleBlock > 0) ctx.stat('allocas promoted within one block', s.singleBlock);
  if (s.deadAllocas > 0) ctx.stat('dead allocas removed', s.deadAllocas);
  if (s.phisInserted > 0) ctx.stat('phis inserted', s.phisInserted);
  if (s.phisRemoved > 0) ctx.stat('phis removed as trivial', s.phisRemoved);
}

export const mem2regPass: PassInfo = {
  name: 'mem2reg',
  description: "promote allocas to SSA registers (Cytron et al. with LLVM's refinements); mem2reg<minimal|semi-pruned|pruned>: the textbook placement, no fast paths or clean-up",
  create(params: string): FunctionPass {
    // no parameter: LLVM's mem2reg; a parameter: that textbook placement
    const placement = params === '' ? undefined : params;
    if (placement !== undefined && placement !== 'pruned' && placement !== 'semi-pruned' && placement !== 'minimal') {
      throw new Error(`mem2reg<${params}>: unknown parameter '${params}' (expected minimal, semi-pruned or pruned)`);
    }
    return {
      kind: 'function',
      name: 'mem2reg',
      local: true,
      run(fn: Function, ctx: PassContext): PassResult {
        const allocas = promotableAllocas(fn);
        if (allocas.length === 0) return { changed: false };
        const dt = ctx.analyses.get(DominatorTreeAnalysis);
        const s = promoteMemoryToRegister(fn, dt, { trace: ctx.trace, placement }, emptyPromoteStats(), allocas);
        reportPromoteStats(ctx, s);
        return { changed: true, preserved: 'cfg' };
      },
    };
  },
};

/**
 * The work arrays of mem2reg's promotion (promote-allocas.ts), shared by all promotions and
 * only growing, and its last phase: Cytron et al.'s renaming along the dominator tree, with
 * an explicit stack and an undo log instead of recursion.
 *
 * Invariant: each variable's renaming stack is the undo log restricted to it, so at block b,
 * `cur[v]` is the reaching definition of v at the point being renamed.
 */
import type { DominatorTree } from '../../analysis/dominators.js';
import { UndefValue } from '../../ir/constants.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Opcode } from '../../ir/opcodes.js';
import { Value, ValueKind } from '../../ir/value.js';
import { IDFCalculator } from '../../analysis/idf.js';
import { deleteAccess } from './promote-memory.js';

/** Growable Int32Array. */
export function grow(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

export function growU8(a: Uint8Array<ArrayBuffer>, need: number): Uint8Array<ArrayBuffer> {
  if (need <= a.length) return a;
  return new Uint8Array(Math.max(need, a.length * 2));
}

/**
 * Work arrays shared by all promotions (a module has thousands of functions: allocating
 * fresh typed arrays for each costs more than the promotion). They only grow. Per-block
 * marks are unique numbers from a counter, so they never need clearing; `varOf` is kept at
 * -1 outside a promotion.
 */
export class PromoteScratch {
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

export const scratch = new PromoteScratch();

/**
 * Cytron's renaming: a preorder walk of the dominator tree with an explicit stack. The
 * current definition of every variable lives in `cur`; entering a block logs what it
 * overwrites, leaving it (when the walk moves to a block outside its subtree) undoes the log.
 */
export function renameAlongDominatorTree(
  fn: Function,
  dt: DominatorTree,
  live: readonly Instruction[],
  varOf: Int32Array,
  idBound: number,
  general: Uint8Array,
  newPhis: readonly Instruction[],
  newPhiVar: readonly number[],
  firstNewId: number,
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
          }
        }
      } else if (op === Opcode.Load || op === Opcode.Store) {
        const p = i.ops[op === Opcode.Load ? 0 : 1].value;
        if (p.kind === ValueKind.Instruction) {
          const pid = (p as Instruction).id;
          const v = pid >= 0 && pid < idBound ? varOf[pid] : -1;
          if (v >= 0 && general[v] && live[v] === p) {
            if (op === Opcode.Load) i.replaceAllUsesWith(cur[v]);
            else {
              if (logLen === logVar.length) S.logVar = logVar = grow(logVar, logLen + 1);
              logVar[logLen] = v;
              logVal[logLen++] = cur[v];
              cur[v] = i.ops[0].value;
            }
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
        if (v >= 0) p.addIncoming(cur[v], bb);
      }
    }
  }
  logVal.length = 0;
  cur.length = 0;
}

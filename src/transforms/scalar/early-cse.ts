/**
 * early-cse: common subexpression elimination over the dominator tree with scoped hash
 * tables, after LLVM's EarlyCSE.cpp (and the dominator-tree walk of Briggs, Cooper and
 * Simpson's DVNT without phi numbering — that is gvn.ts).
 *
 * Invariants:
 *  - The dominator tree is walked in preorder with an explicit stack; a table entry made
 *    in block B is visible exactly in the blocks B dominates (entries are undone from a log
 *    when the walk leaves B), so a replacement value always dominates the replaced use.
 *  - Pure instructions are keyed by opcode, type, predicate, non-poison flags and operands
 *    (commutative operands and compare operands in a canonical order); on a hit the later
 *    one is replaced and the earlier one keeps only the poison flags both had.
 *  - Memory: a "generation" counter changes at every instruction that may write memory
 *    and at the entry of every block with more than one predecessor (another path may have
 *    written). A load is redundant when the same pointer was loaded or stored with the same
 *    type in the same generation, on the dominator-tree path; a store of the value the
 *    location is known to hold in the same generation is deleted. Volatile and atomic
 *    accesses are never touched and count as writes. Read-only calls are CSE'd within a
 *    generation, pure (memory(none)) calls like pure instructions.
 *  - Each instruction is first simplified with src/analysis/instsimplify.ts.
 *
 * lvn.ts runs the same per-block machinery with the table reset at every block.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import { callMemoryEffect, isTriviallyDead, mayWriteMemory } from '../../ir/effects.js';
import type { Function } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { Flag, Opcode, isBinaryOp, isCastOp } from '../../ir/opcodes.js';
import { typeId } from '../../ir/types.js';
import { Value, ValueKind } from '../../ir/value.js';
import { BY_VALUE, expressionHash, sameExpression } from '../../analysis/expression-equality.js';
import { phiDominanceQuery, simplifyInstruction } from '../../analysis/instsimplify.js';
import { DominatorTreeAnalysis } from '../../pm/analyses.js';
import type { PassContext } from '../../pm/pass.js';
import { defineCountingPass, reportStats } from '../../pm/define-pass.js';
import { combineMetadataForCSE } from '../utils/metadata-merge.js';

const FLAG_BITS_IGNORED_IN_KEY = BY_VALUE.ignoredFlags;

/**
 * Whether `i` computes a value from its operands alone (CSE-able as an expression).
 * `freeze` is not: two freezes of the same undef may pick different values.
 */
export function isPureCSE(i: Instruction): boolean {
  const op = i.op;
  if (isBinaryOp(op) || isCastOp(op)) return true;
  switch (op) {
    case Opcode.ICmp:
    case Opcode.FCmp:
    case Opcode.Select:
    case Opcode.FNeg:
    case Opcode.GetElementPtr:
    case Opcode.ExtractValue:
    case Opcode.InsertValue:
    case Opcode.ExtractElement:
    case Opcode.InsertElement:
    case Opcode.ShuffleVector:
      return true;
    case Opcode.Call:
      // no willreturn needed (LLVM's EarlyCSE and GVN do not ask for it): the dominating
      // call ran first, so when the dominated one is reached the first one returned, and a
      // call that touches no memory returns the same value for the same arguments
      return callMemoryEffect(i) === 'none' && i.hasResult() && !i.calledFunction()?.name.startsWith('llvm.ssa.copy');
    default:
      return false;
  }
}

/** Whether `i` is a call that only reads memory (CSE-able within one memory generation). */
export function isReadOnlyCall(i: Instruction): boolean {
  return i.op === Opcode.Call && i.hasResult() && callMemoryEffect(i) === 'read';
}

/**
 * A scoped hash table from pure instructions, by the value they compute (BY_VALUE of
 * src/analysis/expression-equality.ts), to what is known of it. Buckets hold [instruction, value] pairs; a lookup takes the newest match, so an
 * entry added in a dominated block shadows an older one until it is popped. Entries go in
 * and out in stack order (the dominator-tree walks undo them when leaving a block).
 */
export class ExpressionTable<T> {
  private readonly buckets = new Map<number, (Instruction | T)[]>();

  get(h: number, i: Instruction): T | undefined {
    const b = this.buckets.get(h);
    if (b === undefined) return undefined;
    for (let k = b.length - 2; k >= 0; k -= 2) if (sameExpression(b[k] as Instruction, i, BY_VALUE)) return b[k + 1] as T;
    return undefined;
  }

  /** Adds an entry; the caller logs `h` to pop it later. */
  push(h: number, i: Instruction, v: T): void {
    const b = this.buckets.get(h);
    if (b === undefined) this.buckets.set(h, [i, v]);
    else b.push(i, v);
  }

  /** Removes the newest entry of bucket `h`. */
  pop(h: number): void {
    const b = this.buckets.get(h)!;
    if (b.length === 2) this.buckets.delete(h);
    else b.length -= 2;
  }
}

/** Drops from `keep` the poison/fast-math flags `other` lacks (both now name one value). */
export function intersectFlags(keep: Instruction, other: Instruction): void {
  keep.flags &= other.flags | ~FLAG_BITS_IGNORED_IN_KEY;
}

/** The location a load or store accesses, as pointer and type (a number when it fits, the usual case). */
function memKey(p: Value, i: Instruction): number | string {
  const t = typeId(i.op === Opcode.Store ? i.ops[0].value.type : i.type);
  return t < 4096 ? p.uid * 4096 + t : `${p.uid}|${t}`;
}

interface MemEntry {
  value: Value;
  gen: number;
  /** Objects mode, an identified object's location: the clobber count and the object's write count then. */
  clob?: number;
  obj?: number;
  /** The value is a load's own (LLVM combines the metadata of the two loads then). */
  isLoad?: boolean;
}

/** Scoped tables with an undo log: `mark()` then `undo(mark)` restores the earlier state. */
class ScopedTables {
  readonly exprs = new ExpressionTable<Instruction>();
  readonly calls = new ExpressionTable<MemEntry>();
  readonly mem = new Map<number | string, MemEntry>();
  /** Undo entries: [table, hash, -] for the expression tables, [map, key, old value] for `mem`. */
  private readonly log: [ExpressionTable<unknown> | Map<number | string, MemEntry>, number | string, MemEntry | undefined][] = [];

  add<T>(t: ExpressionTable<T>, h: number, i: Instruction, v: T): void {
    t.push(h, i, v);
    this.log.push([t as ExpressionTable<unknown>, h, undefined]);
  }
  setMem(k: number | string, v: MemEntry): void {
    this.log.push([this.mem, k, this.mem.get(k)]);
    this.mem.set(k, v);
  }
  mark(): number {
    return this.log.length;
  }
  undo(to: number): void {
    while (this.log.length > to) {
      const [t, k, old] = this.log.pop()!;
      if (t instanceof ExpressionTable) t.pop(k as number);
      else if (old === undefined) t.delete(k);
      else t.set(k, old);
    }
  }
}

export interface CSEStats {
  deleted: number;
  simplified: number;
  cse: number;
  loads: number;
  stores: number;
}

/** Processes one block against the tables; returns the generation at its end. */
export class CSEBlockProcessor {
  stats: CSEStats = { deleted: 0, simplified: 0, cse: 0, loads: 0, stores: 0 };
  private genCounter = 0;
  readonly tables = new ScopedTables();
  /** Objects mode: writes other than plain stores to identified objects, and per object its stores. */
  private clobbers = 0;
  private readonly objWrites = new Map<Value, number>();

  constructor(
    private readonly dominatesPhi: ((v: Value, bb: BasicBlock) => boolean) | undefined,
    private readonly trace: ((line: string) => void) | null,
    /**
     * Objects mode (lvn): a plain store to an identified object — a global variable or an
     * alloca, addressed directly — cannot change another identified object, so loads of
     * those stay known across it; any other write still ends everything.
     */
    private readonly objects = false,
  ) {}

  newGeneration(): number {
    this.clobbers++;
    return ++this.genCounter;
  }

  /** Objects mode: `p` is an identified object (distinct ones never overlap). */
  private identified(p: Value): boolean {
    return this.objects && (p.kind === ValueKind.GlobalVariable || (p.kind === ValueKind.Instruction && (p as Instruction).op === Opcode.Alloca));
  }

  /** Whether table entry `e` for pointer `p` still holds at generation `gen`. */
  private current(e: MemEntry | undefined, p: Value, gen: number): e is MemEntry {
    if (e === undefined) return false;
    if (e.obj !== undefined) return e.clob === this.clobbers && e.obj === (this.objWrites.get(p) ?? 0);
    return e.gen === gen;
  }

  /** A memory entry for pointer `p` made at generation `gen`. */
  private entry(p: Value, value: Value, gen: number, isLoad?: boolean): MemEntry {
    const e: MemEntry = isLoad === true ? { value, gen, isLoad } : { value, gen };
    if (this.identified(p)) {
      e.clob = this.clobbers;
      e.obj = this.objWrites.get(p) ?? 0;
    }
    return e;
  }

  run(bb: BasicBlock, gen: number): number {
    const t = this.tables;
    for (let i = bb.first; i !== null; ) {
      const next = i.next;
      if (isTriviallyDead(i)) {
        i.eraseFromParent();
        this.stats.deleted++;
        i = next;
        continue;
      }
      const s = simplifyInstruction(i, { dominatesPhi: this.dominatesPhi });
      if (s !== null) {
        this.trace?.(`simplify ${describe(i)} → ${describe(s)}`);
        this.replace(i, s);
        this.stats.simplified++;
        i = next;
        continue;
      }
      if (isPureCSE(i)) {
        const h = expressionHash(i, BY_VALUE);
        const prev = t.exprs.get(h, i);
        if (prev !== undefined) {
          this.trace?.(`cse ${describe(i)} → ${describe(prev)}`);
          intersectFlags(prev, i);
          this.replace(i, prev, true);
          this.stats.cse++;
        } else t.add(t.exprs, h, i, i);
        i = next;
        continue;
      }
      const op = i.op;
      const plain = (i.flags & (Flag.Volatile | Flag.Atomic)) === 0;
      if (op === Opcode.Load && plain) {
        const key = memKey(i.ops[0].value, i);
        const e = t.mem.get(key);
        if (this.current(e, i.ops[0].value, gen)) {
          this.trace?.(`load ${describe(i)} → ${describe(e.value)}`);
          if (e.isLoad === true) combineMetadataForCSE(e.value as Instruction, i, false);
          this.replace(i, e.value);
          this.stats.loads++;
        } else t.setMem(key, this.entry(i.ops[0].value, i, gen, true));
        i = next;
        continue;
      }
      if (op === Opcode.Store && plain) {
        const p = i.ops[1].value;
        const key = memKey(p, i);
        const e = t.mem.get(key);
        if (this.current(e, p, gen) && e.value === i.ops[0].value) {
          this.trace?.(`store ${describe(i)} is redundant`);
          i.eraseFromParent();
          this.stats.stores++;
          i = next;
          continue;
        }
        if (this.identified(p)) {
          // other objects' entries stay; everything that may point into p does not
          gen = ++this.genCounter;
          this.objWrites.set(p, (this.objWrites.get(p) ?? 0) + 1);
        } else gen = this.newGeneration();
        t.setMem(key, this.entry(p, i.ops[0].value, gen));
        i = next;
        continue;
      }
      if (isReadOnlyCall(i)) {
        const h = expressionHash(i, BY_VALUE);
        const e = t.calls.get(h, i);
        if (e !== undefined && e.gen === gen) {
          this.replace(i, e.value, true);
          this.stats.cse++;
        } else t.add(t.calls, h, i, { value: i, gen });
        i = next;
        continue;
      }
      if (mayWriteMemory(i) || !plain || (op === Opcode.Call && callMemoryEffect(i) !== 'none')) gen = this.newGeneration();
      i = next;
    }
    return gen;
  }

  /**
   * `redundant`: `i` repeats the dominating `v`, so it goes even when it is a call not known
   * to return (LLVM's EarlyCSE erases it too: reaching it means `v` returned, and a call of
   * the same pure callee with the same arguments returns the same way).
   */
  private replace(i: Instruction, v: Value, redundant = false): void {
    i.replaceAllUsesWith(v);
    if (redundant || isTriviallyDead(i)) i.eraseFromParent();
  }
}

function describe(v: Value): string {
  if (v.kind === ValueKind.Instruction) return `%${v.name || '<' + (v as Instruction).opcodeName + '>'}`;
  return v.name ? `%${v.name}` : `<${ValueKind[v.kind]}>`;
}

export function earlyCSE(fn: Function, ctx: PassContext): CSEStats {
  const dt = ctx.analyses.get(DominatorTreeAnalysis);
  const cfg = dt.cfg!;
  const proc = new CSEBlockProcessor(phiDominanceQuery(dt), ctx.trace);
  // explicit DFS over the dominator tree: frames of (node, next child, undo mark, generation at the node's end)
  const node: number[] = [dt.root];
  const childPos: number[] = [dt.childOff[dt.root]];
  const marks: number[] = [proc.tables.mark()];
  const gens: number[] = [proc.run(cfg.blocks[dt.root]!, proc.newGeneration())];
  while (node.length > 0) {
    const top = node.length - 1;
    const v = node[top];
    if (childPos[top] < dt.childOff[v + 1]) {
      const w = dt.child[childPos[top]++];
      const bb = cfg.blocks[w]!;
      // a block entered only from its dominator continues that generation
      const single = cfg.numPredecessors(w) === 1 && cfg.predecessors(w)[0] === v;
      const gen = single ? gens[top] : proc.newGeneration();
      const mark = proc.tables.mark();
      node.push(w);
      childPos.push(dt.childOff[w]);
      marks.push(mark);
      gens.push(proc.run(bb, gen));
      continue;
    }
    proc.tables.undo(marks[top]);
    node.pop();
    childPos.pop();
    marks.pop();
    gens.pop();
  }
  const s = proc.stats;
  reportStats(ctx, { 'instructions simplified': s.simplified, 'instructions CSE\'d': s.cse, 'loads CSE\'d': s.loads, 'stores removed': s.stores, 'dead instructions deleted': s.deleted });
  return s;
}

export const earlyCsePass = defineCountingPass({
  name: 'early-cse',
  description: 'dominator-tree CSE with scoped hash tables, redundant loads within a memory generation',
  count: (fn, ctx) => earlyCSE(fn, ctx),
  changed: (s) => s.deleted + s.simplified + s.cse + s.loads + s.stores > 0,
  preserves: 'cfg',
});

/**
 * The IR verifier, after LLVM's lib/IR/Verifier.cpp: the structural, SSA and type rules a
 * well-formed function obeys. Every transform's tests run it, so it is linear-ish and has no
 * recursion that grows with the input.
 *
 * Checked (messages follow LLVM's where it has one):
 *  - shape: every block ends in exactly one terminator and has none before; phis are grouped
 *    at the top; the entry block has no predecessors and no phis;
 *  - phis: one entry per incoming edge (a block branching twice to the same successor needs
 *    two entries, with the same value), every entry's block a predecessor;
 *  - SSA: every use is dominated by its definition (a phi's use at the end of the incoming
 *    block); uses in unreachable blocks are exempt, as in LLVM; only phis may use themselves;
 *    operands are values of this function (or constants/globals), block operands are blocks
 *    of this function;
 *  - types, per opcode (binary ops, compares, casts, memory, GEP indices, calls, returns,
 *    branches, switches, select, phi, aggregates and vectors).
 *
 * Invariants: one walk over the instructions for the local rules (structure, shape,
 * operands and types, each group reported in that order as if it had its own pass), one
 * Semi-NCA dominator tree for the dominance rule; names are printed only when a problem is
 * reported.
 */
import { CFG } from './cfg.js';
import { computeDominators, DominatorTree } from './dominators.js';
import { InstructionNumbering, LayoutRecorder } from './numbering.js';
import { printInstruction } from '../text/printer.js';
import { functionSlots, FunctionSlots } from '../text/slots.js';
import { typeProblem } from './verifier-types.js';
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Module } from '../ir/module.js';
import { Opcode } from '../ir/opcodes.js';
import { intrinsicDeclarationProblem } from '../ir/intrinsic-verifier.js';
import { functionAttributeProblem } from './verifier-attrs.js';
import { attachmentProblem } from './verifier-attachments.js';
import { TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';

/**
 * One verifier problem (`verifyFunction` returns a list of them), or, thrown by `assertValid`,
 * all problems of a module at once (`errors`).
 */
export class VerifierError extends Error {
  /** Every problem (for a single problem: `[this]`). */
  readonly errors: VerifierError[];

  constructor(
    /** Function name (without `@`), or '' for a module-level problem. */
    readonly functionName: string,
    /** Block label as printed (`%entry`, `%5`), or null. */
    readonly blockName: string | null,
    /** The offending instruction as LLVM prints it, or null. */
    readonly instruction: string | null,
    /** What is wrong. */
    readonly detail: string,
    errors?: VerifierError[],
    /** `file:line:col` of the instruction when the module was read from text, else null. */
    readonly location: string | null = null,
  ) {
    super(
      errors === undefined
        ? (location !== null ? location + ': ' : '') + formatProblem(functionName, blockName, instruction, detail)
        : `IR verification failed (${errors.length} problem${errors.length === 1 ? '' : 's'}):\n` + errors.map((e) => '  ' + e.message.replace(/\n/g, '\n  ')).join('\n'),
    );
    this.name = 'VerifierError';
    this.errors = errors ?? [this];
  }
}

function formatProblem(fn: string, block: string | null, inst: string | null, detail: string): string {
  let where = fn === '' ? 'module' : `@${fn}`;
  if (block !== null) where += `, block ${block}`;
  return inst === null ? `${where}: ${detail}` : `${where}: ${detail}\n    ${inst.trim()}`;
}

/** `file:line:col` of an instruction the parser read (see Instruction.srcOffset), or null. */
function sourceLocation(fn: Function, inst: Instruction): string | null {
  const src = fn.parent?.source;
  const off = inst.srcOffset;
  if (src === null || src === undefined || off < 0 || off > src.text.length) return null;
  // counted only when a problem is reported: a report costs a scan of the text before it
  const text = src.text;
  let line = 1;
  for (let p = text.indexOf('\n'); p !== -1 && p < off; p = text.indexOf('\n', p + 1)) line++;
  const col = off - (text.lastIndexOf('\n', off - 1) + 1) + 1;
  return `${src.file}:${line}:${col}`;
}

/** Problems reported per function before the rest are summarized. */
const MAX_PROBLEMS = 200;

/** The problems of one group of rules, in the order found (at most MAX_PROBLEMS kept). */
class ProblemList {
  readonly list: VerifierError[] = [];
  dropped = 0;
}

const enum UseProblem {
  NotAtEndOfIncoming,
  SelfReference,
  MaybeLaterInBlock,
  NotDominated,
}

/** A use that breaks (or, for MaybeLaterInBlock, may break) the dominance rule. */
interface UseFinding {
  kind: UseProblem;
  inst: Instruction;
  def: Instruction;
  /** Layout position of `inst`. */
  at: number;
  /** The incoming block (phis) or the defining block (NotDominated). */
  block: BasicBlock | null;
}

interface UseProblems {
  list: UseFinding[] | null;
  /** Whether some finding needs the whole layout (MaybeLaterInBlock). */
  pending: boolean;
}

/** Records a finding of the dominance rule (reported after the walk, in layout order). */
function note(out: UseProblems, kind: UseProblem, inst: Instruction, def: Instruction, at: number, block: BasicBlock | null): void {
  (out.list ??= []).push({ kind, inst, def, at, block });
  if (kind === UseProblem.MaybeLaterInBlock) out.pending = true;
}

/** Whether the block ids are unique and below blockIdBound (what the CFG's arrays need). */
function blockIdsOk(fn: Function): boolean {
  const bound = fn.blockIdBound;
  const seen = new Uint8Array(bound);
  for (let bb = fn.firstBlock; bb !== null; bb = bb.next) {
    if (bb.id < 0 || bb.id >= bound || seen[bb.id]) return false;
    seen[bb.id] = 1;
  }
  return true;
}

class FunctionVerifier {
  private readonly groups: ProblemList[] = [];
  /** Where `report` puts a problem. */
  private sink: ProblemList;
  private slots: FunctionSlots | null = null;

  constructor(
    readonly fn: Function,
    private readonly opts: VerifyOptions = {},
  ) {
    this.sink = this.group();
  }

  /** A new group of problems, reported after the groups made before it. */
  private group(): ProblemList {
    const g = new ProblemList();
    this.groups.push(g);
    return g;
  }

  private blockName(bb: BasicBlock | null): string | null {
    if (bb === null) return null;
    if (bb.parent !== this.fn) return '<block of another function>';
    try {
      this.slots ??= functionSlots(this.fn);
      const s = this.slots.nameOf(bb);
      return s === undefined ? '<unnamed block>' : '%' + s;
    } catch {
      return bb.name !== '' ? '%' + bb.name : '<unnamed block>';
    }
  }

  report(detail: string, inst: Instruction | null, bb: BasicBlock | null = inst?.parent ?? null): void {
    const sink = this.sink;
    if (sink.list.length >= MAX_PROBLEMS) {
      sink.dropped++;
      return;
    }
    let text: string | null = null;
    if (inst !== null) {
      try {
        text = printInstruction(inst);
      } catch {
        text = `<${inst.opcodeName} instruction>`;
      }
    }
    sink.list.push(new VerifierError(this.fn.name, this.blockName(bb), text, detail, undefined, inst !== null ? sourceLocation(this.fn, inst) : null));
  }

  /** `report` into the problem list `g`. */
  private reportTo(g: ProblemList, detail: string, inst: Instruction | null, bb?: BasicBlock | null): void {
    this.sink = g;
    this.report(detail, inst, bb);
  }

  /** The problems of the groups up to `last` (all by default), group after group, the first MAX_PROBLEMS of them. */
  finish(last: ProblemList = this.groups[this.groups.length - 1]): VerifierError[] {
    const out: VerifierError[] = [];
    let suppressed = 0;
    const n = this.groups.indexOf(last) + 1;
    for (let g = 0; g < n; g++) {
      const { list, dropped } = this.groups[g];
      for (const e of list) {
        if (out.length < MAX_PROBLEMS) out.push(e);
        else suppressed++;
      }
      suppressed += dropped;
    }
    if (suppressed > 0) out.push(new VerifierError(this.fn.name, null, null, `... and ${suppressed} more problems`));
    return out;
  }

  run(): VerifierError[] {
    const fn = this.fn;
    for (const a of fn.args) if (a.parent !== fn) this.report(`argument ${a.index} does not belong to the function`, null);
    const intrinsicDecl = intrinsicDeclarationProblem(fn);
    if (intrinsicDecl !== null) this.report(intrinsicDecl, null);
    const attrProblem = functionAttributeProblem(fn);
    if (attrProblem !== null) this.report(attrProblem, null);
    if (fn.isDeclaration()) return this.finish();
    if (fn.fnType.kind !== TypeKind.Function) {
      this.report('function type is not a function type', null);
      return this.finish();
    }

    // One walk over the blocks and instructions checks four groups of rules — structure
    // (block list, ids, instruction lists), block shape, operands and types, and dominance —
    // and numbers the layout. Each group has its own list, so the problems come out as if
    // each group had its own pass; one walk instead of five is what makes the verifier cheap
    // (following `next` links and use records through a big function is mostly cache misses).
    // The dominator tree is built first, from the terminators, when the block ids allow it.
    const structure = this.group();
    const shape = this.group();
    const operands = this.group();
    const cfgRules = this.group();
    const dominance = this.group();
    const bound = fn.blockIdBound;
    const idsOk = blockIdsOk(fn);
    const cfg = idsOk ? new CFG(fn) : null;
    const dt = cfg !== null ? computeDominators(cfg) : null;
    const uses: UseProblems = { list: null, pending: false };
    // which blocks to report for bad ids: needed only when blockIdsOk said some are bad
    const seenId = idsOk ? null : new Uint8Array(bound);
    let count = 0;
    const layout = new LayoutRecorder(fn);
    for (let bb = fn.firstBlock; bb !== null; bb = bb.next) {
      count++;
      if (bb.parent !== fn) this.reportTo(structure, 'block is on the function\'s list but its parent is another function', null, bb);
      if (seenId !== null) {
        if (bb.id < 0 || bb.id >= bound || seenId[bb.id]) {
          this.reportTo(structure, `block id ${bb.id} is not unique and below blockIdBound ${bound} (call fn.renumber())`, null, bb);
        } else seenId[bb.id] = 1;
      }
      if (bb.first === null) {
        this.reportTo(shape, 'basic block has no terminator (it is empty)', null, bb);
        continue;
      }
      let seenNonPhi = false;
      for (let i: Instruction | null = bb.first; i !== null; i = i.next) {
        if (i.parent !== bb) this.reportTo(structure, 'instruction is on the block\'s list but its parent is another block', i, bb);
        if (i.op === Opcode.Phi) {
          if (seenNonPhi) this.reportTo(shape, 'PHI nodes not grouped at top of basic block', i);
        } else seenNonPhi = true;
        if (i.isTerminator() && i !== bb.last) this.reportTo(shape, 'terminator found in the middle of a basic block', i);
        this.sink = operands; // checkInstruction reports into the operand group
        this.checkInstruction(i);
        const k = layout.insts.length;
        layout.add(i);
        if (dt !== null) this.checkUses(i, k, cfg!, dt, layout, uses);
      }
      if (!bb.last!.isTerminator()) this.reportTo(shape, 'basic block does not end in a terminator', bb.last);
    }
    if (count !== fn.numBlocks) this.reportTo(structure, `function says it has ${fn.numBlocks} blocks, its list has ${count}`, null);
    // with broken block ids, the CFG rules cannot run (and the other groups are not reported)
    if (cfg === null || dt === null) return this.finish(structure);

    // ---- CFG: entry, phis -------------------------------------------------------------
    this.sink = cfgRules;
    const entry = fn.firstBlock!;
    if (cfg.numPredecessors(entry.id) > 0) this.report('entry block has predecessors', null, entry);
    if (entry.first !== null && entry.first.op === Opcode.Phi) this.report('entry block cannot have PHI nodes', entry.first);
    // LLVM's visitFunction: the entry block cannot be jumped to, so its address is meaningless
    if (entry.hasAddressTaken()) this.report('blockaddress may not be used with the entry block', null, entry);
    this.checkPhis(cfg);

    // ---- dominance (found during the walk, reported in layout order) ------------------------
    this.sink = dominance;
    if (uses.list !== null) this.reportUses(uses.list, uses.pending ? new InstructionNumbering(fn, layout) : null);
    const problems = this.finish();
    if (problems.length === 0) this.opts.onValid?.(cfg, dt);
    return problems;
  }

  /**
   * The dominance rule for the operands of `i`, the `k`th instruction of the layout, while
   * the walk is at it: a use must be dominated by its definition (for a phi, at the end of
   * the incoming block). Whether a definition in the same block comes earlier is known
   * from the layout recorded so far; when it is not (a later definition, or ids that no
   * longer index the layout), the finding waits for the whole layout.
   */
  private checkUses(i: Instruction, k: number, cfg: CFG, dt: DominatorTree, layout: LayoutRecorder, out: UseProblems): void {
    const fn = this.fn;
    const bb = i.parent!;
    const useBlock = bb.id;
    const isPhi = i.op === Opcode.Phi;
    if (!isPhi && !cfg.isReachable(useBlock)) return;
    const ops = i.ops;
    for (let j = 0; j < ops.length; j++) {
      const v = ops[j].value;
      if (v.kind !== ValueKind.Instruction) continue;
      const d = v as Instruction;
      const defBlock = d.parent;
      if (defBlock === null || defBlock.parent !== fn) continue; // reported by checkInstruction
      if (isPhi) {
        const p = i.blocks?.[j];
        if (p == null || p.parent !== fn || !cfg.isReachable(p.id)) continue;
        if (defBlock !== p && !dt.dominates(defBlock.id, p.id)) note(out, UseProblem.NotAtEndOfIncoming, i, d, k, p);
        continue;
      }
      if (d === i) {
        note(out, UseProblem.SelfReference, i, d, k, null);
        continue;
      }
      if (defBlock === bb) {
        if (!layout.recorded(d)) note(out, UseProblem.MaybeLaterInBlock, i, d, k, null);
      } else if (!dt.dominates(defBlock.id, useBlock)) {
        note(out, UseProblem.NotDominated, i, d, k, defBlock);
      }
    }
  }

  private reportUses(list: UseFinding[], num: InstructionNumbering | null): void {
    for (const f of list) {
      const i = f.inst;
      const d = f.def;
      switch (f.kind) {
        case UseProblem.NotAtEndOfIncoming:
          this.report(`Instruction does not dominate all uses! (${this.operandName(d)} is not available at the end of ${this.blockName(f.block)})`, i);
          break;
        case UseProblem.SelfReference:
          this.report('Only PHI nodes may reference their own value!', i);
          break;
        case UseProblem.MaybeLaterInBlock:
          // a definition on the block's list after the use (one not on any list is a structure problem)
          if (num!.indexOf(d) > f.at) this.report(`Instruction does not dominate all uses! (${this.operandName(d)} is defined later in the block)`, i);
          break;
        case UseProblem.NotDominated:
          this.report(`Instruction does not dominate all uses! (${this.operandName(d)} is defined in ${this.blockName(f.block)}, which does not dominate ${this.blockName(i.parent)})`, i);
          break;
      }
    }
  }

  private checkPhis(cfg: CFG): void {
    const fn = this.fn;
    const n = cfg.n;
    // edges[p] = number of successor slots of p naming the current block (stamped per block)
    const edgeStamp = new Int32Array(n).fill(-1);
    const edges = new Int32Array(n);
    const seenStamp = new Int32Array(n).fill(-1);
    const seenCount = new Int32Array(n);
    const firstValue: (Value | null)[] = new Array(n).fill(null);
    let phiSerial = 0;
    for (const id of cfg.order) {
      const bb = cfg.blocks[id]!;
      if (bb.first === null || bb.first.op !== Opcode.Phi) continue;
      let totalEdges = 0;
      for (const p of cfg.predecessors(id)) {
        const t = cfg.blocks[p]!.last!;
        let c = 0;
        const ns = t.numSuccessors();
        for (let s = 0; s < ns; s++) if (t.successor(s) === bb) c++;
        edgeStamp[p] = id;
        edges[p] = c;
        totalEdges += c;
      }
      for (let i: Instruction | null = bb.first; i !== null && i.op === Opcode.Phi; i = i.next) {
        const serial = phiSerial++;
        const blocks = i.blocks;
        if (blocks === null || blocks.length !== i.ops.length) {
          this.report('PHI node has mismatched incoming values and blocks', i);
          continue;
        }
        let ok = true;
        for (let k = 0; k < blocks.length; k++) {
          const p = blocks[k];
          if (p === null || p === undefined || p.kind !== ValueKind.BasicBlock) {
            this.report(`PHI entry ${k} has no incoming block`, i);
            ok = false;
            continue;
          }
          if (p.parent !== fn) {
            this.report(`PHI entry ${k} names a block of another function (or a deleted block)`, i);
            ok = false;
            continue;
          }
          const pid = p.id;
          if (edgeStamp[pid] !== id) {
            this.report(`PHI node entry for ${this.blockName(p)} does not match any predecessor of its block`, i);
            ok = false;
            continue;
          }
          if (seenStamp[pid] !== serial) {
            seenStamp[pid] = serial;
            seenCount[pid] = 1;
            firstValue[pid] = i.ops[k].value;
          } else {
            seenCount[pid]++;
            if (firstValue[pid] !== i.ops[k].value) {
              this.report(`PHI node has multiple entries for the same basic block (${this.blockName(p)}) with different incoming values!`, i);
              ok = false;
            }
          }
        }
        if (!ok) continue;
        if (blocks.length !== totalEdges) {
          this.report(`PHI node should have one entry for each predecessor of its parent basic block! (${blocks.length} entries, ${totalEdges} incoming edges)`, i);
          continue;
        }
        for (const p of cfg.predecessors(id)) {
          const c = seenStamp[p] === serial ? seenCount[p] : 0;
          if (c !== edges[p]) {
            this.report(`PHI node entries do not match predecessors! (${this.blockName(cfg.blocks[p])}: ${c} entries for ${edges[p]} edges)`, i);
            break;
          }
        }
      }
    }
  }

  private operandName(v: Value): string {
    try {
      this.slots ??= functionSlots(this.fn);
      const s = this.slots.nameOf(v);
      return s === undefined ? 'the operand' : '%' + s;
    } catch {
      return 'the operand';
    }
  }

  /** Operand ownership and the type rules of one instruction. */
  private checkInstruction(i: Instruction): void {
    const fn = this.fn;
    const ops = i.ops;
    for (let k = 0; k < ops.length; k++) {
      const u = ops[k];
      if (u.user !== i || u.index !== k) this.report(`operand ${k}'s use record is inconsistent`, i);
      const v = u.value;
      switch (v.kind) {
        case ValueKind.Instruction: {
          const d = v as Instruction;
          if (d.parent === null) this.report(`operand ${k} is an instruction that is not in any block (erased?)`, i);
          else if (d.parent.parent !== fn) this.report(`operand ${k} is an instruction of another function${d.parent.parent ? ` (@${d.parent.parent.name})` : ''}`, i);
          else if (d.type.kind === TypeKind.Void) this.report(`operand ${k} is an instruction without a result`, i);
          break;
        }
        case ValueKind.Argument: {
          const a = v as unknown as { parent: Function | null };
          if (a.parent !== fn) this.report(`operand ${k} is an argument of another function`, i);
          break;
        }
        case ValueKind.BasicBlock: {
          const b = v as BasicBlock;
          if (b.parent !== fn) this.report(`operand ${k} is a block of another function (or a deleted block)`, i);
          break;
        }
        case ValueKind.Function:
        case ValueKind.GlobalVariable:
        case ValueKind.GlobalAlias: {
          const g = v as unknown as { parent: Module | null; name: string };
          if (fn.parent !== null && g.parent !== fn.parent && !(g.parent === null && this.opts.isPendingGlobal?.(v)))
            this.report(`operand ${k} (@${g.name}) is a global of another module (or a removed one)`, i);
          break;
        }
        default:
          break;
      }
    }
    if (i.type.kind === TypeKind.Void && i.name !== '') this.report('Instruction has a name, but provides a void value!', i);
    const msg = typeProblem(i, fn) ?? attachmentProblem(i);
    if (msg !== null) this.report(msg, i);
  }
}

export interface VerifyOptions {
  /**
   * Globals that are referenced but not yet defined, so not yet in the module: true while a
   * module is being read function by function (src/driver/streaming.ts); the reader checks
   * at the end of the text that each was defined.
   */
  isPendingGlobal?: (g: Value) => boolean;
  /**
   * Called with the CFG and the dominator tree the verifier built, when it found no
   * problem: a caller about to run passes can give them to the pass manager rather than
   * build them again (streaming.ts does).
   */
  onValid?: (cfg: CFG, dt: DominatorTree) => void;
}

/** Every problem of one function (empty when it is well formed). */
export function verifyFunction(fn: Function, opts: VerifyOptions = {}): VerifierError[] {
  return new FunctionVerifier(fn, opts).run();
}

/** Every problem of every function of a module. */
export function verifyModule(m: Module): VerifierError[] {
  const out: VerifierError[] = [];
  for (const f of m.functions) {
    if (f.parent !== m) out.push(new VerifierError(f.name, null, null, 'function is on the module\'s list but its parent is another module'));
    for (const e of verifyFunction(f)) out.push(e);
  }
  return out;
}

/** Throws one VerifierError listing every problem of the module (or function), if any. */
export function assertValid(m: Module | Function): void {
  const errs = m instanceof Module ? verifyModule(m) : verifyFunction(m);
  if (errs.length > 0) throw new VerifierError('', null, null, 'IR verification failed', errs);
}

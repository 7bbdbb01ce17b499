/**
 * A function's printed text, as a flat array of what the printer reads instead of the text
 * itself: `sameSnapshot(functionSnapshot(f), functionSnapshot(g))` exactly when
 * `printFunction(f) === printFunction(g)`, for a fraction of the cost (no strings are built,
 * no slot numbers assigned). The pass manager's fixpoints ask it at the end of every round
 * whether the round ended where it began (printing the function twice per round was 8% of
 * `ssakit opt -O2` at 100k instructions).
 *
 * The encoding mirrors printer-module.ts's writeFunction and printer-instructions.ts field by
 * field, and is unambiguous (every variable-length list is preceded by its length), so equal
 * arrays decode to equal printed text:
 *  - local values (arguments, blocks, instructions of this function) are their position in
 *    print order: the printer's slot numbers and uniqued names are a function of the order,
 *    the names and which values are void, all recorded;
 *  - constants that are interned (integers, floats, null, undef, poison, zeroinitializer,
 *    constant expressions), globals and types are recorded by identity, which for them is
 *    equality of what prints;
 *  - metadata attachments are recorded as the printer's text, made by a metadata printer fed
 *    in the same order as writeFunction feeds its own (so the `!N` numbering is the same).
 * Anything else (debug records, metadata or inline-asm operands, aggregate and string
 * constants, block addresses, operands that are not in the function): the snapshot is the
 * printed text itself, so the answer stays exact.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { MDAttachment } from '../ir/metadata.js';
import { Opcode } from '../ir/opcodes.js';
import { Value, ValueKind } from '../ir/value.js';
import { MetadataPrinter, MetadataSlots } from './metadata-printer.js';
import { printFunction } from './printer.js';

/** A function's text for comparison: a flat array, or the text itself for rare contents. */
export type FunctionSnapshot = readonly unknown[] | string;

/** Thrown inside `encode` when the function holds something only the printer can say. */
const FALLBACK = new Error('function-snapshot: print instead');

export function functionSnapshot(fn: Function): FunctionSnapshot {
  try {
    return encode(fn);
  } catch (e) {
    if (e !== FALLBACK) throw e;
    return printFunction(fn);
  }
}

/** Whether two snapshots stand for the same printed text. */
export function sameSnapshot(a: FunctionSnapshot, b: FunctionSnapshot): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function encode(fn: Function): unknown[] {
  if (fn.isDeclaration()) throw FALLBACK;
  // positions in print order (+1, so that 0 means "not of this function")
  const blockPos = new Int32Array(fn.blockIdBound);
  const instPos = new Int32Array(fn.instIdBound);
  let pos = fn.args.length;
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    blockPos[b.id] = ++pos;
    for (let i = b.first; i !== null; i = i.next) instPos[i.id] = ++pos;
  }
  const local = (v: Value): number => {
    switch (v.kind) {
      case ValueKind.Argument: {
        const a = v as unknown as { parent: Function | null; index: number };
        if (a.parent === fn) return a.index + 1;
        break;
      }
      case ValueKind.BasicBlock: {
        const b = v as BasicBlock;
        if (b.parent === fn) return blockPos[b.id];
        break;
      }
      default: {
        const i = v as Instruction;
        if (i.parent !== null && i.parent.parent === fn) return instPos[i.id];
      }
    }
    throw FALLBACK;
  };
  const out: unknown[] = [];
  const operand = (v: Value): void => {
    switch (v.kind) {
      case ValueKind.Argument:
      case ValueKind.BasicBlock:
      case ValueKind.Instruction:
        out.push(local(v));
        return;
      case ValueKind.Function:
      case ValueKind.GlobalVariable:
      case ValueKind.GlobalAlias:
      case ValueKind.ConstantInt:
      case ValueKind.ConstantFP:
      case ValueKind.ConstantNull:
      case ValueKind.Undef:
      case ValueKind.Poison:
      case ValueKind.ConstantZero:
      case ValueKind.ConstantExpr:
        out.push(v);
        return;
      default:
        throw FALLBACK;
    }
  };
  // metadata attachments as the printer's text, numbered as writeFunction numbers them
  let mdp: MetadataPrinter | null = null;
  const attachments = (list: MDAttachment[]): void => {
    mdp ??= new MetadataPrinter(new MetadataSlots(), () => {
      throw FALLBACK; // a value inside metadata: print
    });
    out.push(mdp.attachments(list, ' '));
  };

  // the header (writeFunction)
  out.push(fn.name, fn.attrs.linkage, fn.attrs.prefix, fn.attrs.suffix, fn.retAttrs, fn.returnType, fn.fnType.vararg, fn.args.length);
  for (const a of fn.args) out.push(a.type, a.attrs, a.name);
  if (fn.md !== null) attachments(fn.md);
  else out.push(null);
  // the blocks
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    out.push(b.name, b === fn.firstBlock && b.hasUses());
    const preds = b.predecessors();
    out.push(preds.length);
    for (const p of preds) out.push(local(p));
    for (let i = b.first; i !== null; i = i.next) {
      if (i.dbgRecords !== null) throw FALLBACK;
      instruction(i, out, operand, local);
      if (i.md !== null) attachments(i.md);
      else out.push(null);
    }
    out.push(-1); // end of block
  }
  return out;
}

/** Every field writeInstruction reads, operands through `operand`. */
function instruction(i: Instruction, out: unknown[], operand: (v: Value) => void, local: (v: Value) => number): void {
  out.push(i.op, i.type, i.name, i.flags, i.pred, i.auxType, i.align, i.extra);
  const ops = i.ops;
  out.push(ops.length);
  for (let k = 0; k < ops.length; k++) operand(ops[k].value);
  const idx = i.indices;
  if (idx === null) out.push(null);
  else {
    out.push(idx.length);
    for (let k = 0; k < idx.length; k++) out.push(idx[k]);
  }
  if (i.op === Opcode.Phi) {
    const bs = i.blocks;
    if (bs === null) throw FALLBACK;
    out.push(bs.length);
    for (let k = 0; k < bs.length; k++) out.push(bs[k] != null ? local(bs[k]) : null);
  }
  const ca = i.callAttrs;
  if (ca === null) out.push(null);
  else {
    out.push(ca.cconv, ca.ret, ca.fn, ca.args.length);
    for (let k = 0; k < ca.args.length; k++) out.push(ca.args[k]);
  }
}

/**
 * Instructions as text (AssemblyWriter::printInstruction): opcodes with their flags, operand
 * lists, memory orderings and alignments, calls with their attributes.
 */
import { ConstantInt, MetadataValue } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { FAST_MATH_MASK, Flag, Opcode, OPCODE_NAMES, isBinaryOp, isCastOp, predName } from '../ir/opcodes.js';
import { voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { PrinterBase, gepFlags, intFlags } from './printer-base.js';

function castFlags(f: number): string {
  if (f === 0) return '';
  let s = '';
  if (f & Flag.NNeg) s += ' nneg';
  if (f & Flag.NUW) s += ' nuw';
  if (f & Flag.NSW) s += ' nsw';
  return s;
}

function fmf(f: number): string {
  const m = f & FAST_MATH_MASK;
  if (m === 0) return '';
  if (m === FAST_MATH_MASK) return ' fast';
  let s = '';
  if (f & Flag.Reassoc) s += ' reassoc';
  if (f & Flag.NNaN) s += ' nnan';
  if (f & Flag.NInf) s += ' ninf';
  if (f & Flag.NSZ) s += ' nsz';
  if (f & Flag.ARcp) s += ' arcp';
  if (f & Flag.Contract) s += ' contract';
  if (f & Flag.AFn) s += ' afn';
  return s;
}

export abstract class InstructionPrinter extends PrinterBase {
  instruction(i: Instruction): string {
    this.writeInstruction(i);
    return this.w.take();
  }

  /** `v`'s type, a space and `v` as an operand (`metadata !5` for metadata). */
  protected writeTyped(v: Value): void {
    const w = this.w;
    if (v.kind === ValueKind.Metadata) {
      w.str('metadata ');
      w.str(this.mdText(v as MetadataValue));
      return;
    }
    w.str(v.type.toString());
    w.char(32);
    this.writeOperand(v);
  }

  /** `operand(v)`, written: a numbered local's `%N` goes digit by digit into the buffer (no string to fetch). */
  protected writeOperand(v: Value): void {
    const k = v.kind;
    if (k === ValueKind.Instruction || k === ValueKind.Argument || k === ValueKind.BasicBlock) {
      const slots = this.slots;
      const s = slots === null ? -2 : slots.slotOf(v);
      if (s >= 0) {
        this.w.char(37); // '%'
        this.w.uint(s);
        return;
      }
    }
    this.w.str(this.operand(v));
  }

  /** `, ` then `v` typed. */
  protected writeCommaTyped(v: Value): void {
    this.w.str(', ');
    this.writeTyped(v);
  }

  /** `name flags type a, b` and the like: the body of an instruction line, without indentation or metadata. */
  protected writeInstruction(i: Instruction): void {
    const w = this.w;
    if (i.type !== voidType) {
      this.writeOperand(i);
      w.str(' = ');
    }
    const op = i.op;
    const name = OPCODE_NAMES[op];
    const ops = i.ops;
    if (isBinaryOp(op)) {
      w.str(name);
      w.str(intFlags(i.flags));
      w.str(fmf(i.flags));
      w.char(32);
      w.str(i.type.toString());
      w.char(32);
      this.writeOperand(ops[0].value);
      w.str(', ');
      this.writeOperand(ops[1].value);
      return;
    }
    if (isCastOp(op)) {
      w.str(name);
      w.str(castFlags(i.flags));
      w.str(fmf(i.flags));
      w.char(32);
      this.writeTyped(ops[0].value);
      w.str(' to ');
      w.str(i.type.toString());
      return;
    }
    switch (op) {
      case Opcode.Ret:
        if (ops.length === 0) w.str('ret void');
        else {
          w.str('ret ');
          this.writeTyped(ops[0].value);
        }
        return;
      case Opcode.Br:
        if (ops.length === 1) {
          w.str('br label ');
          this.writeOperand(ops[0].value);
          return;
        }
        w.str('br ');
        this.writeTyped(ops[0].value);
        w.str(', label ');
        this.writeOperand(ops[1].value);
        w.str(', label ');
        this.writeOperand(ops[2].value);
        return;
      case Opcode.Switch: {
        w.str('switch ');
        this.writeTyped(ops[0].value);
        w.str(', label ');
        this.writeOperand(ops[1].value);
        w.str(' [');
        for (let k = 2; k < ops.length; k += 2) {
          w.str('\n    ');
          this.writeTyped(ops[k].value);
          w.str(', label ');
          this.writeOperand(ops[k + 1].value);
        }
        w.str('\n  ]');
        return;
      }
      case Opcode.IndirectBr:
        w.str('indirectbr ');
        this.writeTyped(ops[0].value);
        w.str(', [');
        for (let k = 1; k < ops.length; k++) {
          if (k > 1) w.str(', ');
          w.str('label ');
          this.writeOperand(ops[k].value);
        }
        w.char(93); // ']'
        return;
      case Opcode.Unreachable:
        w.str('unreachable');
        return;
      case Opcode.FNeg:
        w.str('fneg');
        w.str(fmf(i.flags));
        w.char(32);
        this.writeTyped(ops[0].value);
        return;
      case Opcode.Alloca: {
        w.str(i.flags & Flag.InAlloca ? 'alloca inalloca ' : 'alloca ');
        w.str(i.auxType!.toString());
        const cnt = ops[0].value;
        if (!(cnt.kind === ValueKind.ConstantInt && (cnt as ConstantInt).value === 1n && cnt.type.bits === 32)) this.writeCommaTyped(cnt);
        if (i.align > 0) this.writeAlign(i.align);
        if (i.extra !== null) {
          w.str(', ');
          w.str(i.extra);
        }
        return;
      }
      case Opcode.Load:
        w.str('load ');
        this.writeMemoryFlags(i);
        w.str(i.type.toString());
        this.writeCommaTyped(ops[0].value);
        this.writeOrderingAndAlign(i);
        return;
      case Opcode.Store:
        w.str('store ');
        this.writeMemoryFlags(i);
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        this.writeOrderingAndAlign(i);
        return;
      case Opcode.GetElementPtr: {
        w.str('getelementptr');
        w.str(gepFlags(i.flags));
        w.char(32);
        w.str(i.auxType!.toString());
        for (let k = 0; k < ops.length; k++) this.writeCommaTyped(ops[k].value);
        return;
      }
      case Opcode.ICmp:
      case Opcode.FCmp:
        w.str(name);
        w.str(fmf(i.flags));
        w.char(32);
        w.str(predName(i.pred));
        w.char(32);
        this.writeTyped(ops[0].value);
        w.str(', ');
        this.writeOperand(ops[1].value);
        return;
      case Opcode.Phi: {
        w.str('phi');
        w.str(fmf(i.flags));
        w.char(32);
        w.str(i.type.toString());
        w.char(32);
        const bs = i.blocks!;
        for (let k = 0; k < ops.length; k++) {
          w.str(k > 0 ? ', [ ' : '[ ');
          this.writeOperand(ops[k].value);
          w.str(', ');
          // a broken phi (fewer blocks than values) still prints, as LLVM prints a missing operand
          if (k < bs.length && bs[k] != null) this.writeOperand(bs[k]);
          else w.str('<badref>');
          w.str(' ]');
        }
        return;
      }
      case Opcode.Call:
        this.writeCall(i);
        return;
      case Opcode.Select:
        w.str('select');
        w.str(fmf(i.flags));
        w.char(32);
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        this.writeCommaTyped(ops[2].value);
        return;
      case Opcode.Freeze:
        w.str('freeze ');
        this.writeTyped(ops[0].value);
        return;
      case Opcode.VAArg:
        w.str('va_arg ');
        this.writeTyped(ops[0].value);
        w.str(', ');
        w.str(i.type.toString());
        return;
      case Opcode.ExtractValue:
        w.str('extractvalue ');
        this.writeTyped(ops[0].value);
        w.str(', ');
        w.str(i.indices!.join(', '));
        return;
      case Opcode.InsertValue:
        w.str('insertvalue ');
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        w.str(', ');
        w.str(i.indices!.join(', '));
        return;
      case Opcode.ExtractElement:
        w.str('extractelement ');
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        return;
      case Opcode.InsertElement:
        w.str('insertelement ');
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        this.writeCommaTyped(ops[2].value);
        return;
      case Opcode.ShuffleVector: {
        const mask = i.indices!;
        const maskStr = mask.every((k) => k === 0)
          ? 'zeroinitializer'
          : '<' + mask.map((k) => (k < 0 ? 'i32 poison' : `i32 ${k}`)).join(', ') + '>';
        w.str('shufflevector ');
        this.writeTyped(ops[0].value);
        this.writeCommaTyped(ops[1].value);
        w.str(`, <${mask.length} x i32> ${maskStr}`);
        return;
      }
      default:
        w.str(name);
        w.str(' <unprintable>');
    }
  }

  /** `atomic ` and `volatile ` of a load or store. */
  protected writeMemoryFlags(i: Instruction): void {
    if (i.flags & Flag.Atomic) this.w.str('atomic ');
    if (i.flags & Flag.Volatile) this.w.str('volatile ');
  }

  /** A load's or store's atomic ordering (kept as text in `extra`) and `, align N`. */
  protected writeOrderingAndAlign(i: Instruction): void {
    if (i.extra !== null) {
      this.w.char(32);
      this.w.str(i.extra);
    }
    if (i.align > 0) this.writeAlign(i.align);
  }

  protected writeAlign(align: number): void {
    this.w.str(', align ');
    this.w.uint(align);
  }

  protected writeCall(i: Instruction): void {
    const w = this.w;
    const ca = i.callAttrs;
    const fnType = i.auxType!;
    if (i.flags & Flag.Tail) w.str('tail ');
    else if (i.flags & Flag.MustTail) w.str('musttail ');
    else if (i.flags & Flag.NoTail) w.str('notail ');
    w.str('call');
    w.str(fmf(i.flags));
    if (ca !== null && ca.cconv !== '') {
      w.char(32);
      w.str(ca.cconv);
    }
    if (ca !== null && ca.ret !== '') {
      w.char(32);
      w.str(ca.ret);
    }
    // LLVM prints the full function type only for varargs callees.
    w.char(32);
    w.str(fnType.vararg ? fnType.toString() : fnType.returnType.toString());
    w.char(32);
    this.writeOperand(i.ops[0].value);
    w.char(40); // '('
    for (let k = 1; k < i.ops.length; k++) {
      if (k > 1) w.str(', ');
      const v = i.ops[k].value;
      const attrs = ca !== null ? (ca.args[k - 1] ?? '') : '';
      const metadata = v.kind === ValueKind.Metadata;
      w.str(metadata ? 'metadata' : v.type.toString());
      if (attrs !== '') {
        w.char(32);
        w.str(attrs);
      }
      w.char(32);
      if (metadata) w.str(this.mdText(v as MetadataValue));
      else this.writeOperand(v);
    }
    w.char(41); // ')'
    if (ca !== null && ca.fn !== '') {
      w.char(32);
      w.str(ca.fn);
    }
  }
}

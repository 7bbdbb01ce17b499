/**
 * Names an instruction for runtime error messages the way LLVM prints it:
 * `in @main, block %5: %12 = load i32, ptr %11, align 4`. Local names follow LLVM's slot
 * numbering (unnamed arguments, blocks and results numbered in order), computed only when
 * an error is reported.
 */
import type { BasicBlock } from '../ir/basic-block.js';
import { ConstantExpr, ConstantFP, ConstantInt } from '../ir/constants.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode, OPCODE_NAMES, predName, Flag } from '../ir/opcodes.js';
import { quoteIdentifier, voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { blockLabel, printInstruction } from '../text/printer.js';
import { getAttachment, sourceLocation } from '../ir/metadata.js';

function slots(fn: Function): Map<Value, string> {
  const m = new Map<Value, string>();
  let n = 0;
  for (const a of fn.args) m.set(a, a.name !== '' ? quoteIdentifier(a.name) : String(n++));
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    m.set(b, b.name !== '' ? quoteIdentifier(b.name) : String(n++));
    for (let i = b.first; i !== null; i = i.next) {
      if (i.type === voidType) continue;
      m.set(i, i.name !== '' ? quoteIdentifier(i.name) : String(n++));
    }
  }
  return m;
}

function valueText(v: Value, names: Map<Value, string>, depth = 0): string {
  const local = names.get(v);
  if (local !== undefined) return '%' + local;
  switch (v.kind) {
    case ValueKind.ConstantInt: {
      const c = v as ConstantInt;
      if (c.type.bits === 1) return c.value !== 0n ? 'true' : 'false';
      return c.value.toString();
    }
    case ValueKind.ConstantFP: {
      const x = (v as ConstantFP).value;
      if (Number.isFinite(x) && String(x).length < 20) return Number.isInteger(x) ? x.toFixed(1) : x.toExponential();
      const dv = new DataView(new ArrayBuffer(8));
      dv.setFloat64(0, x);
      return '0x' + dv.getBigUint64(0).toString(16).toUpperCase().padStart(16, '0');
    }
    case ValueKind.ConstantNull:
      return 'null';
    case ValueKind.Undef:
      return 'undef';
    case ValueKind.Poison:
      return 'poison';
    case ValueKind.ConstantZero:
      return 'zeroinitializer';
    case ValueKind.Function:
    case ValueKind.GlobalVariable:
    case ValueKind.GlobalAlias:
      return '@' + quoteIdentifier(v.name);
    case ValueKind.ConstantExpr: {
      const ce = v as ConstantExpr;
      // a message, not IR to read back: deep nesting (thousands of levels are legal) is cut short
      if (depth >= 8) return '...';
      return `${OPCODE_NAMES[ce.opcode]} (${ce.operands.map((o) => `${o.type} ${valueText(o, names, depth + 1)}`).join(', ')})`;
    }
    default:
      return '<const>';
  }
}

function typed(v: Value, names: Map<Value, string>): string {
  return `${v.type} ${valueText(v, names)}`;
}

function flagText(i: Instruction): string {
  let s = '';
  if (i.flags & Flag.NUW) s += ' nuw';
  if (i.flags & Flag.NSW) s += ' nsw';
  if (i.flags & Flag.Exact) s += ' exact';
  if (i.flags & Flag.Disjoint) s += ' disjoint';
  if (i.flags & Flag.NNeg) s += ' nneg';
  return s;
}

export function instructionText(i: Instruction, names: Map<Value, string>): string {
  const ops = i.ops.map((u) => u.value);
  const lhs = i.type !== voidType ? `%${names.get(i)} = ` : '';
  const op = OPCODE_NAMES[i.op];
  const align = i.align ? `, align ${i.align}` : '';
  let body: string;
  switch (i.op) {
    case Opcode.Load:
      body = `load ${i.type}, ${typed(ops[0], names)}${align}`;
      break;
    case Opcode.Store:
      body = `store ${typed(ops[0], names)}, ${typed(ops[1], names)}${align}`;
      break;
    case Opcode.Alloca: {
      const cnt = ops[0];
      const showCount = !(cnt.kind === ValueKind.ConstantInt && (cnt as ConstantInt).value === 1n);
      body = `alloca ${i.auxType}${showCount ? ', ' + typed(cnt, names) : ''}${align}`;
      break;
    }
    case Opcode.GetElementPtr:
      body = `getelementptr${i.flags & Flag.InBounds ? ' inbounds' : ''} ${i.auxType}, ${ops.map((o) => typed(o, names)).join(', ')}`;
      break;
    case Opcode.Call: {
      const ft = i.auxType;
      const ret = ft !== null ? ft.returnType.toString() : i.type.toString();
      const sig = ft !== null && ft.vararg ? `${ret} (${ft.params.map(String).concat('...').join(', ')})` : ret;
      body = `call ${sig} ${valueText(ops[0], names)}(${ops.slice(1).map((o) => typed(o, names)).join(', ')})`;
      break;
    }
    case Opcode.ICmp:
    case Opcode.FCmp:
      body = `${op} ${predName(i.pred)} ${typed(ops[0], names)}, ${valueText(ops[1], names)}`;
      break;
    case Opcode.Br:
      body = ops.length === 1 ? `br label ${valueText(ops[0], names)}` : `br ${typed(ops[0], names)}, label ${valueText(ops[1], names)}, label ${valueText(ops[2], names)}`;
      break;
    case Opcode.Ret:
      body = ops.length === 0 ? 'ret void' : `ret ${typed(ops[0], names)}`;
      break;
    case Opcode.Phi:
      body = `phi ${i.type} ${ops.map((o, k) => `[ ${valueText(o, names)}, %${names.get(i.blocks![k])} ]`).join(', ')}`;
      break;
    case Opcode.Switch:
      body = `switch ${typed(ops[0], names)}, label ${valueText(ops[1], names)} [...]`;
      break;
    case Opcode.Select:
      body = `select ${ops.map((o) => typed(o, names)).join(', ')}`;
      break;
    case Opcode.ExtractValue:
      body = `extractvalue ${typed(ops[0], names)}, ${i.indices!.join(', ')}`;
      break;
    case Opcode.InsertValue:
      body = `insertvalue ${typed(ops[0], names)}, ${typed(ops[1], names)}, ${i.indices!.join(', ')}`;
      break;
    case Opcode.Unreachable:
      body = 'unreachable';
      break;
    default:
      if (i.op >= Opcode.Trunc && i.op <= Opcode.AddrSpaceCast) body = `${op}${flagText(i)} ${typed(ops[0], names)} to ${i.type}`;
      else if (i.op >= Opcode.Add && i.op <= Opcode.Xor) body = `${op}${flagText(i)} ${typed(ops[0], names)}, ${valueText(ops[1], names)}`;
      else body = `${op} ${ops.map((o) => typed(o, names)).join(', ')}`;
  }
  return lhs + body;
}

/** "in @f, block %5: %12 = load i32, ptr %11, align 4" */
export function locate(fn: Function, inst: Instruction | null): string {
  const fname = '@' + quoteIdentifier(fn.name);
  if (inst === null) return `in ${fname}`;
  // with debug info, the source line first: what the user wrote (SysY, C), then the IR
  const src = sourceLocation(getAttachment(inst.md, 'dbg'));
  if (src !== null) return `at ${src}, ${locateIR(fn, fname, inst)}`;
  return locateIR(fn, fname, inst);
}

function locateIR(fn: Function, fname: string, inst: Instruction): string {
  const bb = inst.parent as BasicBlock | null;
  try {
    // LLVM's own spelling through the printer, without metadata attachments
    const text = printInstruction(inst).trim().replace(/(, ![-A-Za-z0-9_.]+ ![0-9]+)+$/, '').replace(/ #[0-9]+$/, '');
    return `in ${fname}${bb !== null ? `, block ${blockLabel(bb)}` : ''}: ${text}`;
  } catch {
    const names = slots(fn);
    const block = bb !== null ? `, block %${names.get(bb)}` : '';
    return `in ${fname}${block}: ${instructionText(inst, names)}`;
  }
}


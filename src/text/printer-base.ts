/**
 * The state every part of the IR printer shares (LLVM's AsmWriter): slot numbering of the
 * current function and of globals, metadata numbering, the output buffer, and operands and
 * constants as text (nested aggregates and constant expressions printed iteratively). The
 * printer is a chain of classes, one file per part: PrinterBase < InstructionPrinter
 * (printer-instructions.ts) < Printer (printer-module.ts: functions, globals, the module);
 * src/text/printer.ts is the entry point.
 */
import { quoteBytes } from '../util/name-bytes.js';
import type { BasicBlock } from '../ir/basic-block.js';
import {
  BlockAddress,
  Constant,
  ConstantAggregate,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantString,
  InlineAsmValue,
  MetadataValue,
} from '../ir/constants.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { Flag, Opcode, OPCODE_NAMES, isCastOp, predName } from '../ir/opcodes.js';
import { TypeKind, quoteIdentifier } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { formatFloatLiteral } from './float-format.js';
import { FunctionSlots, moduleSlots } from './slots.js';
import { TextBuffer } from './text-buffer.js';
import { MetadataPrinter, MetadataSlots } from './metadata-printer.js';

export interface PrintOptions {
  /** Print `; preds = …` comments on block labels (default true, as opt does). */
  predComments?: boolean;
  /**
   * Functions already printed (by `functionPrinter` or `functionBytePrinter`, whose bodies
   * may since have been deleted): the module printer puts this text in their place.
   */
  printed?: ReadonlyMap<Function, string | Uint8Array>;
  /**
   * Streaming: functions print metadata references as the `!N` of the text, and the ids
   * each one reached are recorded here; the module printer, given the same map with
   * `printed`, checks that LLVM's numbering agrees (else MetadataNumberingMismatch).
   */
  mdRoots?: Map<Function, number[]>;
}

const DIGITS = /^[0-9]+$/;
/** A local name as printed after `%`: numbers as is, names quoted when needed. */
export function localIdent(n: string): string {
  return DIGITS.test(n) ? n : quoteIdentifier(n);
}

export function intFlags(f: number): string {
  if (f === 0) return '';
  let s = '';
  if (f & Flag.NUW) s += ' nuw';
  if (f & Flag.NSW) s += ' nsw';
  if (f & Flag.Exact) s += ' exact';
  if (f & Flag.Disjoint) s += ' disjoint';
  return s;
}

export function gepFlags(f: number): string {
  let s = '';
  if (f & Flag.InBounds) s += ' inbounds';
  else if (f & Flag.NUSW) s += ' nusw';
  if (f & Flag.NUW) s += ' nuw';
  return s;
}

/** Constants that hold other constants (printed by Printer.nestedConstant). */
export function isNestedConstant(v: Value): v is Constant {
  const k = v.kind;
  return k === ValueKind.ConstantExpr || k === ValueKind.ConstantArray || k === ValueKind.ConstantStruct || k === ValueKind.ConstantVector;
}

export abstract class PrinterBase {
  protected slots: FunctionSlots | null = null;
  /** Slots of functions whose blocks a blockaddress names. */
  protected otherSlots = new Map<Function, FunctionSlots>();
  protected globalSlots: Map<Value, number>;
  protected readonly predComments: boolean;
  protected readonly printed: ReadonlyMap<Function, string | Uint8Array> | null;

  constructor(
    protected readonly m: Module | null,
    opts: PrintOptions,
  ) {
    this.globalSlots = m === null ? new Map() : moduleSlots(m);
    this.predComments = opts.predComments ?? true;
    this.printed = opts.printed ?? null;
    this.mdRoots = opts.mdRoots ?? null;
    this.mdSlots.inputIds = this.mdRoots !== null && this.printed === null;
    this.mdp = new MetadataPrinter(this.mdSlots, (v) => this.mdTyped(v));
  }

  protected readonly mdSlots = new MetadataSlots();
  protected readonly mdp: MetadataPrinter;
  protected readonly mdRoots: Map<Function, number[]> | null;

  /** A value inside metadata (`i32 %x`); one no longer in this function prints as poison, as LLVM's kill location. */
  protected mdTyped(v: Value): string {
    if (v.kind === ValueKind.Instruction || v.kind === ValueKind.Argument) {
      // erased, or of another function (a pass moved the code and dropped the value)
      if ((v.kind === ValueKind.Instruction && (v as Instruction).parent === null) || this.slots === null || this.slots.slotOf(v) === -2) return `${v.type} poison`;
    }
    return this.typedOperand(v);
  }

  /** The text of a metadata call argument, after `metadata `. */
  protected mdText(v: MetadataValue): string {
    return v.md !== null ? this.mdp.operand(v.md) : v.text;
  }

  setFunction(fn: Function): void {
    this.slots = new FunctionSlots(fn);
  }

  /** Where instruction lines and function bodies are written (one at a time: each is taken before the next). */
  protected readonly w = new TextBuffer();

  protected globalName(v: Value): string {
    let r = this.globalNames.get(v);
    if (r === undefined) {
      const slot = this.globalSlots.get(v);
      r = slot !== undefined || v.name === '' ? '@' + (slot ?? '<badref>') : '@' + quoteIdentifier(v.name);
      this.globalNames.set(v, r);
    }
    return r;
  }
  /** Text of each constant expression printed so far. */
  protected exprText = new Map<ConstantExpr, string>();
  /** `@name` of each global printed so far (globals are referenced over and over). */
  protected globalNames = new Map<Value, string>();

  protected localName(v: Value): string {
    const slots = this.slots;
    if (slots === null) return '<badref>';
    const s = slots.slotOf(v);
    if (s >= 0) return '' + s;
    if (s === -2) return '<badref>';
    return localIdent(slots.nameOf(v)!);
  }

  operand(v: Value): string {
    switch (v.kind) {
      case ValueKind.Instruction:
      case ValueKind.Argument:
      case ValueKind.BasicBlock:
        return '%' + this.localName(v);
      case ValueKind.Function:
      case ValueKind.GlobalVariable:
      case ValueKind.GlobalAlias:
        return this.globalName(v);
      default:
        return this.constant(v as Constant);
    }
  }

  typedOperand(v: Value): string {
    if (v.kind === ValueKind.Metadata) return 'metadata ' + this.mdText(v as MetadataValue);
    return `${v.type} ${this.operand(v)}`;
  }

  constant(c: Constant): string {
    switch (c.kind) {
      case ValueKind.ConstantInt: {
        return (c as ConstantInt).toText();
      }
      case ValueKind.ConstantFP:
        return formatFloatLiteral((c as ConstantFP).value, c.type);
      case ValueKind.ConstantNull:
        return c.type.kind === TypeKind.Token ? 'none' : 'null';
      case ValueKind.Undef:
        return 'undef';
      case ValueKind.Poison:
        return 'poison';
      case ValueKind.ConstantZero:
        return 'zeroinitializer';
      case ValueKind.ConstantString:
        return 'c' + quoteBytes((c as ConstantString).bytes);
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector:
        return this.nestedConstant(c);
      case ValueKind.ConstantExpr: {
        // interned, and the same expression (a global's element address) is often used many times
        const t = this.exprText.get(c as ConstantExpr);
        return t !== undefined ? t : this.nestedConstant(c);
      }
      case ValueKind.BlockAddress: {
        const ba = c as BlockAddress;
        const bb = ba.liveBlock();
        if (bb === null) return 'inttoptr (i32 1 to ptr)';
        if (bb.kind !== ValueKind.BasicBlock) return `blockaddress(${this.operand(ba.fn)}, %${quoteIdentifier((bb as MetadataValue).text)})`;
        const fn = (bb as BasicBlock).parent!;
        let slots = this.otherSlots.get(fn);
        if (slots === undefined) this.otherSlots.set(fn, (slots = new FunctionSlots(fn)));
        const n = slots.nameOf(bb)!;
        return `blockaddress(${this.operand(ba.fn)}, %${localIdent(n)})`;
      }
      case ValueKind.Metadata:
        return this.mdText(c as MetadataValue);
      case ValueKind.InlineAsm:
        return (c as InlineAsmValue).text;
      case ValueKind.Function:
      case ValueKind.GlobalVariable:
      case ValueKind.GlobalAlias:
        return this.globalName(c);
      default:
        return '<badconst>';
    }
  }

  /**
   * An aggregate or a constant expression, with an explicit stack: constant expressions may
   * nest thousands deep (llvm-as reads 5,000), deeper than recursion could go. The stack holds
   * the pieces still to write, in reverse; a nested operand is expanded when popped, so the
   * text is written once, front to back (building each level's string from its operands'
   * would copy the deep ones again at every level).
   */
  protected nestedConstant(root: Constant): string {
    const out: string[] = [];
    const work: (string | Constant)[] = [root];
    while (work.length > 0) {
      const item = work.pop()!;
      if (typeof item === 'string') {
        out.push(item);
        continue;
      }
      if (item !== root && item.kind === ValueKind.ConstantExpr) {
        const known = this.exprText.get(item as ConstantExpr);
        if (known !== undefined) {
          out.push(known);
          continue;
        }
      }
      if (item !== root && !isNestedConstant(item)) {
        out.push(this.operand(item));
        continue;
      }
      const pieces = this.nestedPieces(item);
      for (let k = pieces.length - 1; k >= 0; k--) work.push(pieces[k]);
    }
    const t = out.join('');
    if (root.kind === ValueKind.ConstantExpr) this.exprText.set(root as ConstantExpr, t);
    return t;
  }

  /** One aggregate or constant expression as text pieces and operands (each operand after its type). */
  protected nestedPieces(c: Constant): (string | Constant)[] {
    const out: (string | Constant)[] = [];
    const typed = (o: Constant): void => {
      if (o.kind === ValueKind.Metadata) out.push('metadata ' + this.mdText(o as MetadataValue));
      else out.push(`${o.type} `, o);
    };
    const list = (ops: readonly Constant[]): void => {
      for (let k = 0; k < ops.length; k++) {
        if (k > 0) out.push(', ');
        typed(ops[k]);
      }
    };
    switch (c.kind) {
      case ValueKind.ConstantArray: {
        const els = (c as ConstantAggregate).elements;
        if (els.length === 0) return ['[]'];
        out.push('[');
        list(els);
        out.push(']');
        return out;
      }
      case ValueKind.ConstantStruct: {
        const els = (c as ConstantAggregate).elements;
        const packed = c.type.packed;
        if (els.length === 0) return [packed ? '<{}>' : '{}'];
        out.push(packed ? '<{ ' : '{ ');
        list(els);
        out.push(packed ? ' }>' : ' }');
        return out;
      }
      case ValueKind.ConstantVector:
        out.push('<');
        list((c as ConstantAggregate).elements);
        out.push('>');
        return out;
      default:
        break;
    }
    const e = c as ConstantExpr;
    const name = OPCODE_NAMES[e.opcode];
    const ops = e.operands;
    if (e.opcode === Opcode.GetElementPtr) {
      out.push(`getelementptr${gepFlags(e.flags)} (${e.sourceType}, `);
      list(ops);
      out.push(')');
    } else if (isCastOp(e.opcode)) {
      out.push(`${name} (`);
      typed(ops[0]);
      out.push(` to ${e.type})`);
    } else {
      out.push(e.opcode === Opcode.ICmp || e.opcode === Opcode.FCmp ? `${name} ${predName(e.predicate)} (` : `${name}${intFlags(e.flags)} (`);
      list(ops);
      out.push(')');
    }
    return out;
  }
}

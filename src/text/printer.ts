/**
 * Printer for LLVM's textual IR. The output is what `llvm-as-19` accepts and, where we
 * can, what `opt-19 -S` prints: the same numbering of unnamed values (see slots.ts), the
 * same spelling of flags, constants and attributes, `; preds = ...` comments on blocks.
 *
 * Invariant: `parseModule(printModule(m))` gives back a module that prints identically.
 */
import { encodeNameBytes, quoteBytes } from '../util/name-bytes.js';
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
import type { Function, GlobalAlias, GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { FAST_MATH_MASK, Flag, Opcode, OPCODE_NAMES, isBinaryOp, isCastOp, predName } from '../ir/opcodes.js';
import { Type, TypeKind, quoteIdentifier, structBody, voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { formatFloatLiteral } from './float-format.js';
import { FunctionSlots, moduleSlots } from './slots.js';

export interface PrintOptions {
  /** Print `; preds = …` comments on block labels (default true, as opt does). */
  predComments?: boolean;
  /**
   * Functions already printed (by `functionPrinter`, whose bodies may since have been
   * deleted): the module printer puts this text in their place.
   */
  printed?: ReadonlyMap<Function, string>;
}

export function printModule(m: Module, opts: PrintOptions = {}): string {
  return new Printer(m, opts).module();
}

/** Prints one function (with module context for global names). */
export function printFunction(fn: Function, opts: PrintOptions = {}): string {
  const m = fn.parent;
  const p = new Printer(m, opts);
  return p.function(fn);
}

/**
 * A printer of one function after another with the same module context: the text each
 * function has in `printModule`, without renumbering the module's globals every time.
 * The numbering of unnamed globals is taken when the printer is made.
 */
export function functionPrinter(m: Module, opts: PrintOptions = {}): (fn: Function) => string {
  const p = new Printer(m, opts);
  return (fn) => p.function(fn);
}

/** Prints one instruction as it appears in its function (`%3 = add i32 %1, 2`). */
export function printInstruction(inst: Instruction): string {
  const fn = inst.parent?.parent ?? null;
  const p = new Printer(fn?.parent ?? null, {});
  if (fn !== null) p.setFunction(fn);
  return p.instruction(inst);
}

/** Prints a value as an operand (`%x`, `42`, `@g`), with its type when `withType`. */
export function printValue(v: Value, withType = false): string {
  let fn: Function | null = null;
  if (v.kind === ValueKind.Instruction) fn = (v as Instruction).parent?.parent ?? null;
  else if (v.kind === ValueKind.BasicBlock) fn = (v as BasicBlock).parent;
  else if (v.kind === ValueKind.Argument) fn = (v as unknown as { parent: Function | null }).parent;
  const p = new Printer(fn?.parent ?? null, {});
  if (fn !== null) p.setFunction(fn);
  return withType ? p.typedOperand(v) : p.operand(v);
}

/** Prints the label of a block as referenced (`%entry`, `%5`). */
export function blockLabel(bb: BasicBlock): string {
  return printValue(bb);
}

class Printer {
  private slots: FunctionSlots | null = null;
  /** Slots of functions whose blocks a blockaddress names. */
  private otherSlots = new Map<Function, FunctionSlots>();
  private globalSlots: Map<Value, number>;
  private readonly predComments: boolean;
  private readonly printed: ReadonlyMap<Function, string> | null;

  constructor(
    private readonly m: Module | null,
    opts: PrintOptions,
  ) {
    this.globalSlots = m === null ? new Map() : moduleSlots(m);
    this.predComments = opts.predComments ?? true;
    this.printed = opts.printed ?? null;
  }

  setFunction(fn: Function): void {
    this.slots = new FunctionSlots(fn);
    this.instRefs = [];
  }

  /** `%name` of the current function's instructions, by id (filled as printed). */
  private instRefs: (string | undefined)[] = [];

  module(): string {
    const m = this.m!;
    const out: string[] = [];
    if (m.name !== '') out.push(`; ModuleID = '${m.name}'`);
    if (m.sourceFilename !== null) out.push(`source_filename = ${quoteString(m.sourceFilename)}`);
    if (m.dataLayout !== null) out.push(`target datalayout = ${quoteString(m.dataLayout)}`);
    if (m.triple !== null) out.push(`target triple = ${quoteString(m.triple)}`);
    for (const a of m.moduleAsm) out.push(a);
    if (m.structs.length > 0) {
      out.push('');
      for (const t of m.structs) out.push(`%${quoteIdentifier(t.name!)} = type ${structBody(t)}`);
    }
    if (m.comdats.length > 0) {
      out.push('');
      for (const c of m.comdats) out.push(c);
    }
    if (m.globals.length > 0) {
      out.push('');
      for (const g of m.globals) out.push(this.globalVariable(g));
    }
    if (m.aliases.length > 0) {
      out.push('');
      for (const a of m.aliases) out.push(this.alias(a));
    }
    const printed = this.printed;
    for (const f of m.functions) {
      out.push('');
      out.push(printed?.get(f) ?? this.function(f));
    }
    if (m.attributeGroups.size > 0) {
      out.push('');
      const ids = [...m.attributeGroups.keys()].sort((a, b) => a - b);
      for (const id of ids) out.push(`attributes #${id} = { ${m.attributeGroups.get(id)} }`);
    }
    if (m.metadata.length > 0) {
      out.push('');
      for (const md of m.metadata) out.push(md);
    }
    return out.join('\n') + '\n';
  }

  private globalName(v: Value): string {
    let r = this.globalNames.get(v);
    if (r === undefined) {
      const slot = this.globalSlots.get(v);
      r = slot !== undefined || v.name === '' ? '@' + (slot ?? '<badref>') : '@' + quoteIdentifier(v.name);
      this.globalNames.set(v, r);
    }
    return r;
  }
  /** `@name` of each global printed so far (globals are referenced over and over). */
  private globalNames = new Map<Value, string>();

  private globalVariable(g: GlobalVariable): string {
    let s = this.globalName(g) + ' =';
    if (g.attrs.linkage !== '') s += ' ' + g.attrs.linkage;
    if (g.attrs.prefix !== '') s += ' ' + g.attrs.prefix;
    s += g.isConstant ? ' constant ' : ' global ';
    s += g.valueType.toString();
    if (g.initializer !== null) s += ' ' + this.constant(g.initializer);
    s += g.attrs.suffix;
    if (g.align > 0) s += `, align ${g.align}`;
    s += g.md;
    return s;
  }

  private alias(a: GlobalAlias): string {
    let s = this.globalName(a) + ' =';
    if (a.attrs.linkage !== '') s += ' ' + a.attrs.linkage;
    if (a.attrs.prefix !== '') s += ' ' + a.attrs.prefix;
    s += ` alias ${a.valueType}, ${this.typedOperand(a.aliasee)}`;
    if (a.attrs.suffix !== '') s += a.attrs.suffix.startsWith(',') ? a.attrs.suffix : ' ' + a.attrs.suffix;
    return s;
  }

  /**
   * Prints a function. (Its lines are joined here, not in one module-wide join: that would
   * keep every line's rope string alive, and copied by the GC, until the end.)
   */
  function(fn: Function): string {
    const decl = fn.isDeclaration();
    this.slots = decl ? null : new FunctionSlots(fn);
    this.instRefs = [];
    let h = decl ? 'declare' : 'define';
    if (fn.attrs.linkage !== '') h += ' ' + fn.attrs.linkage;
    if (fn.attrs.prefix !== '') h += ' ' + fn.attrs.prefix;
    if (fn.retAttrs !== '') h += ' ' + fn.retAttrs;
    h += ` ${fn.returnType} ${this.globalName(fn)}(`;
    const ps: string[] = [];
    for (const a of fn.args) {
      let p = a.type.toString();
      if (a.attrs !== '') p += ' ' + a.attrs;
      if (!decl) p += ' %' + this.localName(a);
      ps.push(p);
    }
    if (fn.fnType.vararg) ps.push('...');
    h += ps.join(', ') + ')';
    if (fn.attrs.suffix !== '') h += ' ' + fn.attrs.suffix;
    if (decl) return h;
    const parts: string[] = [h + ' {'];
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      if (b !== fn.firstBlock || b.name !== '' || b.hasUses()) parts.push(this.blockHeader(b, b === fn.firstBlock));
      for (let i = b.first; i !== null; i = i.next) {
        let line = '  ' + this.instruction(i);
        if (i.md !== null) line += i.md;
        parts.push(line);
      }
    }
    parts.push('}');
    this.slots = null;
    return parts.join('\n');
  }

  private blockHeader(b: BasicBlock, isEntry: boolean): string {
    const label = this.localName(b) + ':';
    const sep = isEntry ? '' : '\n';
    if (!this.predComments) return sep + label;
    const preds = b.predecessors();
    if (preds.length === 0) return sep + label;
    const pad = label.length < 50 ? ' '.repeat(50 - label.length) : ' ';
    return `${sep}${label}${pad}; preds = ${preds.map((p) => '%' + this.localName(p)).join(', ')}`;
  }

  private localName(v: Value): string {
    const slots = this.slots;
    if (slots === null) return '<badref>';
    const s = slots.slotOf(v);
    if (s >= 0) return '' + s;
    if (s === -2) return '<badref>';
    return localIdent(slots.nameOf(v)!);
  }

  operand(v: Value): string {
    switch (v.kind) {
      case ValueKind.Instruction: {
        // instructions are referenced most: their `%name` is built once per function
        const i = v as Instruction;
        const slots = this.slots;
        if (slots === null || i.parent === null || i.parent.parent !== slots.fn || i.id < 0) return '%' + this.localName(v);
        let r = this.instRefs[i.id];
        if (r === undefined) this.instRefs[i.id] = r = '%' + this.localName(v);
        return r;
      }
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
    if (v.kind === ValueKind.Metadata) return 'metadata ' + (v as MetadataValue).text;
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
      case ValueKind.ConstantArray: {
        const els = (c as ConstantAggregate).elements;
        return els.length === 0 ? '[]' : '[' + els.map((e) => this.typedOperand(e)).join(', ') + ']';
      }
      case ValueKind.ConstantStruct: {
        const els = (c as ConstantAggregate).elements;
        const body = els.length === 0 ? '{}' : '{ ' + els.map((e) => this.typedOperand(e)).join(', ') + ' }';
        return c.type.packed ? `<${body}>` : body;
      }
      case ValueKind.ConstantVector:
        return '<' + (c as ConstantAggregate).elements.map((e) => this.typedOperand(e)).join(', ') + '>';
      case ValueKind.ConstantExpr:
        return this.constantExpr(c as ConstantExpr);
      case ValueKind.BlockAddress: {
        const ba = c as BlockAddress;
        const bb = ba.block;
        if (bb.kind !== ValueKind.BasicBlock) return `blockaddress(${this.operand(ba.fn)}, %${quoteIdentifier((bb as MetadataValue).text)})`;
        const fn = (bb as BasicBlock).parent!;
        let slots = this.otherSlots.get(fn);
        if (slots === undefined) this.otherSlots.set(fn, (slots = new FunctionSlots(fn)));
        const n = slots.nameOf(bb)!;
        return `blockaddress(${this.operand(ba.fn)}, %${localIdent(n)})`;
      }
      case ValueKind.Metadata:
        return (c as MetadataValue).text;
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

  private constantExpr(c: ConstantExpr): string {
    const name = OPCODE_NAMES[c.opcode];
    const ops = c.operands;
    if (c.opcode === Opcode.GetElementPtr) {
      return `getelementptr${gepFlags(c.flags)} (${c.sourceType}, ${ops.map((o) => this.typedOperand(o)).join(', ')})`;
    }
    if (isCastOp(c.opcode)) return `${name} (${this.typedOperand(ops[0])} to ${c.type})`;
    if (c.opcode === Opcode.ICmp || c.opcode === Opcode.FCmp) {
      return `${name} ${predName(c.predicate)} (${this.typedOperand(ops[0])}, ${this.typedOperand(ops[1])})`;
    }
    return `${name}${intFlags(c.flags)} (${ops.map((o) => this.typedOperand(o)).join(', ')})`;
  }

  instruction(i: Instruction): string {
    let s = '';
    if (i.type !== voidType) s = this.operand(i) + ' = ';
    const op = i.op;
    const name = OPCODE_NAMES[op];
    const ops = i.ops;
    if (isBinaryOp(op)) {
      return `${s}${name}${intFlags(i.flags)}${fmf(i.flags)} ${i.type} ${this.operand(ops[0].value)}, ${this.operand(ops[1].value)}`;
    }
    if (isCastOp(op)) {
      return `${s}${name}${castFlags(i.flags)}${fmf(i.flags)} ${this.typedOperand(ops[0].value)} to ${i.type}`;
    }
    switch (op) {
      case Opcode.Ret:
        return ops.length === 0 ? 'ret void' : `ret ${this.typedOperand(ops[0].value)}`;
      case Opcode.Br:
        if (ops.length === 1) return `br label ${this.operand(ops[0].value)}`;
        return `br ${this.typedOperand(ops[0].value)}, label ${this.operand(ops[1].value)}, label ${this.operand(ops[2].value)}`;
      case Opcode.Switch: {
        let t = `switch ${this.typedOperand(ops[0].value)}, label ${this.operand(ops[1].value)} [`;
        for (let k = 2; k < ops.length; k += 2) t += `\n    ${this.typedOperand(ops[k].value)}, label ${this.operand(ops[k + 1].value)}`;
        return t + '\n  ]';
      }
      case Opcode.IndirectBr:
        return `indirectbr ${this.typedOperand(ops[0].value)}, [${ops.slice(1).map((u) => 'label ' + this.operand(u.value)).join(', ')}]`;
      case Opcode.Unreachable:
        return 'unreachable';
      case Opcode.FNeg:
        return `${s}fneg${fmf(i.flags)} ${this.typedOperand(ops[0].value)}`;
      case Opcode.Alloca: {
        let t = `${s}alloca ${i.flags & Flag.InAlloca ? 'inalloca ' : ''}${i.auxType}`;
        const cnt = ops[0].value;
        if (!(cnt.kind === ValueKind.ConstantInt && (cnt as ConstantInt).value === 1n && cnt.type.bits === 32)) t += ', ' + this.typedOperand(cnt);
        if (i.align > 0) t += `, align ${i.align}`;
        if (i.extra !== null) t += ', ' + i.extra;
        return t;
      }
      case Opcode.Load: {
        let t = `${s}load ${i.flags & Flag.Atomic ? 'atomic ' : ''}${i.flags & Flag.Volatile ? 'volatile ' : ''}${i.type}, ${this.typedOperand(ops[0].value)}`;
        if (i.extra !== null) t += ' ' + i.extra;
        if (i.align > 0) t += `, align ${i.align}`;
        return t;
      }
      case Opcode.Store: {
        let t = `store ${i.flags & Flag.Atomic ? 'atomic ' : ''}${i.flags & Flag.Volatile ? 'volatile ' : ''}${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}`;
        if (i.extra !== null) t += ' ' + i.extra;
        if (i.align > 0) t += `, align ${i.align}`;
        return t;
      }
      case Opcode.GetElementPtr: {
        let t = `${s}getelementptr${gepFlags(i.flags)} ${i.auxType}`;
        for (const u of ops) t += ', ' + this.typedOperand(u.value);
        return t;
      }
      case Opcode.ICmp:
      case Opcode.FCmp:
        return `${s}${name}${fmf(i.flags)} ${predName(i.pred)} ${this.typedOperand(ops[0].value)}, ${this.operand(ops[1].value)}`;
      case Opcode.Phi: {
        let t = `${s}phi${fmf(i.flags)} ${i.type} `;
        const bs = i.blocks!;
        for (let k = 0; k < ops.length; k++) {
          if (k > 0) t += ', ';
          t += `[ ${this.operand(ops[k].value)}, ${this.operand(bs[k])} ]`;
        }
        return t;
      }
      case Opcode.Call:
        return s + this.call(i);
      case Opcode.Select:
        return `${s}select${fmf(i.flags)} ${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}, ${this.typedOperand(ops[2].value)}`;
      case Opcode.Freeze:
        return `${s}freeze ${this.typedOperand(ops[0].value)}`;
      case Opcode.VAArg:
        return `${s}va_arg ${this.typedOperand(ops[0].value)}, ${i.type}`;
      case Opcode.ExtractValue:
        return `${s}extractvalue ${this.typedOperand(ops[0].value)}, ${i.indices!.join(', ')}`;
      case Opcode.InsertValue:
        return `${s}insertvalue ${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}, ${i.indices!.join(', ')}`;
      case Opcode.ExtractElement:
        return `${s}extractelement ${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}`;
      case Opcode.InsertElement:
        return `${s}insertelement ${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}, ${this.typedOperand(ops[2].value)}`;
      case Opcode.ShuffleVector: {
        const mask = i.indices!;
        const maskStr = mask.every((k) => k === 0)
          ? 'zeroinitializer'
          : '<' + mask.map((k) => (k < 0 ? 'i32 poison' : `i32 ${k}`)).join(', ') + '>';
        return `${s}shufflevector ${this.typedOperand(ops[0].value)}, ${this.typedOperand(ops[1].value)}, <${mask.length} x i32> ${maskStr}`;
      }
      default:
        return `${s}${name} <unprintable>`;
    }
  }

  private call(i: Instruction): string {
    const ca = i.callAttrs;
    const fnType = i.auxType!;
    let t = '';
    if (i.flags & Flag.Tail) t += 'tail ';
    else if (i.flags & Flag.MustTail) t += 'musttail ';
    else if (i.flags & Flag.NoTail) t += 'notail ';
    t += 'call' + fmf(i.flags);
    if (ca !== null && ca.cconv !== '') t += ' ' + ca.cconv;
    if (ca !== null && ca.ret !== '') t += ' ' + ca.ret;
    // LLVM prints the full function type only for varargs callees.
    t += ' ' + (fnType.vararg ? fnType.toString() : fnType.returnType.toString());
    t += ' ' + this.operand(i.ops[0].value) + '(';
    for (let k = 1; k < i.ops.length; k++) {
      if (k > 1) t += ', ';
      const v = i.ops[k].value;
      const attrs = ca !== null ? ca.args[k - 1] ?? '' : '';
      if (v.kind === ValueKind.Metadata) t += `metadata ${attrs !== '' ? attrs + ' ' : ''}${(v as MetadataValue).text}`;
      else t += `${v.type}${attrs !== '' ? ' ' + attrs : ''} ${this.operand(v)}`;
    }
    t += ')';
    if (ca !== null && ca.fn !== '') t += ' ' + ca.fn;
    return t;
  }
}

const DIGITS = /^[0-9]+$/;
/** A local name as printed after `%`: numbers as is, names quoted when needed. */
function localIdent(n: string): string {
  return DIGITS.test(n) ? n : quoteIdentifier(n);
}

function intFlags(f: number): string {
  if (f === 0) return '';
  let s = '';
  if (f & Flag.NUW) s += ' nuw';
  if (f & Flag.NSW) s += ' nsw';
  if (f & Flag.Exact) s += ' exact';
  if (f & Flag.Disjoint) s += ' disjoint';
  return s;
}

function castFlags(f: number): string {
  if (f === 0) return '';
  let s = '';
  if (f & Flag.NNeg) s += ' nneg';
  if (f & Flag.NUW) s += ' nuw';
  if (f & Flag.NSW) s += ' nsw';
  return s;
}

function gepFlags(f: number): string {
  let s = '';
  if (f & Flag.InBounds) s += ' inbounds';
  else if (f & Flag.NUSW) s += ' nusw';
  if (f & Flag.NUW) s += ' nuw';
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

function quoteString(s: string): string {
  return quoteBytes(encodeNameBytes(s));
}

/** Re-exported for callers that print types. */
export function printType(t: Type): string {
  return t.toString();
}

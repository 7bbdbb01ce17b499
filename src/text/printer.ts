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
import { TextBuffer } from './text-buffer.js';
import { MetadataNumberingMismatch, MetadataPrinter, MetadataSlots } from './metadata-printer.js';
import type { MDNode } from '../ir/metadata.js';

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

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function printModule(m: Module, opts: PrintOptions = {}): string {
  const parts = new Printer(m, opts).moduleParts();
  return parts.map((p) => (typeof p === 'string' ? p : decoder.decode(p))).join('\n') + '\n';
}

/**
 * The text of `printModule` as UTF-8 chunks, to be written one after another: functions
 * printed by `functionBytePrinter` are passed through as they are, never decoded into a
 * string and encoded again (on the 1M-instruction file that was 37 MB each way).
 */
export function printModuleBytes(m: Module, opts: PrintOptions = {}): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let text = '';
  for (const p of new Printer(m, opts).moduleParts()) {
    if (typeof p === 'string') {
      text += p + '\n';
      continue;
    }
    if (text !== '') chunks.push(encoder.encode(text));
    chunks.push(p);
    text = '\n';
  }
  if (text !== '') chunks.push(encoder.encode(text));
  return chunks;
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

export { MetadataNumberingMismatch };

/** `functionPrinter`, giving each function's text as UTF-8 bytes (for `printModuleBytes`). */
export function functionBytePrinter(m: Module, opts: PrintOptions = {}): (fn: Function) => Uint8Array {
  const p = new Printer(m, opts);
  return (fn) => p.functionBytes(fn);
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
  private readonly printed: ReadonlyMap<Function, string | Uint8Array> | null;

  constructor(
    private readonly m: Module | null,
    opts: PrintOptions,
  ) {
    this.globalSlots = m === null ? new Map() : moduleSlots(m);
    this.predComments = opts.predComments ?? true;
    this.printed = opts.printed ?? null;
    this.mdRoots = opts.mdRoots ?? null;
    this.mdSlots.inputIds = this.mdRoots !== null && this.printed === null;
    this.mdp = new MetadataPrinter(this.mdSlots, (v) => this.mdTyped(v));
  }

  private readonly mdSlots = new MetadataSlots();
  private readonly mdp: MetadataPrinter;
  private readonly mdRoots: Map<Function, number[]> | null;

  /** A value inside metadata (`i32 %x`); one no longer in this function prints as poison, as LLVM's kill location. */
  private mdTyped(v: Value): string {
    if (v.kind === ValueKind.Instruction || v.kind === ValueKind.Argument) {
      // erased, or of another function (a pass moved the code and dropped the value)
      if ((v.kind === ValueKind.Instruction && (v as Instruction).parent === null) || this.slots === null || this.slots.slotOf(v) === -2) return `${v.type} poison`;
    }
    return this.typedOperand(v);
  }

  /** The text of a metadata call argument, after `metadata `. */
  private mdText(v: MetadataValue): string {
    return v.md !== null ? this.mdp.operand(v.md) : v.text;
  }

  setFunction(fn: Function): void {
    this.slots = new FunctionSlots(fn);
  }

  /** Where instruction lines and function bodies are written (one at a time: each is taken before the next). */
  private readonly w = new TextBuffer();

  /** The module's text in parts, each to be followed by a newline: strings, and functions printed as bytes. */
  moduleParts(): (string | Uint8Array)[] {
    const m = this.m!;
    nameLateBlockAddressTargets(m);
    const out: (string | Uint8Array)[] = [];
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
    // LLVM numbers named metadata before the functions' metadata
    for (const nm of m.namedMetadata) for (const n of nm.ops) this.mdSlots.number(n);
    const printed = this.printed;
    const byInputId = printed !== null && this.mdRoots !== null ? inputIdTable(m) : null;
    for (const f of m.functions) {
      out.push('');
      const text = printed?.get(f);
      if (text !== undefined && byInputId !== null) this.replayRoots(this.mdRoots!.get(f), byInputId);
      out.push(text ?? this.function(f));
    }
    if (m.attributeGroups.size > 0) {
      out.push('');
      const ids = [...m.attributeGroups.keys()].sort((a, b) => a - b);
      for (const id of ids) out.push(`attributes #${id} = { ${m.attributeGroups.get(id)} }`);
    }
    if (m.namedMetadata.length > 0) {
      out.push('');
      for (const nm of m.namedMetadata) out.push(`!${quoteMetadataName(nm.name)} = !{${nm.ops.map((n) => this.mdSlots.ref(n, this.mdp)).join(', ')}}`);
    }
    const list = this.mdSlots.list;
    if (list.length > 0) {
      out.push('');
      this.slots = null;
      // printing a body never numbers more nodes: numbering reached all its operands
      for (let k = 0; k < list.length; k++) out.push(`!${k} = ${this.mdp.body(list[k])}`);
    }
    return out;
  }

  /** Numbers what a streamed function reached, checking that its printed `!N` are LLVM's numbers. */
  private replayRoots(roots: number[] | undefined, byInputId: Map<number, MDNode>): void {
    if (roots === undefined) return;
    for (const id of roots) {
      const n = byInputId.get(id);
      if (n === undefined || this.mdSlots.number(n) !== id) throw new MetadataNumberingMismatch(`!${id} is not numbered as LLVM numbers it`);
    }
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
  /** Text of each constant expression printed so far. */
  private exprText = new Map<ConstantExpr, string>();
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
    if (g.md !== null) s += this.mdp.attachments(g.md, ', ');
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
   * Prints a function. Its lines are written into one byte buffer and decoded once (see
   * text-buffer.ts): no rope string per line for a join to walk and the GC to copy.
   */
  function(fn: Function): string {
    this.writeFunction(fn);
    return this.w.take();
  }

  functionBytes(fn: Function): Uint8Array {
    this.writeFunction(fn);
    return this.w.takeBytes();
  }

  private writeFunction(fn: Function): void {
    const decl = fn.isDeclaration();
    this.slots = decl ? null : new FunctionSlots(fn);
    let h = decl ? 'declare' : 'define';
    if (decl && fn.md !== null) h += this.mdp.attachments(fn.md, ' ');
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
    const roots = this.mdSlots.inputIds ? (this.mdSlots.roots = []) : null;
    if (!decl && fn.md !== null) h += this.mdp.attachments(fn.md, ' ');
    const w = this.w;
    w.str(h);
    if (decl) {
      if (roots !== null) this.mdRoots!.set(fn, roots);
      return;
    }
    w.str(' {');
    for (let b = fn.firstBlock; b !== null; b = b.next) {
      if (b !== fn.firstBlock || b.name !== '' || b.hasUses()) this.writeBlockHeader(b, b === fn.firstBlock);
      for (let i = b.first; i !== null; i = i.next) {
        if (i.dbgRecords !== null) this.writeRecords(i);
        w.str('\n  ');
        this.writeInstruction(i);
        if (i.md !== null) w.str(this.mdp.attachments(i.md, ', '));
      }
    }
    w.str('\n}');
    this.slots = null;
    if (roots !== null) this.mdRoots!.set(fn, roots);
  }

  private writeRecords(i: Instruction): void {
    for (const r of i.dbgRecords!) {
      this.w.str('\n    ');
      this.w.str(this.mdp.record(r));
    }
  }

  private writeBlockHeader(b: BasicBlock, isEntry: boolean): void {
    const w = this.w;
    const label = this.localName(b);
    w.str(isEntry ? '\n' : '\n\n');
    w.str(label);
    w.char(58); // ':'
    if (!this.predComments) return;
    const preds = b.predecessors();
    if (preds.length === 0) return;
    w.spaces(label.length + 1 < 50 ? 50 - label.length - 1 : 1);
    w.str('; preds = ');
    for (let k = 0; k < preds.length; k++) {
      if (k > 0) w.str(', ');
      w.char(37); // '%'
      w.str(this.localName(preds[k]));
    }
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
  private nestedConstant(root: Constant): string {
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
  private nestedPieces(c: Constant): (string | Constant)[] {
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

  instruction(i: Instruction): string {
    this.writeInstruction(i);
    return this.w.take();
  }

  /** `v`'s type, a space and `v` as an operand (`metadata !5` for metadata). */
  private writeTyped(v: Value): void {
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
  private writeOperand(v: Value): void {
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
  private writeCommaTyped(v: Value): void {
    this.w.str(', ');
    this.writeTyped(v);
  }

  /** `name flags type a, b` and the like: the body of an instruction line, without indentation or metadata. */
  private writeInstruction(i: Instruction): void {
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
  private writeMemoryFlags(i: Instruction): void {
    if (i.flags & Flag.Atomic) this.w.str('atomic ');
    if (i.flags & Flag.Volatile) this.w.str('volatile ');
  }

  /** A load's or store's atomic ordering (kept as text in `extra`) and `, align N`. */
  private writeOrderingAndAlign(i: Instruction): void {
    if (i.extra !== null) {
      this.w.char(32);
      this.w.str(i.extra);
    }
    if (i.align > 0) this.writeAlign(i.align);
  }

  private writeAlign(align: number): void {
    this.w.str(', align ');
    this.w.uint(align);
  }

  private writeCall(i: Instruction): void {
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
/** Constants that hold other constants (printed by Printer.nestedConstant). */
function isNestedConstant(v: Value): v is Constant {
  const k = v.kind;
  return k === ValueKind.ConstantExpr || k === ValueKind.ConstantArray || k === ValueKind.ConstantStruct || k === ValueKind.ConstantVector;
}

export function printType(t: Type): string {
  return t.toString();
}

/**
 * LLVM's reader takes `blockaddress(@f, %3)` only before @f's body is read: a number is
 * @f's own numbering, unknown afterwards ("cannot take address of numeric label after the
 * function is defined"). A blockaddress in a later function of an unnamed block (constant
 * folding of a load from a label table puts them there) would print as such a number, so
 * the block gets a name (opt-19 prints the number, and llvm-as-19 rejects its output).
 * Only modules with an address-taken block pay for the scan.
 */
function nameLateBlockAddressTargets(m: Module): void {
  let any = false;
  for (const f of m.functions) for (let b = f.firstBlock; b !== null && !any; b = b.next) if (b.addressTaken) any = true;
  if (!any) return;
  const defined = new Set<Value>();
  const stack: Value[] = [];
  const seen = new Set<Value>();
  for (const f of m.functions) {
    for (let b = f.firstBlock; b !== null; b = b.next) {
      for (let i = b.first; i !== null; i = i.next) {
        for (let k = 0; k < i.numOperands; k++) {
          const o = i.operand(k);
          if (o.kind === ValueKind.BlockAddress || o.kind === ValueKind.ConstantExpr) stack.push(o);
        }
      }
    }
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (v.kind === ValueKind.ConstantExpr) {
        if (!seen.has(v)) for (const o of (v as ConstantExpr).operands) stack.push(o);
        seen.add(v);
        continue;
      }
      if (v.kind !== ValueKind.BlockAddress) continue;
      const ba = v as BlockAddress;
      const bb = ba.liveBlock();
      if (bb === null || bb.kind !== ValueKind.BasicBlock || !defined.has((bb as BasicBlock).parent!) || bb.name !== '') continue;
      bb.name = 'addr.taken';
    }
    if (!f.isDeclaration()) defined.add(f);
  }
}

/** `!name` as LLVM prints a named metadata's name (escaping what is not an identifier character). */
function quoteMetadataName(name: string): string {
  let out = '';
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    const ok = (c >= 48 && c <= 57 && k > 0) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 46 || c === 95 || c === 45;
    out += ok ? name[k] : '\\' + c.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Numbered nodes of a module by the `!N` they had in the text. */
function inputIdTable(m: Module): Map<number, MDNode> {
  const t = new Map<number, MDNode>();
  for (const n of m.mdNodes ?? []) t.set(n.inputId, n);
  return t;
}

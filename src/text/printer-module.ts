/**
 * Functions (headers, blocks with their `; preds` comments, debug records), global variables,
 * aliases and the whole module in LLVM's order (AssemblyWriter::printModule); the last class
 * of the printer chain (see printer-base.ts).
 */
import { encodeNameBytes, quoteBytes } from '../util/name-bytes.js';
import type { BasicBlock } from '../ir/basic-block.js';
import { BlockAddress, ConstantExpr } from '../ir/constants.js';
import type { Function, GlobalAlias, GlobalVariable } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { quoteIdentifier, structBody } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { FunctionSlots } from './slots.js';
import { MetadataNumberingMismatch } from './metadata-printer.js';
import type { MDNode } from '../ir/metadata.js';
import { InstructionPrinter } from './printer-instructions.js';

function quoteString(s: string): string {
  return quoteBytes(encodeNameBytes(s));
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

export class Printer extends InstructionPrinter {
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
  protected replayRoots(roots: number[] | undefined, byInputId: Map<number, MDNode>): void {
    if (roots === undefined) return;
    for (const id of roots) {
      const n = byInputId.get(id);
      if (n === undefined || this.mdSlots.number(n) !== id) throw new MetadataNumberingMismatch(`!${id} is not numbered as LLVM numbers it`);
    }
  }

  protected globalVariable(g: GlobalVariable): string {
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

  protected alias(a: GlobalAlias): string {
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

  protected writeFunction(fn: Function): void {
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

  protected writeRecords(i: Instruction): void {
    for (const r of i.dbgRecords!) {
      this.w.str('\n    ');
      this.w.str(this.mdp.record(r));
    }
  }

  protected writeBlockHeader(b: BasicBlock, isEntry: boolean): void {
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
}

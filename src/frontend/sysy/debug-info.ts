/**
 * Debug info for SysY (`ssakit compile -g`), shaped as clang -g shapes it for C: one
 * DICompileUnit (language C11: SysY is a C subset, so debuggers read it as C) and DIFile,
 * `!llvm.dbg.cu` and the two module flags LLVM requires, a DISubprogram per defined
 * function (`!dbg` on the function) and uniqued DILocations for the instructions.
 * Locals and parameters get a DILocalVariable each (with the DWARF type clang gives the C
 * type: int, float, arrays with their subranges, array parameters as pointers), described
 * by `#dbg_declare` of their alloca or by `#dbg_value` at each write of their SSA value,
 * so that llvm-dwarfdump lists them with their declaration lines.
 */
import type { Function } from '../../ir/function.js';
import { DbgRecord, getDILocation, MDNode, type MDOperand, MDString, ValueAsMetadata } from '../../ir/metadata.js';
import type { Value } from '../../ir/value.js';
import type { ElemKind, Type as SysYType } from './ast.js';
import type { Module } from '../../ir/module.js';
import { ConstantInt } from '../../ir/constants.js';
import { i32 } from '../../ir/types.js';
import { metadataHooks } from '../../ir/value.js';
import type { SourceFile } from './diagnostics.js';

function quoted(s: string): string {
  let out = '"';
  for (const ch of new TextEncoder().encode(s)) {
    if (ch >= 0x20 && ch < 0x7f && ch !== 0x22 && ch !== 0x5c) out += String.fromCharCode(ch);
    else out += '\\' + ch.toString(16).toUpperCase().padStart(2, '0');
  }
  return out + '"';
}

export class SysYDebugInfo {
  readonly file: MDNode;
  readonly unit: MDNode;
  private readonly voidType: MDNode;

  constructor(
    m: Module,
    private readonly source: SourceFile,
  ) {
    const slash = source.name.lastIndexOf('/');
    const fileName = slash >= 0 ? source.name.slice(slash + 1) : source.name;
    const dir = slash >= 0 ? source.name.slice(0, slash) || '/' : '.';
    this.file = new MDNode('DIFile', [quoted(fileName), quoted(dir)], ['filename', 'directory']);
    const keys = ['language', 'file', 'producer', 'isOptimized', 'runtimeVersion', 'emissionKind', 'splitDebugInlining', 'nameTableKind'];
    const ops: MDOperand[] = ['DW_LANG_C11', this.file, '"ssakit"', 'false', '0', 'FullDebug', 'false', 'None'];
    this.unit = new MDNode('DICompileUnit', ops, keys, true);
    this.voidType = new MDNode('DISubroutineType', [new MDNode('', [null], null)], ['types']);
    const flag = (behaviour: number, name: string, value: number): MDNode =>
      new MDNode('', [ValueAsMetadata.get(ConstantInt.get(i32, BigInt(behaviour))), MDString.get(name), ValueAsMetadata.get(ConstantInt.get(i32, BigInt(value)))], null);
    m.namedMetadata.push({ name: 'llvm.dbg.cu', ops: [this.unit] });
    m.namedMetadata.push({ name: 'llvm.module.flags', ops: [flag(7, 'Dwarf Version', 5), flag(2, 'Debug Info Version', 3)] });
    metadataHooks.active = true; // passes carry locations (see ir/metadata.ts)
  }

  /** A DISubprogram for `fn`, declared at `pos`, attached to it. */
  subprogram(fn: Function, name: string, pos: number): MDNode {
    const line = String(this.source.loc(pos).line);
    const keys = ['name', 'scope', 'file', 'line', 'type', 'scopeLine', 'spFlags', 'unit'];
    const ops: MDOperand[] = [quoted(name), this.file, this.file, line, this.voidType, line, 'DISPFlagDefinition', this.unit];
    const sp = new MDNode('DISubprogram', ops, keys, true);
    fn.md = [{ kind: 'dbg', node: sp }];
    return sp;
  }

  private readonly basic = new Map<ElemKind, MDNode>();
  private readonly expr = new MDNode('DIExpression', [''], null);

  /** The DWARF type of a SysY variable's type (clang's for the same C type); null for other types. */
  diType(t: SysYType): MDNode | null {
    if (t.kind === 'int' || t.kind === 'float') return this.basicType(t.kind);
    if (t.kind !== 'array' && t.kind !== 'pointer') return null;
    let inner = this.basicType(t.elem);
    if (t.dims.length > 0) {
      let count = 1;
      for (const d of t.dims) count *= d;
      const subranges = t.dims.map((d) => new MDNode('DISubrange', [String(d)], ['count']));
      inner = new MDNode('DICompositeType', ['DW_TAG_array_type', inner, String(count * 32), new MDNode('', subranges, null)], ['tag', 'baseType', 'size', 'elements']);
    }
    if (t.kind === 'array') return inner;
    return new MDNode('DIDerivedType', ['DW_TAG_pointer_type', inner, '64'], ['tag', 'baseType', 'size']);
  }

  private basicType(e: ElemKind): MDNode {
    let b = this.basic.get(e);
    if (b === undefined) {
      b = new MDNode('DIBasicType', [e === 'int' ? '"int"' : '"float"', '32', e === 'int' ? 'DW_ATE_signed' : 'DW_ATE_float'], ['name', 'size', 'encoding']);
      this.basic.set(e, b);
    }
    return b;
  }

  /** A DILocalVariable (parameter `arg` ≥ 1, or 0 for a local) declared at `pos`, listed in the subprogram's retainedNodes. */
  variable(sp: MDNode, name: string, pos: number, type: SysYType, arg: number): MDNode | null {
    const t = this.diType(type);
    if (t === null) return null;
    const keys = ['name', 'scope', 'file', 'line', 'type'];
    const ops: MDOperand[] = [quoted(name), sp, this.file, String(this.source.loc(pos).line), t];
    if (arg > 0) {
      keys.splice(1, 0, 'arg');
      ops.splice(1, 0, String(arg));
    }
    return new MDNode('DILocalVariable', ops, keys);
  }

  /** `#dbg_declare(ptr slot, var, !DIExpression(), loc)`. */
  declare(slot: Value, v: MDNode, loc: MDNode): DbgRecord {
    return new DbgRecord('declare', [ValueAsMetadata.get(slot), v, this.expr], loc);
  }

  /** `#dbg_value(value, var, !DIExpression(), loc)`. */
  value(x: Value, v: MDNode, loc: MDNode): DbgRecord {
    return new DbgRecord('value', [ValueAsMetadata.get(x), v, this.expr], loc);
  }

  /** The location of source offset `pos` in `sp`. */
  location(sp: MDNode, pos: number): MDNode {
    const l = this.source.loc(pos);
    return getDILocation(l.line, l.col, sp);
  }
}

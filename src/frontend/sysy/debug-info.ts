/**
 * Debug info for SysY (`ssakit compile -g`), shaped as clang -g shapes it for C: one
 * DICompileUnit (language C11: SysY is a C subset, so debuggers read it as C) and DIFile,
 * `!llvm.dbg.cu` and the two module flags LLVM requires, a DISubprogram per defined
 * function (`!dbg` on the function) and uniqued DILocations for the instructions.
 */
import type { Function } from '../../ir/function.js';
import { getDILocation, MDNode, type MDOperand, MDString, ValueAsMetadata } from '../../ir/metadata.js';
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

  /** The location of source offset `pos` in `sp`. */
  location(sp: MDNode, pos: number): MDNode {
    const l = this.source.loc(pos);
    return getDILocation(l.line, l.col, sp);
  }
}

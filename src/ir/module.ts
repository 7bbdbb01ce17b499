/**
 * A module: named struct types, globals, functions, and the module-level text we keep
 * opaquely (attribute groups, metadata, module asm, comdats) so output stays faithful.
 *
 * Invariant: names of globals and functions are unique within the module (unnamed ones,
 * `@0`, have name '' and are numbered by the printer).
 */
import { Function, GlobalAlias, GlobalVariable } from './function.js';
import type { NamedMetadata, MDNode } from './metadata.js';
import { Type, namedStructType } from './types.js';
import { metadataHooks } from './value.js';

export class Module {
  sourceFilename: string | null = null;
  dataLayout: string | null = null;
  triple: string | null = null;
  /** The text this module was parsed from (for file:line:col in verifier reports), or null. */
  source: { file: string; text: string } | null = null;
  /** Identified struct types in definition order. */
  readonly structs: Type[] = [];
  readonly globals: GlobalVariable[] = [];
  readonly functions: Function[] = [];
  readonly aliases: GlobalAlias[] = [];
  /** `attributes #N = { ... }`: N → body text between the braces. */
  readonly attributeGroups = new Map<number, string>();
  /** Named metadata (`!llvm.dbg.cu = !{!0}`), in text order. */
  readonly namedMetadata: NamedMetadata[] = [];
  /**
   * Every numbered node read from the text, in definition order (`!N = …`): the printer
   * prints the ones still reachable. Null when the text had none (the printer then skips
   * numbering altogether).
   */
  mdNodes: MDNode[] | null = null;
  /** `module asm "..."` lines and `$name = comdat any` lines, as printed. */
  readonly moduleAsm: string[] = [];
  readonly comdats: string[] = [];

  private readonly structByName = new Map<string, Type>();
  private readonly symbols = new Map<string, Function | GlobalVariable | GlobalAlias>();

  constructor(public name = '') {}

  getStruct(name: string): Type | undefined {
    return this.structByName.get(name);
  }

  /** Returns the identified struct `name`, creating it opaque when new. */
  getOrCreateStruct(name: string): Type {
    let t = this.structByName.get(name);
    if (t === undefined) {
      t = namedStructType(name, null);
      this.structByName.set(name, t);
      this.structs.push(t);
    }
    return t;
  }

  getFunction(name: string): Function | undefined {
    const s = this.symbols.get(name);
    return s instanceof Function ? s : undefined;
  }

  getGlobal(name: string): GlobalVariable | undefined {
    const s = this.symbols.get(name);
    return s instanceof GlobalVariable ? s : undefined;
  }

  getSymbol(name: string): Function | GlobalVariable | GlobalAlias | undefined {
    return this.symbols.get(name);
  }

  private claim(name: string, v: Function | GlobalVariable | GlobalAlias): void {
    if (name === '') return;
    if (this.symbols.has(name)) throw new Error(`redefinition of global '@${name}'`);
    this.symbols.set(name, v);
  }

  addFunction(f: Function): Function {
    this.claim(f.name, f);
    f.parent = this;
    this.functions.push(f);
    return f;
  }

  /**
   * The function `name` of type `type`, declared when the module has no symbol of that name
   * (LLVM's Module::getOrInsertFunction); null when the name is taken by a global or by a
   * function of another type. Types are interned, so equal types are the same object.
   */
  getOrInsertFunction(name: string, type: Type): Function | null {
    const s = this.symbols.get(name);
    if (s === undefined) return this.addFunction(new Function(name, type));
    return s instanceof Function && s.fnType === type ? s : null;
  }

  addGlobal(g: GlobalVariable): GlobalVariable {
    this.claim(g.name, g);
    g.parent = this;
    this.globals.push(g);
    return g;
  }

  addAlias(a: GlobalAlias): GlobalAlias {
    this.claim(a.name, a);
    a.parent = this;
    this.aliases.push(a);
    return a;
  }

  /** Takes `f` out of the module; metadata naming it (debug records) turns poison. */
  removeFunction(f: Function): void {
    if (metadataHooks.active) metadataHooks.erased(f);
    const i = this.functions.indexOf(f);
    if (i >= 0) this.functions.splice(i, 1);
    if (this.symbols.get(f.name) === f) this.symbols.delete(f.name);
    f.parent = null;
  }

  /** Takes `g` out of the module; metadata naming it (debug records) turns poison. */
  removeGlobal(g: GlobalVariable): void {
    if (metadataHooks.active) metadataHooks.erased(g);
    const i = this.globals.indexOf(g);
    if (i >= 0) this.globals.splice(i, 1);
    if (this.symbols.get(g.name) === g) this.symbols.delete(g.name);
    g.parent = null;
  }

  /** A name not yet used by any global, based on `base` (`base`, `base.1`, …). */
  uniqueName(base: string): string {
    if (!this.symbols.has(base)) return base;
    for (let k = 1; ; k++) if (!this.symbols.has(`${base}.${k}`)) return `${base}.${k}`;
  }

  /** Renames a global value, keeping the symbol table exact. */
  rename(v: Function | GlobalVariable | GlobalAlias, name: string): void {
    if (this.symbols.get(v.name) === v) this.symbols.delete(v.name);
    v.name = name;
    this.claim(name, v);
  }

  /** Function definitions (not declarations). */
  definedFunctions(): Function[] {
    return this.functions.filter((f) => !f.isDeclaration());
  }
}

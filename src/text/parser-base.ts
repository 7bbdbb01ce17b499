/**
 * The state and token helpers every part of the LLVM IR parser shares (LLParser's core): the
 * lexer, the module being built, global symbol tables with forward references, per-function
 * slot tables, error reporting. The parser is a chain of classes, one file per part of the
 * grammar: ParserBase < TypeParser (types, attributes) < ValueParser (constants, local
 * references) < OperationParser (instruction operands by kind) < InstructionParser
 * (statements) < FunctionParser (headers, bodies, blocks) < Parser (module, globals);
 * src/text/parser.ts is the entry point. A part calls a later part only through the
 * abstract methods declared here.
 */
import { BasicBlock } from '../ir/basic-block.js';
import { DbgRecord } from '../ir/metadata.js';
import { MetadataReader } from './metadata-parser.js';
import { BlockAddress, ConstantNull } from '../ir/constants.js';
import { Function, GlobalAlias, GlobalVariable } from '../ir/function.js';
import { Module } from '../ir/module.js';
import { Type, aggregateStepType, functionType, i32, metadataType, voidType } from '../ir/types.js';
import { Value } from '../ir/value.js';
import { Lexer, Tok, TOK_NAMES } from './lexer.js';
import { isDeclarableIntrinsic, pendingIntrinsic, type PendingIntrinsic } from './intrinsic-declare.js';

export interface ParseOptions {
  /**
   * Called with each function definition as soon as its body has been read and checked, in
   * text order, before the rest of the module is read (src/driver/streaming.ts processes
   * modules function by function this way). At that point globals referenced but defined
   * further on are not in the module yet: `isPendingGlobal` says which they are. The callback
   * may transform the body, or delete it to free memory.
   */
  onFunction?: (fn: Function, isPendingGlobal: (g: Value) => boolean, bodyEnd: number) => void;
  /**
   * Called at the `{` of each definition (its source offset): return the offset just past
   * the closing `}` to skip the body unread (the function is then left without a body, and
   * `onFunction` is not called for it), or -1 to read it. Several threads reading one text,
   * each the bodies of its share, use this (src/driver/streaming-parallel.ts).
   */
  skipBody?: (fn: Function, brace: number) => number;
}

export const LINKAGES = new Set([
  'private', 'internal', 'available_externally', 'linkonce', 'weak', 'common', 'appending', 'extern_weak',
  'linkonce_odr', 'weak_odr', 'external',
]);

/** Words that may precede the type in a global or function header (kept as text). */
export const GLOBAL_PREFIX_WORDS = new Set([
  'dso_local', 'dso_preemptable', 'default', 'hidden', 'protected', 'dllimport', 'dllexport', 'unnamed_addr',
  'local_unnamed_addr', 'externally_initialized', 'thread_local', 'addrspace',
  // calling conventions
  'ccc', 'fastcc', 'coldcc', 'cc', 'webkit_jscc', 'anyregcc', 'preserve_mostcc', 'preserve_allcc', 'swiftcc',
  'tailcc', 'x86_stdcallcc', 'x86_fastcallcc', 'x86_thiscallcc', 'x86_vectorcallcc', 'x86_64_sysvcc', 'win64cc',
  'x86_regcallcc', 'intel_ocl_bicc', 'preserve_nonecc',
]);

/** A source offset; turned into line:column only when an error is reported. */
export type Loc = number;

/** Per-function symbol state. */
export class FunctionState {
  named = new Map<string, Value>();
  numbered: (Value | undefined)[] = [];
  nextNumber = 0;
  /** Forward references: placeholder → where it was first used. */
  forward = new Map<Value, { loc: Loc; name: string }>();
  blocksByName = new Map<string, BasicBlock>();
  blocksByNumber: (BasicBlock | undefined)[] = [];
  definedBlocks = new Set<BasicBlock>();
  /** Where each forward-referenced block was first used. */
  blockRefLoc = new Map<BasicBlock, Loc>();
  constructor(readonly fn: Function) {}
}

/**
 * Words LLParser reads after a function's parameter list (function attributes, and
 * unnamed_addr, section, comdat, align, gc, …); any other word there is an error.
 */
export const FUNCTION_SUFFIX_WORDS = new Set([
  'unnamed_addr', 'local_unnamed_addr', 'addrspace', 'section', 'partition', 'comdat', 'align', 'gc', 'prefix', 'prologue',
  'personality', 'alignstack', 'allockind', 'allocsize', 'alwaysinline', 'builtin', 'cold', 'convergent',
  'disable_sanitizer_instrumentation', 'fn_ret_thunk_extern', 'hot', 'hybrid_patchable', 'inlinehint', 'jumptable',
  'memory', 'minsize', 'mustprogress', 'naked', 'nobuiltin', 'nocallback', 'nocf_check', 'noduplicate', 'nofree',
  'noimplicitfloat', 'noinline', 'nomerge', 'nonlazybind', 'noprofile', 'norecurse', 'noredzone', 'noreturn',
  'nosanitize_bounds', 'nosanitize_coverage', 'nosync', 'nounwind', 'null_pointer_is_valid', 'optforfuzzing', 'optnone',
  'optsize', 'presplitcoroutine', 'readnone', 'readonly', 'returns_twice', 'safestack', 'sanitize_address',
  'sanitize_hwaddress', 'sanitize_memory', 'sanitize_memtag', 'sanitize_numerical_stability', 'sanitize_thread',
  'shadowcallstack', 'skipprofile', 'speculatable', 'speculative_load_hardening', 'ssp', 'sspreq', 'sspstrong',
  'strictfp', 'uwtable', 'vscale_range', 'willreturn', 'writeonly', 'argmemonly', 'inaccessiblememonly',
  'inaccessiblemem_or_argmemonly', 'fnretthunk', 'sanitize_realtime', 'sanitize_realtime_blocking', 'nooutline',
]);

/** Words of FUNCTION_SUFFIX_WORDS that belong to a function's definition, not to a call. */
export const DEFINITION_ONLY_WORDS = new Set([
  'unnamed_addr', 'local_unnamed_addr', 'addrspace', 'section', 'partition', 'comdat', 'align', 'gc', 'prefix', 'prologue', 'personality',
]);

export function isFunctionSuffixWord(w: string): boolean {
  return FUNCTION_SUFFIX_WORDS.has(w);
}

export abstract class ParserBase {
  protected lx: Lexer;
  protected m = new Module();
  /** Pre-scanned top-level definitions: '@name' → kind. */
  protected globalKinds = new Map<string, 'function' | 'variable' | 'alias'>();
  protected globalsByName = new Map<string, Function | GlobalVariable | GlobalAlias>();
  protected globalsByNumber: (Function | GlobalVariable | GlobalAlias | undefined)[] = [];
  protected definedGlobals = new Set<Value>();
  protected globalForwardLoc = new Map<Value, Loc>();
  /** Intrinsics called without a declaration (declared at the end: intrinsic-declare.ts), by placeholder. */
  protected pendingIntrinsics = new Map<Value, PendingIntrinsic>();
  protected nextGlobalNumber = 0;
  protected fs: FunctionState | null = null;
  protected readonly onFunction: ParseOptions['onFunction'] | null;
  protected readonly skipBody: ParseOptions['skipBody'] | null;
  protected readonly isPendingGlobal = (g: Value): boolean => this.globalForwardLoc.has(g) && !this.definedGlobals.has(g);
  /** blockaddress constants, resolved to blocks once every body has been read. */
  protected pendingBlockAddresses: { ba: BlockAddress; name: string; numbered: boolean; loc: Loc }[] = [];
  /** Block tables of parsed functions (kept only when a blockaddress needs them). */
  protected blockTables = new Map<Value, FunctionState>();
  /** Whether the text mentions blockaddress at all (checked once: keeping block tables costs memory). */
  protected mayHaveBlockAddresses = false;
  /** Blockaddress constants to resolve after all functions are parsed. */
  /** Metadata ids defined (`!N = …`), and where each id used was first used. */
  protected mdDefined = new Set<number>();
  /** Whether an entity other than `target …`/`source_filename` has been read. */
  protected sawEntity = false;
  protected mdUsed = new Map<number, Loc>();
  /** Reads metadata (see metadata-parser.ts). */
  protected readonly mdr: MetadataReader;
  /** Debug records read since the last instruction: they attach to the next one. */
  protected pendingRecords: DbgRecord[] | null = null;
  /** Whether a call to an `llvm.dbg.*` intrinsic was read (as a record). */
  protected sawDbgIntrinsic = false;

  protected noteMetadataRef(): void {
    const n = this.lx.num;
    if (!this.mdUsed.has(n)) this.mdUsed.set(n, this.lx.loc());
  }

  constructor(
    readonly text: string,
    readonly file: string,
    opts: ParseOptions = {},
  ) {
    this.onFunction = opts.onFunction ?? null;
    this.skipBody = opts.skipBody ?? null;
    this.lx = new Lexer(text, file);
    this.mayHaveBlockAddresses = text.includes('blockaddress');
    this.mdr = new MetadataReader(this.lx, {
      parseTypedValue: (allowLocal) => {
        const t = this.parseType();
        if (t === metadataType) this.error('invalid metadata-value-metadata roundtrip');
        return this.parseValueOrConstant(t, allowLocal && this.fs !== null);
      },
      error: (msg, loc) => this.error(msg, loc),
      describe: () => this.describe(),
    });
  }

  // ---- later parts of the chain, used by the metadata reader ----------------------

  /** A type (parser-types.ts). */
  abstract parseType(allowVoid?: boolean): Type;
  /** A constant of type `ty`, or (when `allowLocal`) a local `%x` (parser-values.ts). */
  protected abstract parseValueOrConstant(ty: Type, allowLocal: boolean): Value;

  // ---- helpers --------------------------------------------------------------------

  protected error(msg: string, loc?: Loc): never {
    this.lx.error(msg, loc);
  }

  protected describe(): string {
    const lx = this.lx;
    switch (lx.tk()) {
      case Tok.Word:
      case Tok.Int:
      case Tok.Float:
        return `'${lx.text}'`;
      case Tok.LocalVar:
        return `'%${lx.text}'`;
      case Tok.LocalVarID:
        return `'%${lx.num}'`;
      case Tok.GlobalVar:
        return `'@${lx.text}'`;
      case Tok.GlobalID:
        return `'@${lx.num}'`;
      default:
        return TOK_NAMES[lx.tk()];
    }
  }

  protected expect(t: Tok, what?: string): void {
    if (this.lx.tk() !== t) this.error(`expected ${what ?? TOK_NAMES[t]}, found ${this.describe()}`);
    this.lx.next();
  }

  protected isWord(w: string): boolean {
    return this.lx.tk() === Tok.Word && this.lx.text === w;
  }

  protected eatWord(w: string): boolean {
    if (this.lx.tk() === Tok.Word && this.lx.text === w) {
      this.lx.next();
      return true;
    }
    return false;
  }

  protected expectWord(w: string): void {
    if (!this.eatWord(w)) this.error(`expected '${w}', found ${this.describe()}`);
  }

  protected eat(t: Tok): boolean {
    if (this.lx.tk() === t) {
      this.lx.next();
      return true;
    }
    return false;
  }

  protected parseUInt(what = 'integer'): number {
    if (this.lx.tk() !== Tok.Int) this.error(`expected ${what}, found ${this.describe()}`);
    const v = Number(this.lx.text);
    if (!Number.isSafeInteger(v) || v < 0) this.error(`expected ${what}`);
    this.lx.next();
    return v;
  }

  /** The `, N, M…` indices of extractvalue/insertvalue into `agg`, and the type they reach. */
  protected parseAggregateIndices(agg: Type, opName: string, loc: Loc): { idx: number[]; t: Type } {
    const idx: number[] = [];
    let t = agg;
    // a comma before a metadata attachment (`, !dbg !7`) ends the indices
    while (this.lx.tk() === Tok.Comma && !this.lx.nextIsMetadataName()) {
      this.lx.next();
      const k = this.parseUInt('index');
      idx.push(k);
      t = aggregateStepType(t, k) ?? this.error(`invalid ${opName} index ${k} into '${t}'`, loc);
    }
    if (idx.length === 0) this.error(`${opName} needs at least one index`, loc);
    return { idx, t };
  }

  /** Skips a balanced `( … )` group starting at the current `(`; the current token afterwards follows it. */
  protected skipParens(): void {
    let depth = 0;
    do {
      if (this.lx.tk() === Tok.EOF) this.error("unterminated '('");
      if (this.lx.tk() === Tok.MetadataID) this.noteMetadataRef();
      if (this.lx.tk() === Tok.LParen) depth++;
      else if (this.lx.tk() === Tok.RParen) depth--;
      this.lx.next();
    } while (depth > 0);
  }
  // ---- globals ---------------------------------------------------------------------

  protected globalKey(): string {
    return this.lx.tk() === Tok.GlobalID ? '#' + this.lx.num : '@' + this.lx.text;
  }

  /**
   * The global named by the current token (created on first reference), consuming it.
   * With `expected` (the pointer type written before it), the global's own type must be
   * that one, as LLParser checks: a global in addrspace(1) is `ptr addrspace(1) @g`; a
   * forward reference takes the type of its first use, which the definition must match.
   */
  protected parseGlobalRef(expected?: Type): Function | GlobalVariable | GlobalAlias {
    const lx = this.lx;
    // fast path: a global already seen (no key string to build)
    const seen = lx.tk() === Tok.GlobalID ? this.globalsByNumber[lx.num] : this.globalsByName.get(lx.text);
    if (seen !== undefined) {
      if (expected !== undefined && seen.type !== expected) {
        this.error(`'${lx.tk() === Tok.GlobalID ? '@' + lx.num : '@' + lx.text}' defined with type '${seen.type}' but expected '${expected}'`);
      }
      lx.next();
      if (this.pendingIntrinsics.size > 0) this.countIntrinsicRef(seen);
      return seen;
    }
    const key = this.globalKey();
    const loc = lx.loc();
    lx.next();
    const g = this.globalFor(key, loc);
    if (expected !== undefined && g.type !== expected) {
      // a fresh placeholder of a variable or alias is typed by its use; a function's is `ptr`
      if (g instanceof Function) this.error(`'@${key.slice(1)}' defined with type '${g.type}' but expected '${expected}'`, loc);
      g.type = expected;
    }
    return g;
  }

  protected globalFor(key: string, loc: Loc): Function | GlobalVariable | GlobalAlias {
    const byNum = key.startsWith('#');
    const existing = byNum ? this.globalsByNumber[Number(key.slice(1))] : this.globalsByName.get(key.slice(1));
    if (existing !== undefined) {
      this.countIntrinsicRef(existing);
      return existing;
    }
    const kind = this.globalKinds.get(key);
    if (kind === undefined) {
      // LLParser declares an intrinsic called without a declaration itself
      if (!byNum && isDeclarableIntrinsic(key.slice(1))) {
        const p = pendingIntrinsic(key.slice(1), loc);
        p.refs++;
        this.pendingIntrinsics.set(p.fn, p);
        this.globalsByName.set(p.fn.name, p.fn);
        this.globalForwardLoc.set(p.fn, loc);
        return p.fn;
      }
      this.error(`use of undefined value '@${key.slice(1)}'`, loc);
    }
    const name = byNum ? '' : key.slice(1);
    let g: Function | GlobalVariable | GlobalAlias;
    if (kind === 'function') g = new Function(name, functionType(voidType, []));
    else if (kind === 'alias') g = new GlobalAlias(name, i32, ConstantNull.get());
    else g = new GlobalVariable(name, i32, null);
    if (byNum) this.globalsByNumber[Number(key.slice(1))] = g;
    else this.globalsByName.set(name, g);
    this.globalForwardLoc.set(g, loc);
    return g;
  }

  /** Counts a reference to a placeholder of an undeclared intrinsic (uses outside calls are errors). */
  protected countIntrinsicRef(g: Value): void {
    const p = this.pendingIntrinsics.get(g);
    if (p !== undefined) p.refs++;
  }

  /** Claims the slot for a definition of `key`, returning the pre-created object if any. */
  protected defineGlobal(key: string, loc: Loc): Function | GlobalVariable | GlobalAlias | undefined {
    if (key.startsWith('#')) {
      const n = Number(key.slice(1));
      // LLVM 19 lets numbers skip ahead (never back): the next unnamed one follows this one
      if (n < this.nextGlobalNumber) this.error(`global expected to be numbered '@${this.nextGlobalNumber}' or greater`, loc);
      this.nextGlobalNumber = n + 1;
      const g = this.globalsByNumber[n];
      return g;
    }
    const g = this.globalsByName.get(key.slice(1));
    if (g !== undefined && this.definedGlobals.has(g)) this.error(`redefinition of global '@${key.slice(1)}'`, loc);
    return g;
  }
}

/**
 * Parser for LLVM's textual IR (the subset C compilers produce), hand-written
 * recursive descent over the token stream of `Lexer`, in the shape of LLVM's LLParser.
 *
 * What it keeps: types, globals and their initializers, functions and every instruction
 * clang-19 and opt-19 print for C. What it keeps opaquely (as printed text, so output stays
 * faithful): attribute groups, parameter/return/function attributes, metadata nodes and
 * attachments, comdats, module asm. Legacy typed pointers (`i32*`) read as `ptr`.
 *
 * Metadata is read into the graph of ir/metadata.ts by metadata-parser.ts: numbered and
 * named metadata, attachments on instructions, functions and globals, metadata call
 * arguments and debug records (`#dbg_value(...)`, which attach to the next instruction).
 * Calls to the older `llvm.dbg.*` intrinsics become debug records, as opt-19 prints them.
 *
 * Invariants:
 *  - Unnamed values are numbered exactly as LLVM numbers them; an explicit `%N` must be
 *    the next number (as llvm-as requires). Numbered values get the empty name.
 *  - Forward references to locals are placeholders replaced (RAUW) at their definition;
 *    forward references to globals resolve through a pre-scan of top-level definitions,
 *    so constant initializers never hold placeholders.
 *  - Every error is a SourceError with file:line:col.
 */
import { BasicBlock } from '../ir/basic-block.js';
import { DbgRecord, type DbgRecordKind, type MDAttachment, MDNode, type MDOperand, MDKind, getAttachment } from '../ir/metadata.js';
import { MetadataReader } from './metadata-parser.js';
import {
  BlockAddress,
  Constant,
  ConstantAggregate,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantNull,
  ConstantString,
  ConstantZero,
  InlineAsmValue,
  MetadataValue,
  PoisonValue,
  UndefValue,
} from '../ir/constants.js';
import { Function, GlobalAlias, GlobalVariable } from '../ir/function.js';
import { CallAttrs, Instruction } from '../ir/instruction.js';
import { Module } from '../ir/module.js';
import { Flag, Opcode, OPCODE_BY_NAME, OPCODE_NAMES, Pred, fcmpPredByName, icmpPredByName, isBinaryOp, isCastOp } from '../ir/opcodes.js';
import {
  Type,
  TypeKind,
  aggregateStepType,
  arrayType,
  bfloatType,
  doubleType,
  floatType,
  fp128Type,
  functionType,
  gepStepType,
  halfType,
  i1,
  i32,
  intType,
  labelType,
  metadataType,
  ptrType,
  structType,
  tokenType,
  vectorType,
  voidType,
  x86fp80Type,
} from '../ir/types.js';
import { Argument, Value, ValueKind } from '../ir/value.js';
import { INTERN_SLOTS, Lexer, Tok, TOK_NAMES } from './lexer.js';
import { parseFloatLiteral } from './float-format.js';
import { dataLayoutProblem } from './datalayout.js';
import { foldIntConstant } from '../ir/constant-int-fold.js';
import { attributePlaceProblem, attributeTypeProblem, isAttributeWord, readAttributeArgument, stringFnAttributeProblem, type AttrHost } from './attributes.js';

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

/** Parses LLVM textual IR into a Module. Throws SourceError on malformed input. */
export function parseModule(text: string, fileName = '<input>', opts: ParseOptions = {}): Module {
  return new Parser(text, fileName, opts).parseModule();
}

const LINKAGES = new Set([
  'private', 'internal', 'available_externally', 'linkonce', 'weak', 'common', 'appending', 'extern_weak',
  'linkonce_odr', 'weak_odr', 'external',
]);

/** Words that may precede the type in a global or function header (kept as text). */
const GLOBAL_PREFIX_WORDS = new Set([
  'dso_local', 'dso_preemptable', 'default', 'hidden', 'protected', 'dllimport', 'dllexport', 'unnamed_addr',
  'local_unnamed_addr', 'externally_initialized', 'thread_local', 'addrspace',
  // calling conventions
  'ccc', 'fastcc', 'coldcc', 'cc', 'webkit_jscc', 'anyregcc', 'preserve_mostcc', 'preserve_allcc', 'swiftcc',
  'tailcc', 'x86_stdcallcc', 'x86_fastcallcc', 'x86_thiscallcc', 'x86_vectorcallcc', 'x86_64_sysvcc', 'win64cc',
  'x86_regcallcc', 'intel_ocl_bicc', 'preserve_nonecc',
]);

const FAST_MATH: Record<string, number> = {
  nnan: Flag.NNaN, ninf: Flag.NInf, nsz: Flag.NSZ, arcp: Flag.ARcp, contract: Flag.Contract, afn: Flag.AFn,
  reassoc: Flag.Reassoc, fast: Flag.NNaN | Flag.NInf | Flag.NSZ | Flag.ARcp | Flag.Contract | Flag.AFn | Flag.Reassoc,
};

/** Type keywords already seen (i32, ptr, …) → their types, so hot paths skip string parsing. */
const SIMPLE_TYPES = new Map<string, Type>([
  ['void', voidType], ['ptr', ptrType(0)], ['float', floatType], ['double', doubleType], ['half', halfType],
  ['bfloat', bfloatType], ['x86_fp80', x86fp80Type], ['fp128', fp128Type], ['label', labelType],
  ['metadata', metadataType], ['token', tokenType], ['i1', i1], ['i8', intType(8)], ['i16', intType(16)],
  ['i32', i32], ['i64', intType(64)],
]);

/** What may follow `, ` after a global variable's initializer (LLParser::parseGlobal). */
const GLOBAL_PROPERTIES = new Set([
  'section', 'partition', 'comdat', 'align', 'code_model', 'no_sanitize_address', 'no_sanitize_hwaddress',
  'sanitize_address_dyninit', 'sanitize_memtag',
]);

const TOP_LEVEL_WORDS = new Set(['define', 'declare', 'attributes', 'source_filename', 'target', 'module', 'uselistorder', 'uselistorder_bb']);

/** An open bracket of a type being read (Parser.parseType): what closes it, and what it holds so far. */
interface TypeFrame {
  kind: TypeKind;
  count: number;
  packed: boolean;
  /** Struct members or function parameters read so far. */
  items: Type[] | null;
  /** A function type's return type. */
  ret: Type | null;
  loc: number;
  allow: boolean;
}

/** A source offset; turned into line:column only when an error is reported. */
type Loc = number;

/** Per-function symbol state. */
class FunctionState {
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

/** `define …@name` / `declare …@name` at a line's first non-blank character (prescan, sticky). */
const FUNCTION_DEF = /(?:define|declare)\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)/y;
/** `@name = … global|constant|alias|ifunc` at a line's first non-blank character (prescan, sticky). */
const GLOBAL_DEF = /@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)[ \t]*=[^\n]*?\b(alias|ifunc|global|constant)\b/y;

/**
 * What the words at each intern slot of the lexer mean: one array load and a string compare
 * instead of a Map lookup for every opcode and type word read (1M instructions read about 3M
 * of them). A slot holds the last word looked up there; an entry is used only when its word
 * is the word, so a stale or colliding slot costs a lookup, never a wrong answer.
 */
class WordCache<T> {
  private readonly words: (string | undefined)[] = new Array<string | undefined>(INTERN_SLOTS).fill(undefined);
  private readonly values: (T | undefined)[] = new Array<T | undefined>(INTERN_SLOTS).fill(undefined);

  get(slot: number, w: string): T | undefined {
    return slot >= 0 && this.words[slot] === w ? this.values[slot] : undefined;
  }

  set(slot: number, w: string, v: T): void {
    if (slot < 0) return;
    this.words[slot] = w;
    this.values[slot] = v;
  }
}

class Parser {
  private lx: Lexer;
  private m = new Module();
  /** Pre-scanned top-level definitions: '@name' → kind. */
  private globalKinds = new Map<string, 'function' | 'variable' | 'alias'>();
  private globalsByName = new Map<string, Function | GlobalVariable | GlobalAlias>();
  private globalsByNumber: (Function | GlobalVariable | GlobalAlias | undefined)[] = [];
  private definedGlobals = new Set<Value>();
  private globalForwardLoc = new Map<Value, Loc>();
  private nextGlobalNumber = 0;
  private fs: FunctionState | null = null;
  private readonly onFunction: ParseOptions['onFunction'] | null;
  private readonly skipBody: ParseOptions['skipBody'] | null;
  private readonly isPendingGlobal = (g: Value): boolean => this.globalForwardLoc.has(g) && !this.definedGlobals.has(g);
  /** blockaddress constants, resolved to blocks once every body has been read. */
  private pendingBlockAddresses: { ba: BlockAddress; name: string; numbered: boolean; loc: Loc }[] = [];
  /** Block tables of parsed functions (kept only when a blockaddress needs them). */
  private blockTables = new Map<Value, FunctionState>();
  /** Whether the text mentions blockaddress at all (checked once: keeping block tables costs memory). */
  private mayHaveBlockAddresses = false;
  /** Blockaddress constants to resolve after all functions are parsed. */
  /** Metadata ids defined (`!N = …`), and where each id used was first used. */
  private mdDefined = new Set<number>();
  /** Whether an entity other than `target …`/`source_filename` has been read. */
  private sawEntity = false;
  private mdUsed = new Map<number, Loc>();
  /** Reads metadata (see metadata-parser.ts). */
  private readonly mdr: MetadataReader;
  /** Debug records read since the last instruction: they attach to the next one. */
  private pendingRecords: DbgRecord[] | null = null;
  /** Whether a call to an `llvm.dbg.*` intrinsic was read (as a record). */
  private sawDbgIntrinsic = false;

  private noteMetadataRef(): void {
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

  // ---- helpers --------------------------------------------------------------------

  private error(msg: string, loc?: Loc): never {
    this.lx.error(msg, loc);
  }

  private describe(): string {
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

  private expect(t: Tok, what?: string): void {
    if (this.lx.tk() !== t) this.error(`expected ${what ?? TOK_NAMES[t]}, found ${this.describe()}`);
    this.lx.next();
  }

  private isWord(w: string): boolean {
    return this.lx.tk() === Tok.Word && this.lx.text === w;
  }

  private eatWord(w: string): boolean {
    if (this.lx.tk() === Tok.Word && this.lx.text === w) {
      this.lx.next();
      return true;
    }
    return false;
  }

  private expectWord(w: string): void {
    if (!this.eatWord(w)) this.error(`expected '${w}', found ${this.describe()}`);
  }

  private eat(t: Tok): boolean {
    if (this.lx.tk() === t) {
      this.lx.next();
      return true;
    }
    return false;
  }

  private parseUInt(what = 'integer'): number {
    if (this.lx.tk() !== Tok.Int) this.error(`expected ${what}, found ${this.describe()}`);
    const v = Number(this.lx.text);
    if (!Number.isSafeInteger(v) || v < 0) this.error(`expected ${what}`);
    this.lx.next();
    return v;
  }

  /** The `, N, M…` indices of extractvalue/insertvalue into `agg`, and the type they reach. */
  private parseAggregateIndices(agg: Type, opName: string, loc: Loc): { idx: number[]; t: Type } {
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
  private skipParens(): void {
    let depth = 0;
    do {
      if (this.lx.tk() === Tok.EOF) this.error("unterminated '('");
      if (this.lx.tk() === Tok.MetadataID) this.noteMetadataRef();
      if (this.lx.tk() === Tok.LParen) depth++;
      else if (this.lx.tk() === Tok.RParen) depth--;
      this.lx.next();
    } while (depth > 0);
  }

  // ---- module -----------------------------------------------------------------------

  /** Where the last `target datalayout` string was (-1: none); validated at the end. */
  private dataLayoutLoc: Loc = -1;

  parseModule(): Module {
    this.m.source = { file: this.file, text: this.text };
    this.prescan();
    const lx = this.lx;
    lx.next();
    while (lx.tk() !== Tok.EOF) {
      if (!(lx.tk() === Tok.Word && (lx.text === 'target' || lx.text === 'source_filename'))) this.sawEntity = true;
      switch (lx.tk()) {
        case Tok.Word:
          this.parseTopLevelWord();
          break;
        case Tok.GlobalVar:
        case Tok.GlobalID:
          this.parseGlobal();
          break;
        case Tok.LocalVar:
          this.parseNamedType();
          break;
        case Tok.LocalVarID:
          this.error('numbered struct types are not supported; give the type a name');
          break;
        case Tok.MetadataVar:
        case Tok.MetadataID:
          this.parseMetadataDef();
          break;
        default:
          if (lx.tk() === Tok.Word || lx.text.startsWith('$')) this.parseTopLevelWord();
          else this.error(`expected a top-level entity, found ${this.describe()}`);
      }
    }
    for (const id of this.groupRefs) {
      const p = this.groupProblems.get(id);
      if (p !== undefined) this.error(p.msg, p.loc);
    }
    if (this.dataLayoutLoc >= 0) {
      const problem = dataLayoutProblem(this.m.dataLayout ?? "");
      if (problem !== null) this.error(problem, this.dataLayoutLoc);
    }
    for (const [g, loc] of this.globalForwardLoc) {
      if (!this.definedGlobals.has(g)) this.error(`use of undefined value '@${g.name}'`, loc);
    }
    for (const [n, loc] of this.mdUsed) if (!this.mdDefined.has(n)) this.error(`use of undefined metadata '!${n}'`, loc);
    for (const [n, loc] of this.mdr.pendingUse) this.error(`use of undefined metadata '!${n}'`, loc);
    if (this.mdr.defined.length > 0) this.m.mdNodes = this.mdr.defined;
    if (this.sawDbgIntrinsic) {
      // as opt-19, which reads them as debug records: the intrinsics' declarations go
      for (const f of this.m.functions.slice()) if (f.name.startsWith('llvm.dbg.') && f.isDeclaration() && !f.hasUses()) this.m.removeFunction(f);
    }
    for (const p of this.pendingBlockAddresses) {
      const fs = this.blockTables.get(p.ba.fn);
      if (fs === undefined && p.ba.fn.kind === ValueKind.Function && (p.ba.fn as Function).isDeclaration()) this.error('cannot take blockaddress inside a declaration', p.loc);
      const bb = fs === undefined ? undefined : p.numbered ? fs.blocksByNumber[Number(p.name)] : fs.blocksByName.get(p.name);
      if (bb === undefined) this.error(`blockaddress names an unknown block '%${p.name}'`, p.loc);
      p.ba.block = bb;
    }
    return this.m;
  }

  /**
   * Records the kind of every top-level `@name` definition so that forward references
   * (function pointer tables before the functions, say) create the right object.
   */
  private prescan(): void {
    // The regexes match at the first non-blank character of a line. Lines are found with
    // indexOf (a vectorized search), and only lines starting with `d` or `@` are tried: a
    // multiline `^` regex over the whole text tests every position, which cost 60–120 ms
    // on a 40 MB module.
    const text = this.text;
    const n = text.length;
    for (let p = 0; p < n; ) {
      let q = p;
      let c = text.charCodeAt(q);
      while (c === 32 || c === 9) c = text.charCodeAt(++q);
      if (c === 100 /* d */) {
        FUNCTION_DEF.lastIndex = q;
        const m = FUNCTION_DEF.exec(text);
        if (m !== null) {
          this.globalKinds.set(keyOf(m[1]), 'function');
          q = FUNCTION_DEF.lastIndex; // a quoted name may span lines
        }
      } else if (c === 64 /* @ */) {
        GLOBAL_DEF.lastIndex = q;
        const m = GLOBAL_DEF.exec(text);
        if (m !== null) {
          this.globalKinds.set(keyOf(m[1]), m[2] === 'alias' || m[2] === 'ifunc' ? 'alias' : 'variable');
          q = GLOBAL_DEF.lastIndex;
        }
      }
      const nl = text.indexOf('\n', q);
      if (nl < 0) break;
      p = nl + 1;
    }
    function keyOf(raw: string): string {
      if (raw.startsWith('"')) return '@' + raw.slice(1, -1).replace(/\\([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
      return /^[0-9]+$/.test(raw) ? '#' + raw : '@' + raw;
    }
  }

  private parseTopLevelWord(): void {
    const lx = this.lx;
    const w = lx.text;
    if (lx.tk() === Tok.Word && w.startsWith('$')) {
      // $name = comdat any
      const start = lx.start;
      lx.next();
      this.skipToLineEnd(start, this.m.comdats);
      return;
    }
    switch (w) {
      case 'define':
        lx.next();
        this.parseFunction(true);
        return;
      case 'declare':
        lx.next();
        this.parseFunction(false);
        return;
      case 'source_filename':
        // LLVM 19 reads the target definitions and source_filename before any other entity
        if (this.sawEntity) this.error('expected top-level entity');
        lx.next();
        this.expect(Tok.Equal);
        if (lx.tk() !== Tok.String) this.error('expected string');
        this.m.sourceFilename = lx.text;
        lx.next();
        return;
      case 'target': {
        if (this.sawEntity) this.error('expected top-level entity');
        lx.next();
        const which = lx.text;
        if (!this.eatWord('datalayout') && !this.eatWord('triple')) this.error("expected 'datalayout' or 'triple'");
        this.expect(Tok.Equal);
        if (lx.tk() !== Tok.String) this.error('expected string');
        if (which === 'datalayout') {
          // LLVM 19 reads the string now and the layout once the module is read: the last one
          // counts, and only it must be valid
          this.dataLayoutLoc = lx.loc();
          this.m.dataLayout = lx.text;
        }
        else this.m.triple = lx.text;
        lx.next();
        return;
      }
      case 'module': {
        const start = lx.start;
        lx.next();
        this.expectWord('asm');
        if (lx.tk() !== Tok.String) this.error('expected string');
        lx.next();
        this.m.moduleAsm.push(lx.slice(start, lx.prevEnd).trim());
        return;
      }
      case 'attributes': {
        lx.next();
        if (lx.tk() !== Tok.AttrGrpID) this.error('expected attribute group id');
        const id = lx.num;
        lx.next();
        this.expect(Tok.Equal);
        if (lx.tk() !== Tok.LBrace) this.error("expected '{'");
        const bodyStart = lx.pos;
        lx.next();
        // LLParser reads attributes up to '}': anything else is "unterminated attribute group"
        for (;;) {
          const t = lx.tk();
          if (t === Tok.RBrace) break;
          if (t === Tok.Word && (isFunctionSuffixWord(lx.text) || isAttributeWord(lx.text))) {
            const w = lx.text;
            const wloc = lx.loc();
            // a group holds function attributes only (LLParser::parseFnAttributeValuePairs)
            const problem = attributePlaceProblem(w, 'group');
            if (problem !== null) this.error(problem, wloc);
            lx.next();
            if (w === 'allockind') this.parseAllocKind();
            else if (w === 'align') {
              this.expect(Tok.Equal, "'='");
              this.parseUInt();
            } else if (readAttributeArgument(this.attrHost, w, 'group')) {
              /* read */
            } else if (lx.tk() === Tok.LParen) {
              if (w !== 'allocsize') this.error('unterminated attribute group');
              this.skipParens();
            }
            continue;
          }
          if (t === Tok.String) {
            const key = lx.text;
            const kloc = lx.loc();
            let value: string | null = null;
            lx.next();
            if (lx.tk() === Tok.Equal) {
              lx.next();
              if (lx.tk() !== Tok.String) this.error('expected string');
              value = lx.text;
              lx.next();
            }
            // the verifier checks it on the functions and calls that use the group
            const problem = stringFnAttributeProblem(key, value);
            if (problem !== null && !this.groupProblems.has(id)) this.groupProblems.set(id, { msg: problem, loc: kloc });
            continue;
          }
          this.error('unterminated attribute group');
        }
        const bodyEnd = lx.start;
        lx.next();
        this.m.attributeGroups.set(id, lx.slice(bodyStart, bodyEnd).trim());
        return;
      }
      case 'uselistorder':
      case 'uselistorder_bb': {
        // use-list order directives do not change meaning; skip the line
        this.skipToLineEnd(lx.start, null);
        return;
      }
      default:
        this.error(`expected a top-level entity, found ${this.describe()}`);
    }
  }

  /** Skips tokens to the end of the current line, optionally recording the raw text. */
  private skipToLineEnd(start: number, into: string[] | null): void {
    const lx = this.lx;
    const line = lx.tokLine;
    while (lx.tk() !== Tok.EOF && lx.tokLine === line) lx.next();
    if (into !== null) into.push(lx.slice(start, lx.prevEnd).trim());
  }

  private parseNamedType(): void {
    const lx = this.lx;
    const name = lx.text;
    const loc = lx.loc();
    lx.next();
    this.expect(Tok.Equal);
    this.expectWord('type');
    const t = this.m.getOrCreateStruct(name);
    if (!t.opaque && t.members.length > 0) this.error(`redefinition of type '%${name}'`, loc);
    if (this.eatWord('opaque')) return;
    let packed = false;
    if (lx.tk() === Tok.Less) {
      packed = true;
      lx.next();
    }
    if (lx.tk() !== Tok.LBrace) this.error("expected '{' or 'opaque' in type definition");
    lx.next();
    const members: Type[] = [];
    if (lx.tk() !== Tok.RBrace) {
      do members.push(this.parseType());
      while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace);
    if (packed) this.expect(Tok.Greater);
    t.members = members;
    t.packed = packed;
    t.opaque = false;
  }

  private parseMetadataDef(): void {
    const lx = this.lx;
    if (lx.tk() === Tok.MetadataID) {
      // LLParser: each !N is defined once, and every !N used is defined somewhere
      if (this.mdDefined.has(lx.num)) this.error('Metadata id is already used');
      this.mdDefined.add(lx.num);
      this.mdr.parseNumberedDefinition();
      return;
    }
    const name = lx.text;
    lx.next();
    this.expect(Tok.Equal, "'=' in metadata definition");
    const ops = this.mdr.parseNamedOperands();
    const prev = this.m.namedMetadata.find((n) => n.name === name);
    if (prev !== undefined) prev.ops.push(...ops);
    else this.m.namedMetadata.push({ name, ops });
  }

  /** Skips one metadata value: `!{…}`, `!N`, `!"s"`, `!DIFoo(…)`, or a typed constant inside a node. */
  private skipMetadataValue(): void {
    const lx = this.lx;
    if (lx.tk() === Tok.MetadataID) {
      this.noteMetadataRef();
      lx.next();
      return;
    }
    if (lx.tk() === Tok.Exclaim) {
      lx.next();
      if (lx.tk() === Tok.String) {
        lx.next();
        return;
      }
      if (lx.tk() === Tok.LBrace) {
        let depth = 0;
        do {
          if (lx.tk() === Tok.EOF) this.error('unterminated metadata node');
          if (lx.tk() === Tok.MetadataID) this.noteMetadataRef();
          if (lx.tk() === Tok.LBrace) depth++;
          else if (lx.tk() === Tok.RBrace) depth--;
          lx.next();
        } while (depth > 0);
        return;
      }
      this.error('expected metadata');
    }
    if (lx.tk() === Tok.MetadataVar) {
      // !DILocation(...) specialized nodes; a bare !name is not a metadata value (LLParser)
      const loc = lx.loc();
      lx.next();
      if (lx.tk() !== Tok.LParen) this.error('expected metadata type', loc);
      this.skipParens();
      return;
    }
    this.error(`expected metadata, found ${this.describe()}`);
  }

  // ---- globals ---------------------------------------------------------------------

  private globalKey(): string {
    return this.lx.tk() === Tok.GlobalID ? '#' + this.lx.num : '@' + this.lx.text;
  }

  /** The global named by the current token (created on first reference), consuming it. */
  private parseGlobalRef(): Function | GlobalVariable | GlobalAlias {
    const lx = this.lx;
    // fast path: a global already seen (no key string to build)
    const seen = lx.tk() === Tok.GlobalID ? this.globalsByNumber[lx.num] : this.globalsByName.get(lx.text);
    if (seen !== undefined) {
      lx.next();
      return seen;
    }
    const key = this.globalKey();
    const loc = lx.loc();
    lx.next();
    return this.globalFor(key, loc);
  }

  private globalFor(key: string, loc: Loc): Function | GlobalVariable | GlobalAlias {
    const byNum = key.startsWith('#');
    const existing = byNum ? this.globalsByNumber[Number(key.slice(1))] : this.globalsByName.get(key.slice(1));
    if (existing !== undefined) return existing;
    const kind = this.globalKinds.get(key);
    if (kind === undefined) this.error(`use of undefined value '@${key.slice(1)}'`, loc);
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

  /** Claims the slot for a definition of `key`, returning the pre-created object if any. */
  private defineGlobal(key: string, loc: Loc): Function | GlobalVariable | GlobalAlias | undefined {
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

  private parseGlobal(): void {
    const lx = this.lx;
    const key = this.globalKey();
    const loc = lx.loc();
    lx.next();
    this.expect(Tok.Equal);
    let linkage = '';
    if (lx.tk() === Tok.Word && LINKAGES.has(lx.text)) {
      linkage = lx.text;
      lx.next();
    }
    const prefixStart = lx.start;
    while (lx.tk() === Tok.Word && GLOBAL_PREFIX_WORDS.has(lx.text)) {
      lx.next();
      if (lx.tk() === Tok.LParen) this.skipParens();
    }
    const prefix = lx.slice(prefixStart, lx.prevEnd).trim();
    if (this.isWord('alias') || this.isWord('ifunc')) {
      const isIfunc = lx.text === 'ifunc';
      lx.next();
      const vt = this.parseType();
      this.expect(Tok.Comma);
      const at = this.parseType();
      const aliasee = this.parseConstant(at);
      const suffixStart = lx.start;
      this.skipGlobalSuffix();
      if (isIfunc) this.error('ifunc is not supported', loc);
      let a = this.defineGlobal(key, loc) as GlobalAlias | undefined;
      if (a !== undefined && !(a instanceof GlobalAlias)) this.error('alias conflicts with an earlier reference', loc);
      const name = key.startsWith('#') ? '' : key.slice(1);
      if (a === undefined) {
        a = new GlobalAlias(name, vt, aliasee);
        if (key.startsWith('#')) this.globalsByNumber[Number(key.slice(1))] = a;
        else this.globalsByName.set(name, a);
      } else {
        (a as { valueType: Type }).valueType = vt;
        a.aliasee = aliasee;
      }
      a.attrs = { linkage, prefix, suffix: lx.slice(suffixStart, lx.prevEnd).trim() };
      this.definedGlobals.add(a);
      this.m.addAlias(a);
      return;
    }
    let isConstant: boolean;
    if (this.eatWord('global')) isConstant = false;
    else if (this.eatWord('constant')) isConstant = true;
    else this.error(`expected 'global' or 'constant', found ${this.describe()}`);
    const vt = this.parseType();
    let init: Constant | null = null;
    const isDecl = linkage === 'external' || linkage === 'extern_weak';
    if (!isDecl) init = this.parseConstant(vt);
    let g = this.defineGlobal(key, loc) as GlobalVariable | undefined;
    if (g !== undefined && !(g instanceof GlobalVariable)) this.error('global variable conflicts with an earlier reference', loc);
    const name = key.startsWith('#') ? '' : key.slice(1);
    if (g === undefined) {
      g = new GlobalVariable(name, vt, init, isConstant);
      if (key.startsWith('#')) this.globalsByNumber[Number(key.slice(1))] = g;
      else this.globalsByName.set(name, g);
    } else {
      (g as { valueType: Type }).valueType = vt;
      g.initializer = init;
      g.isConstant = isConstant;
    }
    // , section "x", , comdat, , align N, , !dbg !3 ...
    let suffix = '';
    while (lx.tk() === Tok.Comma) {
      const s = lx.start;
      lx.next();
      if (this.isWord('align')) {
        lx.next();
        g.align = this.parseAlignment(false);
        continue;
      }
      if (lx.tk() === Tok.MetadataVar) {
        const a = this.mdr.parseAttachment(false);
        g.md = g.md === null ? [a] : [...g.md, a];
        continue;
      } else if (lx.tk() === Tok.Word) {
        if (!GLOBAL_PROPERTIES.has(lx.text)) this.error('unknown global variable property!');
        lx.next();
        while (lx.tk() === Tok.String || lx.tk() === Tok.LParen || lx.tk() === Tok.Int) {
          if (lx.tk() === Tok.LParen) this.skipParens();
          else lx.next();
        }
      } else this.error(`unexpected ${this.describe()} after global variable`);
      suffix += lx.slice(s, lx.prevEnd).trimEnd();
    }
    // llvm-as-19 also takes `align N` without a comma after the properties (repeated; the last counts)
    while (this.isWord('align')) {
      lx.next();
      g.align = this.parseAlignment(false);
    }
    g.attrs = { linkage: isDecl && linkage === 'external' ? 'external' : linkage, prefix, suffix };
    this.definedGlobals.add(g);
    this.m.addGlobal(g);
  }

  private skipGlobalSuffix(): void {
    const lx = this.lx;
    while (lx.tk() === Tok.Comma) {
      lx.next();
      if (lx.tk() === Tok.MetadataVar) {
        lx.next();
        this.skipMetadataValue();
      } else {
        lx.next();
        while (lx.tk() === Tok.String || lx.tk() === Tok.LParen || lx.tk() === Tok.Int) {
          if (lx.tk() === Tok.LParen) this.skipParens();
          else lx.next();
        }
      }
    }
  }

  // ---- types --------------------------------------------------------------------------

  /** Opcode and type words already looked up (see WordCache). */
  private readonly opcodes = new WordCache<Opcode>();
  private readonly types = new WordCache<Type>();

  /** The opcode a word names (undefined for other words). */
  private opcodeOf(w: string): Opcode | undefined {
    const slot = this.lx.slot;
    let op = this.opcodes.get(slot, w);
    if (op === undefined) {
      op = OPCODE_BY_NAME.get(w);
      if (op !== undefined) this.opcodes.set(slot, w, op);
    }
    return op;
  }

  /**
   * A type. Iterative, with an explicit stack of the open brackets (`[N x`, `<N x`, `{`,
   * `<{`, a function type's `(`), so types nested thousands deep (llvm-as-19 reads 10,000)
   * cannot overflow the JS stack.
   */
  parseType(allowVoid = true): Type {
    const lx = this.lx;
    const stack: TypeFrame[] = [];
    let allow = allowVoid;
    let loc = lx.loc();
    for (;;) {
      // the head of a type: a word, a name, or an opening bracket (which pushes a frame)
      loc = lx.loc();
      let t: Type | null = null;
      switch (lx.tk()) {
        case Tok.Word: {
          t = this.simpleType(lx.text, loc);
          lx.next();
          if (t.kind === TypeKind.Ptr && this.isWord('addrspace')) {
            lx.next();
            this.expect(Tok.LParen);
            t = ptrType(this.parseUInt('address space'));
            this.expect(Tok.RParen);
          }
          break;
        }
        case Tok.LSquare: {
          lx.next();
          const n = this.parseUInt('array length');
          this.expectWord('x');
          stack.push({ kind: TypeKind.Array, count: n, packed: false, items: null, ret: null, loc, allow });
          break;
        }
        case Tok.Less: {
          lx.next();
          if (lx.tk() === Tok.LBrace) {
            lx.next();
            if (lx.tk() === Tok.RBrace) {
              lx.next();
              this.expect(Tok.Greater);
              t = structType([], true);
            } else stack.push({ kind: TypeKind.Struct, count: 0, packed: true, items: [], ret: null, loc, allow });
            break;
          }
          if (this.eatWord('vscale')) this.error('scalable vectors are not supported', loc);
          const n = this.parseUInt('vector length');
          this.expectWord('x');
          stack.push({ kind: TypeKind.Vector, count: n, packed: false, items: null, ret: null, loc, allow });
          break;
        }
        case Tok.LBrace:
          lx.next();
          if (lx.tk() === Tok.RBrace) {
            lx.next();
            t = structType([], false);
          } else stack.push({ kind: TypeKind.Struct, count: 0, packed: false, items: [], ret: null, loc, allow });
          break;
        case Tok.LocalVar:
          t = this.m.getOrCreateStruct(lx.text);
          lx.next();
          break;
        default:
          this.error(`expected type, found ${this.describe()}`, loc);
      }
      if (t === null) {
        allow = false; // an element, member or parameter is never void
        continue;
      }
      // a complete type: its suffixes, then the frames it completes
      for (;;) {
        let opened = false;
        // legacy suffixes: `*` pointers and `(params)` function types
        for (;;) {
          if (lx.tk() === Tok.Star) {
            lx.next();
            t = ptrType(0);
          } else if (this.isWord('addrspace') && t.kind !== TypeKind.Ptr) {
            lx.next();
            this.expect(Tok.LParen);
            const as = this.parseUInt();
            this.expect(Tok.RParen);
            this.expect(Tok.Star);
            t = ptrType(as);
          } else if (lx.tk() === Tok.LParen) {
            lx.next();
            if (lx.tk() === Tok.RParen) {
              lx.next();
              t = functionType(t, [], false);
            } else if (lx.tk() === Tok.DotDotDot) {
              lx.next();
              this.expect(Tok.RParen);
              t = functionType(t, [], true);
            } else {
              stack.push({ kind: TypeKind.Function, count: 0, packed: false, items: [], ret: t, loc, allow });
              opened = true;
              break;
            }
          } else break;
        }
        if (opened) break;
        if (!allow && t === voidType) this.error('void is not a valid element type here', loc);
        const f = stack.pop();
        if (f === undefined) return t;
        if (f.kind === TypeKind.Array || f.kind === TypeKind.Vector) {
          this.expect(f.kind === TypeKind.Array ? Tok.RSquare : Tok.Greater);
          t = f.kind === TypeKind.Array ? arrayType(t, f.count) : vectorType(t, f.count);
        } else if (f.kind === TypeKind.Struct) {
          f.items!.push(t);
          if (this.eat(Tok.Comma)) {
            stack.push(f);
            break;
          }
          this.expect(Tok.RBrace);
          if (f.packed) this.expect(Tok.Greater);
          t = structType(f.items!, f.packed);
        } else {
          f.items!.push(t);
          this.skipParamAttrs('param', t);
          let vararg = false;
          if (this.eat(Tok.Comma)) {
            if (lx.tk() !== Tok.DotDotDot) {
              stack.push(f);
              break;
            }
            lx.next();
            vararg = true;
          }
          this.expect(Tok.RParen);
          t = functionType(f.ret!, f.items!, vararg);
        }
        loc = f.loc;
        allow = f.allow;
      }
      allow = false;
    }
  }

  private simpleType(w: string, loc: Loc): Type {
    const slot = this.lx.slot;
    const cached = this.types.get(slot, w);
    if (cached !== undefined) return cached;
    const known = SIMPLE_TYPES.get(w);
    if (known !== undefined) {
      this.types.set(slot, w, known);
      return known;
    }
    const c = w.charCodeAt(0);
    if (c === 105 /* i */ && w.length > 1) {
      const bits = Number(w.slice(1));
      if (Number.isInteger(bits) && bits > 0 && bits <= 8388608 && /^i[0-9]+$/.test(w)) {
        const t = intType(bits);
        SIMPLE_TYPES.set(w, t);
        return t;
      }
    }
    switch (w) {
      case 'void': return voidType;
      case 'ptr': return ptrType(0);
      case 'float': return floatType;
      case 'double': return doubleType;
      case 'half': return halfType;
      case 'bfloat': return bfloatType;
      case 'x86_fp80': return x86fp80Type;
      case 'fp128': return fp128Type;
      case 'label': return labelType;
      case 'metadata': return metadataType;
      case 'token': return tokenType;
      case 'ppc_fp128':
      case 'x86_amx':
      case 'x86_mmx':
        this.error(`type '${w}' is not supported`, loc);
    }
    this.error(`expected type, found '${w}'`, loc);
  }

  /**
   * Reads parameter (or return) attributes as LLParser does, returning their text: each word
   * must be allowed in that place (src/text/attributes.ts) and its argument well formed; with
   * `type`, the verifier's type rules are checked too (for a return value, the caller checks
   * `lastAttrWords` once it has read the type).
   */
  private skipParamAttrs(place: 'param' | 'ret' = 'param', type: Type | null = null): string {
    const lx = this.lx;
    const start = lx.start;
    let any = false;
    const words: { w: string; start: number; loc: Loc }[] = [];
    for (;;) {
      if (lx.tk() === Tok.Word && isAttributeWord(lx.text)) {
        const w = lx.text;
        const wloc = lx.loc();
        const problem = attributePlaceProblem(w, place);
        if (problem !== null) this.error(problem, wloc);
        lx.next();
        any = true;
        if (w === 'align') this.parseAlignment(true);
        else if (w === 'range') this.parseRangeAttr();
        else if (!readAttributeArgument(this.attrHost, w, place) && lx.tk() === Tok.LParen) this.error("expected ',' or ')'");
        words.push({ w, start: wloc, loc: wloc });
        continue;
      }
      if (lx.tk() === Tok.String) {
        // "string" attributes on parameters
        lx.next();
        any = true;
        if (lx.tk() === Tok.Equal) {
          lx.next();
          lx.next();
        }
        continue;
      }
      break;
    }
    this.lastAttrWords = words.map((x, k) => ({ w: x.w, loc: x.loc, text: lx.slice(x.start, k + 1 < words.length ? words[k + 1].start : lx.prevEnd).trim() }));
    if (type !== null) this.checkAttrTypes(type);
    return any ? lx.slice(start, lx.prevEnd).trim() : '';
  }

  /** The attributes the last skipParamAttrs read: word, place and text (for the type rules). */
  private lastAttrWords: { w: string; loc: Loc; text: string }[] = [];

  /** The verifier's type rules for the attributes just read, on a value of type `t`. */
  private checkAttrTypes(t: Type): void {
    for (const a of this.lastAttrWords) {
      const problem = attributeTypeProblem(a.w, a.text.replace(/\s+"[^"]*"(=".*)?$/, ''), t);
      if (problem !== null) this.error(problem, a.loc);
    }
  }

  /** A group's first string attribute the verifier rejects ("frame-pointer"="x"), by group id. */
  private groupProblems = new Map<number, { msg: string; loc: Loc }>();
  /** The groups functions and calls refer to (checked once every group is read). */
  private groupRefs: number[] = [];

  /** A `"key"="value"` function attribute, checked by the verifier's rules for function string attributes. */
  private stringFnAttribute(): void {
    const lx = this.lx;
    const key = lx.text;
    const loc = lx.loc();
    let value: string | null = null;
    lx.next();
    if (lx.tk() === Tok.Equal) {
      lx.next();
      if (lx.tk() === Tok.String) value = lx.text;
      lx.next();
    }
    const problem = stringFnAttributeProblem(key, value);
    if (problem !== null) this.error(problem, loc);
  }

  /** What src/text/attributes.ts needs of this parser. */
  private readonly attrHost: AttrHost = ((p: Parser): AttrHost => ({
    get lx(): Lexer {
      return p.lx;
    },
    parseType: (allowVoid?: boolean) => p.parseType(allowVoid),
    fail: (msg: string, loc?: Loc) => p.error(msg, loc),
  }))(this);

  // ---- constants ------------------------------------------------------------------------

  /**
   * The value after `align` (or `align(N)` when `parens` allows it), checked as LLParser
   * checks it: a non-negative integer, a power of two, at most 2^32.
   */
  private parseAlignment(parens: boolean): number {
    const lx = this.lx;
    const paren = parens && lx.tk() === Tok.LParen;
    if (paren) lx.next();
    const loc = lx.loc();
    if (lx.tk() !== Tok.Int || lx.text.startsWith('-')) this.error('expected integer', loc);
    const v = BigInt(lx.text);
    if (v > 4294967296n) this.error('huge alignments are not supported yet', loc);
    if (v === 0n || (v & (v - 1n)) !== 0n) this.error('alignment is not a power of two', loc);
    lx.next();
    if (paren) this.expect(Tok.RParen);
    return Number(v);
  }

  /** `range(iN lo, hi)`: an integer type, two integers that fit it, not the full or empty set. */
  private parseRangeAttr(): void {
    const lx = this.lx;
    this.expect(Tok.LParen);
    const tloc = lx.loc();
    const t = this.parseType();
    if (t.kind !== TypeKind.Int) this.error('the range must have integer type!', tloc);
    const bound = (): bigint => {
      const loc = lx.loc();
      if (lx.tk() !== Tok.Int) this.error('expected integer', loc);
      const v = BigInt(lx.text);
      // LLParser reads an APSInt: it must fit the width, as a signed or an unsigned number
      const bits = BigInt(t.bits);
      if (v < 0n ? v < -(1n << (bits - 1n)) : v >= 1n << bits) this.error('integer is too large for the bit width of specified type', loc);
      lx.next();
      return BigInt.asUintN(t.bits, v);
    };
    const lo = bound();
    this.expect(Tok.Comma);
    const hiLoc = lx.loc();
    const hi = bound();
    if (lo === hi) this.error('the range should not represent the full or empty set!', hiLoc);
    this.expect(Tok.RParen);
  }

  /** `allocsize(N)` / `allocsize(N, M)`: distinct indices of integer parameters (LLParser and the verifier). */
  private parseAllocSize(fnType: Type, loc: Loc): void {
    const lx = this.lx;
    this.expect(Tok.LParen);
    const elem = this.parseUInt();
    let num: number | null = null;
    if (this.eat(Tok.Comma)) {
      num = this.parseUInt();
      if (num === elem) this.error("'allocsize' indices can't refer to the same parameter", loc);
    }
    this.expect(Tok.RParen);
    const params = fnType.params;
    for (const [k, what] of [[elem, 'element size'], [num, 'number of elements']] as const) {
      if (k === null) continue;
      if (k >= params.length) this.error(`'allocsize' ${what} argument is out of bounds`, loc);
      if (params[k].kind !== TypeKind.Int) this.error(`'allocsize' ${what} argument must refer to an integer parameter`, loc);
    }
  }

  /** `allockind("alloc,zeroed")`: a string of the kinds LLParser knows. */
  private parseAllocKind(): void {
    const lx = this.lx;
    this.expect(Tok.LParen);
    const loc = lx.loc();
    if (lx.tk() !== Tok.String) this.error('expected allockind value', loc);
    for (const k of lx.text.split(',')) {
      if (!['alloc', 'realloc', 'free', 'uninitialized', 'zeroed', 'aligned'].includes(k)) this.error(`unknown allockind ${k}`, loc);
    }
    lx.next();
    this.expect(Tok.RParen);
  }

  parseTypeAndConstant(): Constant {
    const t = this.parseType();
    return this.parseConstant(t);
  }

  /** A constant of type `ty`. Global references are allowed (they are constants). */
  parseConstant(ty: Type): Constant {
    const v = this.parseValueOrConstant(ty, false);
    return v as Constant;
  }

  /**
   * A value of type `ty`: a constant, or (when `allowLocal`) a local `%x`. Handles every
   * constant form, including aggregates and constant expressions.
   */
  private parseValueOrConstant(ty: Type, allowLocal: boolean): Value {
    const lx = this.lx;
    const loc = lx.loc();
    switch (lx.tk()) {
      case Tok.LocalVar:
      case Tok.LocalVarID:
        if (!allowLocal) this.error('expected a constant, found a local value');
        return this.parseLocalRef(ty);
      case Tok.GlobalVar:
      case Tok.GlobalID: {
        if (ty.kind !== TypeKind.Ptr) this.error(`global value used as '${ty}', expected ptr`, loc);
        return this.parseGlobalRef();
      }
      case Tok.Int: {
        const text = lx.text;
        lx.next();
        if (ty.kind === TypeKind.Int) return text.length < 16 ? ConstantInt.getNumber(ty, Number(text)) : ConstantInt.get(ty, BigInt(text));
        this.error(`integer constant must have integer type, not '${ty}'`, loc);
        break;
      }
      case Tok.Float: {
        const text = lx.text;
        lx.next();
        if (!ty.isFloatingPoint()) this.error(`floating point constant invalid for type '${ty}'`, loc);
        return ConstantFP.get(ty, parseFloatLiteral(text, ty, (m) => this.error(m, loc)));
      }
      case Tok.CString: {
        const bytes = lx.bytes!;
        lx.next();
        if (ty.kind !== TypeKind.Array || !ty.elem!.isInt(8) || ty.count !== bytes.length) {
          this.error(`constant string of ${bytes.length} bytes does not match type '${ty}'`, loc);
        }
        return new ConstantString(ty, bytes);
      }
      case Tok.LSquare:
      case Tok.LBrace:
      case Tok.Less:
        return this.parseNestedConstant(ty);
      case Tok.Word:
        return this.parseKeywordConstant(ty, loc);
      default:
        break;
    }
    this.error(`expected a value of type '${ty}', found ${this.describe()}`, loc);
  }

  private parseKeywordConstant(ty: Type, loc: Loc): Constant {
    const lx = this.lx;
    const w = lx.text;
    switch (w) {
      case 'true':
      case 'false':
        lx.next();
        if (!ty.isInt(1)) this.error(`'${w}' must have type i1, not '${ty}'`, loc);
        return ConstantInt.bool(w === 'true');
      case 'null':
        lx.next();
        if (ty.kind !== TypeKind.Ptr) this.error(`null must be a pointer type, not '${ty}'`, loc);
        return ConstantNull.get(ty);
      case 'none':
        lx.next();
        return ConstantNull.get(ty);
      case 'undef':
        lx.next();
        return UndefValue.get(ty);
      case 'poison':
        lx.next();
        return PoisonValue.get(ty);
      case 'zeroinitializer':
        lx.next();
        return ConstantZero.get(ty);
      case 'blockaddress': {
        lx.next();
        this.expect(Tok.LParen);
        const fn = this.parseGlobalRef();
        this.expect(Tok.Comma);
        const bbLoc = lx.loc();
        if (lx.tk() !== Tok.LocalVar && lx.tk() !== Tok.LocalVarID) this.error('expected a block name', bbLoc);
        const bbName = lx.tk() === Tok.LocalVar ? lx.text : String(lx.num);
        // LLParser: numbers are a function's own numbering, gone once its body is read
        if (lx.tk() === Tok.LocalVarID && this.blockTables.has(fn)) this.error('cannot take address of numeric label after the function is defined', bbLoc);
        lx.next();
        this.expect(Tok.RParen);
        const ba = new BlockAddress(fn, new MetadataValue(labelType, bbName));
        this.pendingBlockAddresses.push({ ba, name: bbName, numbered: /^[0-9]+$/.test(bbName), loc: bbLoc });
        return ba;
      }
      case 'dso_local_equivalent':
      case 'no_cfi':
        lx.next();
        return this.parseGlobalRef();
      case 'asm': {
        const start = lx.start;
        lx.next();
        while (this.eatWord('sideeffect') || this.eatWord('alignstack') || this.eatWord('inteldialect') || this.eatWord('unwind')) {
          /* flags */
        }
        if (lx.tk() !== Tok.String) this.error('expected asm string');
        lx.next();
        this.expect(Tok.Comma);
        if (lx.tk() !== Tok.String) this.error('expected asm constraints');
        lx.next();
        return new InlineAsmValue(ty, lx.slice(start, lx.prevEnd).trim());
      }
      default:
        break;
    }
    if (w === 'splat' || OPCODE_BY_NAME.has(w)) return this.parseNestedConstant(ty);
    this.error(`expected a value of type '${ty}', found '${w}'`, loc);
  }

  /**
   * Whether the current token starts a constant that holds other constants (an aggregate,
   * `splat`, a constant expression): those are read by parseNestedConstant.
   */
  private startsNestedConstant(): boolean {
    const lx = this.lx;
    const t = lx.tk();
    if (t === Tok.LSquare || t === Tok.LBrace || t === Tok.Less) return true;
    return t === Tok.Word && (lx.text === 'splat' || OPCODE_BY_NAME.has(lx.text));
  }

  /**
   * A constant that holds other constants, read with an explicit stack instead of recursion:
   * LLVM accepts constant expressions nested thousands deep, which would overflow the JS
   * stack. Each level is a generator (nestedConstantFrame) that yields the type of each
   * operand it needs and receives the operand; leaves are read directly.
   */
  private parseNestedConstant(ty: Type): Constant {
    const stack: Generator<Type, Constant, Constant>[] = [];
    let frame = this.nestedConstantFrame(ty);
    let sent: Constant | undefined;
    for (;;) {
      const r = frame.next(sent as Constant);
      if (!r.done) {
        if (this.startsNestedConstant()) {
          stack.push(frame);
          frame = this.nestedConstantFrame(r.value);
          sent = undefined;
        } else sent = this.parseValueOrConstant(r.value, false) as Constant;
        continue;
      }
      sent = r.value;
      const up = stack.pop();
      if (up === undefined) return sent;
      frame = up;
    }
  }

  /** One level of parseNestedConstant: `yield T` reads an operand of type T. */
  private *nestedConstantFrame(ty: Type): Generator<Type, Constant, Constant> {
    const lx = this.lx;
    const loc = lx.loc();
    switch (lx.tk()) {
      case Tok.LSquare: {
        lx.next();
        if (ty.kind !== TypeKind.Array) this.error(`array constant for non-array type '${ty}'`, loc);
        const elems = yield* this.constantListFrame(Tok.RSquare, ty.elem!);
        if (elems.length !== ty.count) this.error(`array constant has ${elems.length} elements, type '${ty}' needs ${ty.count}`, loc);
        return new ConstantAggregate(ValueKind.ConstantArray, ty, elems);
      }
      case Tok.LBrace: {
        lx.next();
        if (ty.kind !== TypeKind.Struct) this.error(`struct constant for non-struct type '${ty}'`, loc);
        const elems = yield* this.structElementsFrame(ty);
        if (elems.length !== ty.members.length) this.error(`struct constant has ${elems.length} elements, type '${ty}' needs ${ty.members.length}`, loc);
        return new ConstantAggregate(ValueKind.ConstantStruct, ty, elems);
      }
      case Tok.Less: {
        lx.next();
        if (lx.tk() === Tok.LBrace) {
          // packed struct constant <{ ... }>
          lx.next();
          if (ty.kind !== TypeKind.Struct || !ty.packed) this.error(`packed struct constant for type '${ty}'`, loc);
          const elems = yield* this.structElementsFrame(ty);
          this.expect(Tok.Greater);
          if (elems.length !== ty.members.length) this.error('packed struct constant has the wrong number of elements', loc);
          return new ConstantAggregate(ValueKind.ConstantStruct, ty, elems);
        }
        if (ty.kind !== TypeKind.Vector) this.error(`vector constant for non-vector type '${ty}'`, loc);
        const elems = yield* this.constantListFrame(Tok.Greater, ty.elem!);
        if (elems.length !== ty.count) this.error('vector constant has the wrong number of elements', loc);
        return new ConstantAggregate(ValueKind.ConstantVector, ty, elems);
      }
      default:
        break;
    }
    if (lx.text === 'splat') {
      lx.next();
      this.expect(Tok.LParen);
      const et = this.parseType();
      const e = yield et;
      this.expect(Tok.RParen);
      if (ty.kind !== TypeKind.Vector || e.type !== ty.elem) this.error('splat element type does not match the vector', loc);
      return new ConstantAggregate(ValueKind.ConstantVector, ty, new Array(ty.count).fill(e));
    }
    const c = yield* this.constantExprFrame(OPCODE_BY_NAME.get(lx.text)!, ty, loc);
    // LLParser: a constant expression must have the type its context gives it
    if (c.type !== ty) this.error(`constant expression type mismatch: got type '${c.type}' but expected '${ty}'`, loc);
    return c;
  }

  /** Elements `T v, T v, ...` up to `close` (consumed), each of type `elem`. */
  private *constantListFrame(close: Tok, elem: Type): Generator<Type, Constant[], Constant> {
    const lx = this.lx;
    const out: Constant[] = [];
    if (lx.tk() !== close) {
      do {
        const loc = lx.loc();
        const et = this.parseType();
        if (et !== elem) this.error(`element has type '${et}', expected '${elem}'`, loc);
        out.push(yield et);
      } while (this.eat(Tok.Comma));
    }
    this.expect(close);
    return out;
  }

  /** Struct elements `T v, ...` up to `}` (consumed), each of its member's type. */
  private *structElementsFrame(ty: Type): Generator<Type, Constant[], Constant> {
    const lx = this.lx;
    const elems: Constant[] = [];
    if (lx.tk() !== Tok.RBrace) {
      let k = 0;
      do {
        const et = this.parseType();
        if (k >= ty.members.length || et !== ty.members[k]) this.error(`struct constant element ${k} has type '${et}', expected '${ty.members[k] ?? 'nothing'}'`);
        elems.push(yield et);
        k++;
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace);
    return elems;
  }

  /**
   * A constant expression, the current token its opcode. LLVM 19 keeps only these as
   * constant expressions: getelementptr, trunc, ptrtoint, inttoptr, bitcast, addrspacecast,
   * add, sub, mul, xor and extractelement (insertelement and shufflevector too, which
   * ssakit does not read); the others are "no longer supported", as llvm-as says.
   */
  private *constantExprFrame(op: Opcode, ty: Type, loc: Loc): Generator<Type, Constant, Constant> {
    const lx = this.lx;
    lx.next();
    switch (op) {
      case Opcode.GetElementPtr: {
        let flags = 0;
        for (;;) {
          if (this.eatWord('inbounds')) flags |= Flag.InBounds;
          else if (this.eatWord('nuw')) flags |= Flag.NUW;
          else if (this.eatWord('nusw')) flags |= Flag.NUSW;
          else break;
        }
        if (this.isWord('inrange')) {
          lx.next();
          this.skipParens();
        }
        this.expect(Tok.LParen);
        const src = this.parseType(false);
        const ops: Constant[] = [];
        while (this.eat(Tok.Comma)) {
          if (this.isWord('inrange')) lx.next();
          const oloc = lx.loc();
          const o = yield this.parseType();
          if (ops.length === 0 ? !o.type.scalarType().isPtr() : !o.type.scalarType().isInt()) {
            this.error(ops.length === 0 ? 'base of getelementptr must be a pointer' : 'getelementptr index must be an integer', oloc);
          }
          ops.push(o);
        }
        this.expect(Tok.RParen);
        if (ops.length === 0) this.error('getelementptr needs a base pointer', loc);
        return ConstantExpr.get(Opcode.GetElementPtr, ty, ops, flags, src);
      }
      case Opcode.Trunc:
      case Opcode.PtrToInt:
      case Opcode.IntToPtr:
      case Opcode.BitCast:
      case Opcode.AddrSpaceCast: {
        this.expect(Tok.LParen);
        const v = yield this.parseType();
        this.expectWord('to');
        const to = this.parseType(false);
        this.expect(Tok.RParen);
        if (!constantCastOk(op, v.type, to)) this.error(`invalid cast opcode for cast from '${v.type}' to '${to}'`, loc);
        return ConstantExpr.get(op, to, [v]);
      }
      case Opcode.Add:
      case Opcode.Sub:
      case Opcode.Mul:
      case Opcode.Xor: {
        let flags = 0;
        if (op !== Opcode.Xor) {
          for (;;) {
            if (this.eatWord('nsw')) flags |= Flag.NSW;
            else if (this.eatWord('nuw')) flags |= Flag.NUW;
            else break;
          }
        }
        if (lx.tk() !== Tok.LParen) this.error("expected '(' in binary constantexpr");
        lx.next();
        const a = yield this.parseType();
        this.expect(Tok.Comma);
        const b = yield this.parseType();
        this.expect(Tok.RParen);
        if (a.type !== b.type) this.error('operands of constexpr must have same type', loc);
        if (!a.type.scalarType().isInt()) this.error('constexpr requires integer or integer vector operands', loc);
        return ConstantExpr.get(op, a.type, [a, b], flags);
      }
      case Opcode.ExtractElement: {
        this.expect(Tok.LParen);
        const v = yield this.parseType();
        this.expect(Tok.Comma);
        const idx = yield this.parseType();
        this.expect(Tok.RParen);
        if (v.type.kind !== TypeKind.Vector || !idx.type.isInt()) this.error('invalid extractelement operands', loc);
        return ConstantExpr.get(op, v.type.elem!, [v, idx]);
      }
      default:
        this.error(`${OPCODE_NAMES[op]} constexprs are no longer supported`, loc);
    }
  }

  private parsePredicate(op: Opcode): Pred {
    const lx = this.lx;
    if (lx.tk() !== Tok.Word) this.error('expected comparison predicate');
    const p = op === Opcode.ICmp ? icmpPredByName(lx.text) : fcmpPredByName(lx.text);
    if (p === undefined) this.error(`expected ${op === Opcode.ICmp ? 'icmp' : 'fcmp'} predicate, found '${lx.text}'`);
    lx.next();
    return p;
  }

  // ---- functions ----------------------------------------------------------------------------

  private parseFunction(isDefine: boolean): void {
    const lx = this.lx;
    const headerLoc = lx.loc();
    let linkage = '';
    if (lx.tk() === Tok.Word && LINKAGES.has(lx.text)) {
      linkage = lx.text;
      lx.next();
    }
    // dso_local, visibility, cconv, return attributes ... up to the return type
    let prefixStart = lx.start;
    let retAttrs = '';
    const fnMd: MDAttachment[] = [];
    const retWords: { w: string; loc: Loc; text: string }[] = [];
    for (;;) {
      if (lx.tk() === Tok.Word && GLOBAL_PREFIX_WORDS.has(lx.text)) {
        lx.next();
        if (lx.tk() === Tok.LParen || lx.tk() === Tok.Int) {
          if (lx.tk() === Tok.LParen) this.skipParens();
          else lx.next();
        }
        continue;
      }
      if (lx.tk() === Tok.MetadataVar && !isDefine) {
        // `declare !dbg !28 i32 @f(...)`: a declaration's attachments come first
        if (prefixStart === lx.start) prefixStart = -1;
        fnMd.push(this.mdr.parseAttachment(false));
        if (prefixStart === -1) prefixStart = lx.start;
        continue;
      }
      if (lx.tk() === Tok.Word && isAttributeWord(lx.text)) {
        const s = lx.start;
        const a = this.skipParamAttrs('ret');
        retWords.push(...this.lastAttrWords);
        if (a === '' && lx.start === s) break;
        retAttrs += (retAttrs ? ' ' : '') + a;
        continue;
      }
      break;
    }
    let prefix = lx.slice(prefixStart, lx.prevEnd).trim();
    if (retAttrs !== '') prefix = stripWords(prefix, retAttrs);
    const ret = this.parseType();
    this.lastAttrWords = retWords;
    this.checkAttrTypes(ret);
    if (lx.tk() !== Tok.GlobalVar && lx.tk() !== Tok.GlobalID) this.error(`expected function name, found ${this.describe()}`);
    const key = this.globalKey();
    const nameLoc = lx.loc();
    lx.next();
    // parameters
    this.expect(Tok.LParen);
    const params: Type[] = [];
    const argNames: string[] = [];
    const argNumbers: (number | null)[] = [];
    const argAttrs: string[] = [];
    const argLocs: Loc[] = [];
    let vararg = false;
    if (lx.tk() !== Tok.RParen) {
      do {
        if (lx.tk() === Tok.DotDotDot) {
          lx.next();
          vararg = true;
          break;
        }
        const t = this.parseType(false);
        params.push(t);
        argAttrs.push(this.skipParamAttrs('param', t));
        argLocs.push(lx.loc());
        if (lx.tk() === Tok.LocalVar) {
          argNames.push(lx.text);
          argNumbers.push(null);
          lx.next();
        } else if (lx.tk() === Tok.LocalVarID) {
          argNames.push('');
          argNumbers.push(lx.num);
          lx.next();
        } else {
          argNames.push('');
          argNumbers.push(null);
        }
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RParen);
    const fnType = functionType(ret, params, vararg);
    // suffix: unnamed_addr, #N, attributes, section, comdat, align, gc, personality, !md …
    const suffixStart = lx.start;
    let suffixEnd = -1;
    for (;;) {
      // LLParser: a definition's attachments come last, just before its body
      if (suffixEnd >= 0 && lx.tk() !== Tok.MetadataVar && lx.tk() !== Tok.LBrace) this.error("expected '{' in function body");
      if (lx.tk() === Tok.AttrGrpID) {
        this.groupRefs.push(lx.num);
        lx.next();
        continue;
      }
      if (lx.tk() === Tok.Word && !TOP_LEVEL_WORDS.has(lx.text) && !lx.text.startsWith('$')) {
        const w = lx.text;
        if (w === 'personality' || w === 'prefix' || w === 'prologue') {
          lx.next();
          this.parseTypeAndConstant();
          continue;
        }
        const wloc = lx.loc();
        if (isAttributeWord(w)) {
          const problem = attributePlaceProblem(w, 'fn');
          if (problem !== null) this.error(problem, wloc);
        } else if (!isFunctionSuffixWord(w)) this.error("expected '{' in function body", wloc);
        lx.next();
        if (w === 'align') this.parseAlignment(false);
        else if (w === 'allocsize') this.parseAllocSize(fnType, wloc);
        else if (w === 'allockind') this.parseAllocKind();
        else if (readAttributeArgument(this.attrHost, w, 'fn')) {
          /* read */
        } else if (lx.tk() === Tok.LParen) {
          // an attribute of no argument followed by `(`: LLParser stops at the attribute list's end
          if (isAttributeWord(w)) this.error(isDefine ? "expected '{' in function body" : 'expected top-level entity');
          this.skipParens();
        }
        else if (lx.tk() === Tok.Int && (w === 'alignstack' || w === 'addrspace')) lx.next();
        else if (lx.tk() === Tok.String && (w === 'section' || w === 'gc' || w === 'partition')) lx.next();
        else if (lx.tk() === Tok.Equal) {
          lx.next();
          lx.next();
        }
        continue;
      }
      if (lx.tk() === Tok.String) {
        this.stringFnAttribute();
        continue;
      }
      if (lx.tk() === Tok.MetadataVar && isDefine) {
        // `!dbg !12` attachment, but not a following top-level `!name = ...`
        const st = lx.save();
        lx.next();
        if (lx.tk() === Tok.Equal) {
          lx.restore(st);
          break;
        }
        if (suffixEnd < 0) suffixEnd = st.start;
        lx.restore(st);
        fnMd.push(this.mdr.parseAttachment(false));
        continue;
      }
      break;
    }
    const suffix = lx.slice(suffixStart, suffixEnd >= 0 ? suffixEnd : lx.prevEnd).trim();

    let fn = this.defineGlobal(key, nameLoc) as Function | undefined;
    if (fn !== undefined && !(fn instanceof Function)) this.error(`'@${key.slice(1)}' is not a function`, nameLoc);
    const name = key.startsWith('#') ? '' : key.slice(1);
    if (fn === undefined) {
      fn = new Function(name, fnType, argNames);
      if (key.startsWith('#')) this.globalsByNumber[Number(key.slice(1))] = fn;
      else this.globalsByName.set(name, fn);
    } else {
      fn.setSignature(fnType, argNames);
    }
    fn.attrs = { linkage, prefix, suffix };
    fn.md = fnMd.length > 0 ? fnMd : null;
    fn.retAttrs = retAttrs;
    fn.args.forEach((a, i) => (a.attrs = argAttrs[i]));
    this.definedGlobals.add(fn);
    this.m.addFunction(fn);
    if (!isDefine) return;
    if (lx.tk() !== Tok.LBrace) this.error(`expected '{' to start the body of '@${fn.name}', found ${this.describe()}`);
    if (this.skipBody) {
      const end = this.skipBody(fn, lx.start);
      if (end >= 0) {
        lx.skipTo(end);
        return;
      }
    }
    lx.next();
    this.parseBody(fn, argNumbers, argLocs, headerLoc);
  }

  private parseBody(fn: Function, argNumbers: (number | null)[], argLocs: Loc[], headerLoc: Loc): void {
    const lx = this.lx;
    const fs = new FunctionState(fn);
    this.fs = fs;
    // arguments
    for (let i = 0; i < fn.args.length; i++) {
      const a = fn.args[i];
      if (a.name !== '') {
        if (fs.named.has(a.name)) this.error(`redefinition of argument '%${a.name}'`, argLocs[i]);
        fs.named.set(a.name, a);
      } else {
        const n = argNumbers[i];
        if (n !== null && n < fs.nextNumber) this.error(`argument expected to be numbered '%${fs.nextNumber}' or greater`, argLocs[i]);
        if (n !== null) fs.nextNumber = n;
        fs.numbered[fs.nextNumber++] = a;
      }
    }
    if (lx.tk() === Tok.RBrace) this.error(`function body of '@${fn.name}' requires at least one basic block`);
    while (lx.tk() !== Tok.RBrace) {
      if (lx.tk() === Tok.EOF) this.error(`unterminated function body of '@${fn.name}'`, headerLoc);
      this.parseBlock(fs);
    }
    lx.next();
    // every forward reference must have been defined
    for (const [ph, info] of fs.forward) {
      this.error(`use of undefined value '%${info.name}'`, info.loc);
      void ph;
    }
    for (const [name, bb] of fs.blocksByName) {
      if (!fs.definedBlocks.has(bb)) this.error(`use of undefined label '%${name}'`, fs.blockRefLoc.get(bb));
    }
    fs.blocksByNumber.forEach((bb, n) => {
      if (bb !== undefined && !fs.definedBlocks.has(bb)) this.error(`use of undefined label '%${n}'`, fs.blockRefLoc.get(bb));
    });
    this.fs = null;
    if (this.mayHaveBlockAddresses) this.blockTables.set(fn, fs);
    if (this.onFunction) this.onFunction(fn, this.isPendingGlobal, lx.prevEnd);
  }

  private parseBlock(fs: FunctionState): void {
    const lx = this.lx;
    let bb: BasicBlock;
    const loc = lx.loc();
    if (lx.tk() === Tok.LabelStr) {
      const name = lx.text;
      lx.next();
      bb = this.blockByName(fs, name, loc);
    } else if (lx.tk() === Tok.LabelID) {
      const n = lx.num;
      lx.next();
      if (n < fs.nextNumber) this.error(`label expected to be numbered '${fs.nextNumber}' or greater`, loc);
      bb = this.blockByNumber(fs, n, loc);
      fs.nextNumber = n + 1;
    } else {
      const n = fs.nextNumber++;
      bb = this.blockByNumber(fs, n, loc);
    }
    if (fs.definedBlocks.has(bb)) this.error(`redefinition of label '${bb.name || '%'}'`, loc);
    fs.definedBlocks.add(bb);
    fs.forward.delete(bb);
    fs.fn.appendBlock(bb);
    // instructions up to and including the terminator
    for (;;) {
      if (lx.tk() === Tok.RBrace || lx.tk() === Tok.LabelStr || lx.tk() === Tok.LabelID || lx.tk() === Tok.EOF) {
        this.error(`expected instruction: block '${bb.name || '%' + (fs.nextNumber - 1)}' must end with a terminator`);
      }
      if (lx.tk() === Tok.Word && lx.text.startsWith('#dbg_')) {
        // a debug record: attached to the instruction that follows
        const r = this.mdr.parseDebugRecord();
        if (this.pendingRecords === null) this.pendingRecords = [r];
        else this.pendingRecords.push(r);
        continue;
      }
      const inst = this.parseInstructionStatement(fs, bb);
      if (inst.isTerminator()) break;
    }
  }

  private blockByName(fs: FunctionState, name: string, loc: Loc): BasicBlock {
    let bb = fs.blocksByName.get(name);
    if (bb === undefined) {
      const v = fs.named.get(name);
      if (v !== undefined) {
        if (!fs.forward.has(v) || v.kind === ValueKind.BasicBlock) this.error(`'%${name}' is not a label`, loc);
        // was referenced as a value before: replace that placeholder
        bb = new BasicBlock(name);
        this.resolveForward(fs, v, bb, loc);
      } else bb = new BasicBlock(name);
      fs.blocksByName.set(name, bb);
      fs.named.set(name, bb);
    }
    return bb;
  }

  private blockByNumber(fs: FunctionState, n: number, loc: Loc): BasicBlock {
    let bb = fs.blocksByNumber[n];
    if (bb === undefined) {
      const v = fs.numbered[n];
      bb = new BasicBlock('');
      if (v !== undefined) this.resolveForward(fs, v, bb, loc);
      fs.blocksByNumber[n] = bb;
      fs.numbered[n] = bb;
    }
    return bb;
  }

  private resolveForward(fs: FunctionState, placeholder: Value, def: Value, loc: Loc): void {
    if (placeholder.type !== def.type) {
      this.error(`'%${fs.forward.get(placeholder)?.name ?? def.name}' defined with type '${def.type}' but expected '${placeholder.type}'`, loc);
    }
    placeholder.replaceAllUsesWith(def);
    fs.forward.delete(placeholder);
  }

  /** A reference to a local value of type `ty` (consumes the token). */
  private parseLocalRef(ty: Type): Value {
    const lx = this.lx;
    const fs = this.fs;
    const loc = lx.loc();
    if (fs === null) this.error('local value used outside a function');
    if (lx.tk() === Tok.LocalVar) {
      const name = lx.text;
      lx.next();
      let v = fs.named.get(name);
      if (v === undefined) {
        if (ty === labelType) {
          const bb = new BasicBlock(name);
          fs.blocksByName.set(name, bb);
          fs.named.set(name, bb);
          fs.blockRefLoc.set(bb, loc);
          return bb;
        }
        v = new Argument(ty, null, -1);
        fs.named.set(name, v);
        fs.forward.set(v, { loc, name });
        return v;
      }
      if (v.type !== ty) this.error(`'%${name}' defined with type '${v.type}' but expected '${ty}'`, loc);
      return v;
    }
    const n = lx.num;
    lx.next();
    let v = fs.numbered[n];
    if (v === undefined) {
      if (n < fs.nextNumber) this.error(`use of undefined value '%${n}'`, loc);
      if (ty === labelType) {
        const bb = new BasicBlock('');
        fs.blocksByNumber[n] = bb;
        fs.numbered[n] = bb;
        fs.blockRefLoc.set(bb, loc);
        return bb;
      }
      v = new Argument(ty, null, -1);
      fs.numbered[n] = v;
      fs.forward.set(v, { loc, name: String(n) });
      return v;
    }
    if (v.type !== ty) this.error(`'%${n}' defined with type '${v.type}' but expected '${ty}'`, loc);
    return v;
  }

  private parseValue(ty: Type): Value {
    return this.parseValueOrConstant(ty, true);
  }

  private parseTypeAndValue(): Value {
    const t = this.parseType();
    return this.parseValue(t);
  }

  private parseBlockRef(): BasicBlock {
    const lx = this.lx;
    if (!this.isWord('label')) this.error(`expected 'label', found ${this.describe()}`);
    lx.next();
    const loc = lx.loc();
    if (lx.tk() !== Tok.LocalVar && lx.tk() !== Tok.LocalVarID) this.error(`expected a block name, found ${this.describe()}`);
    const v = this.parseLocalRef(labelType);
    if (v.kind !== ValueKind.BasicBlock) this.error("expected a basic block", loc);
    return v as BasicBlock;
  }

  // ---- instructions ------------------------------------------------------------------------------

  private parseInstructionStatement(fs: FunctionState, bb: BasicBlock): Instruction {
    const lx = this.lx;
    let resultName: string | null = null;
    let resultNumber = -1;
    const resultLoc = lx.loc();
    if (lx.tk() === Tok.LocalVar || lx.tk() === Tok.LocalVarID) {
      if (lx.tk() === Tok.LocalVar) resultName = lx.text;
      else resultNumber = lx.num;
      lx.next();
      this.expect(Tok.Equal);
    }
    const inst = this.parseInstruction(bb);
    inst.srcOffset = resultLoc;
    // metadata attachments: , !name !N
    let md: MDAttachment[] | null = null;
    while (lx.tk() === Tok.Comma) {
      if (!lx.nextIsMetadataName()) break;
      lx.next();
      const a = this.mdr.parseAttachment(false);
      if (md === null) md = [a];
      else md.push(a);
    }
    if (md !== null) inst.md = md;
    if (inst.op === Opcode.Call && inst.type === voidType) {
      const callee = inst.ops[0].value;
      if (callee.kind === ValueKind.Function && callee.name.startsWith('llvm.dbg.')) {
        // an old-style debug intrinsic: read as the debug record opt-19 prints for it
        const r = dbgIntrinsicToRecord(inst, callee.name);
        this.sawDbgIntrinsic = true;
        inst.dropAllReferences();
        if (r === null) this.error(`malformed debug intrinsic call to '@${callee.name}'`, resultLoc);
        if (this.pendingRecords === null) this.pendingRecords = [r];
        else this.pendingRecords.push(r);
        return inst;
      }
    }
    if (this.pendingRecords !== null) {
      inst.dbgRecords = this.pendingRecords;
      this.pendingRecords = null;
    }
    bb.append(inst);
    const hasResult = inst.type !== voidType;
    if (resultName !== null || resultNumber >= 0) {
      if (!hasResult) this.error(`instruction returning void cannot have a name`, resultLoc);
    }
    if (!hasResult) return inst;
    if (resultName !== null) {
      inst.name = resultName;
      const prev = fs.named.get(resultName);
      if (prev !== undefined) {
        if (!fs.forward.has(prev)) this.error(`multiple definition of local value named '%${resultName}'`, resultLoc);
        this.resolveForward(fs, prev, inst, resultLoc);
      }
      fs.named.set(resultName, inst);
    } else {
      if (resultNumber >= 0 && resultNumber < fs.nextNumber) this.error(`instruction expected to be numbered '%${fs.nextNumber}' or greater`, resultLoc);
      const n = resultNumber >= 0 ? resultNumber : fs.nextNumber;
      fs.nextNumber = n + 1;
      const prev = fs.numbered[n];
      if (prev !== undefined) {
        if (!fs.forward.has(prev)) this.error(`multiple definition of local value '%${n}'`, resultLoc);
        this.resolveForward(fs, prev, inst, resultLoc);
      }
      fs.numbered[n] = inst;
    }
    return inst;
  }

  private parseInstruction(bb: BasicBlock): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    if (lx.tk() !== Tok.Word) this.error(`expected instruction opcode, found ${this.describe()}`);
    const w = lx.text;
    if (w === 'tail' || w === 'musttail' || w === 'notail') {
      lx.next();
      if (!this.isWord('call')) this.error("expected 'call'");
      const c = this.parseCall();
      c.flags |= w === 'tail' ? Flag.Tail : w === 'musttail' ? Flag.MustTail : Flag.NoTail;
      return c;
    }
    const op = this.opcodeOf(w);
    if (op === undefined) {
      if (w === 'invoke' || w === 'landingpad' || w === 'resume' || w === 'callbr' || w === 'catchswitch' || w === 'cleanuppad' || w === 'catchpad' || w === 'catchret' || w === 'cleanupret') {
        this.error(`instruction '${w}' (exception handling) is not supported`, loc);
      }
      this.error(`expected instruction opcode, found '${w}'`, loc);
    }
    if (isBinaryOp(op)) return this.parseBinary(op);
    if (isCastOp(op)) return this.parseCast(op);
    switch (op) {
      case Opcode.Ret: {
        lx.next();
        const fnRet = bb.parent!.returnType;
        const t = this.parseType();
        if (t === voidType) {
          if (fnRet !== voidType) this.error(`value doesn't match function result type '${fnRet}'`, loc);
          return new Instruction(Opcode.Ret, voidType, []);
        }
        const v = this.parseValue(t);
        if (t !== fnRet) this.error(`value doesn't match function result type '${fnRet}'`, loc);
        return new Instruction(Opcode.Ret, voidType, [v]);
      }
      case Opcode.Br: {
        lx.next();
        if (this.isWord('label')) return new Instruction(Opcode.Br, voidType, [this.parseBlockRef()]);
        const ct = this.parseType();
        if (ct !== i1) this.error(`branch condition must have type i1, not '${ct}'`, loc);
        const c = this.parseValue(ct);
        this.expect(Tok.Comma);
        const t = this.parseBlockRef();
        this.expect(Tok.Comma);
        const f = this.parseBlockRef();
        return new Instruction(Opcode.Br, voidType, [c, t, f]);
      }
      case Opcode.Switch: {
        lx.next();
        const ct = this.parseType();
        if (ct.kind !== TypeKind.Int) this.error(`switch condition must be an integer, not '${ct}'`, loc);
        const c = this.parseValue(ct);
        this.expect(Tok.Comma);
        const d = this.parseBlockRef();
        const ops: Value[] = [c, d];
        this.expect(Tok.LSquare);
        const seen = new Set<bigint>();
        while (lx.tk() !== Tok.RSquare) {
          const cloc = lx.loc();
          const t = this.parseType();
          if (t !== ct) this.error(`case value has type '${t}', expected '${ct}'`, cloc);
          // LLVM folds `add (i32 1, i32 1)` to a ConstantInt as it reads it
          const v = constantIntOf(this.parseValueOrConstant(t, false));
          if (v === null) this.error('case value is not a constant integer', cloc);
          const cv = (v as ConstantInt).value;
          if (seen.has(cv)) this.error('duplicate case value in switch', cloc);
          seen.add(cv);
          this.expect(Tok.Comma);
          ops.push(v, this.parseBlockRef());
        }
        lx.next();
        return new Instruction(Opcode.Switch, voidType, ops);
      }
      case Opcode.IndirectBr: {
        lx.next();
        const a = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        this.expect(Tok.LSquare);
        const ops: Value[] = [a];
        if (lx.tk() !== Tok.RSquare) {
          do ops.push(this.parseBlockRef());
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.RSquare);
        return new Instruction(Opcode.IndirectBr, voidType, ops);
      }
      case Opcode.Unreachable:
        lx.next();
        return new Instruction(Opcode.Unreachable, voidType, []);
      case Opcode.FNeg: {
        lx.next();
        const flags = this.parseFastMath();
        const v = this.parseTypeAndValue();
        if (!v.type.scalarType().isFloatingPoint()) this.error(`fneg requires a floating-point operand, not '${v.type}'`, loc);
        const i = new Instruction(Opcode.FNeg, v.type, [v]);
        i.flags = flags;
        return i;
      }
      case Opcode.Alloca:
        return this.parseAlloca();
      case Opcode.Load:
        return this.parseLoad();
      case Opcode.Store:
        return this.parseStore();
      case Opcode.GetElementPtr:
        return this.parseGep();
      case Opcode.ICmp:
      case Opcode.FCmp: {
        lx.next();
        let flags = 0;
        if (op === Opcode.FCmp) flags = this.parseFastMath();
        else if (this.eatWord('samesign')) flags = 0;
        const p = this.parsePredicate(op);
        const t = this.parseType();
        const isFp = t.scalarType().isFloatingPoint();
        if (op === Opcode.ICmp ? !(t.scalarType().kind === TypeKind.Int || t.scalarType().kind === TypeKind.Ptr) : !isFp) {
          this.error(`${w} requires ${op === Opcode.ICmp ? 'integer or pointer' : 'floating-point'} operands, not '${t}'`, loc);
        }
        const a = this.parseValue(t);
        this.expect(Tok.Comma);
        const b = this.parseValue(t);
        const i = new Instruction(op, t.kind === TypeKind.Vector ? vectorType(i1, t.count) : i1, [a, b]);
        i.pred = p;
        i.flags = flags;
        return i;
      }
      case Opcode.Phi: {
        lx.next();
        const flags = this.parseFastMath();
        const t = this.parseType(false);
        const i = new Instruction(Opcode.Phi, t, []);
        i.blocks = [];
        i.flags = flags;
        do {
          this.expect(Tok.LSquare);
          const v = this.parseValue(t);
          this.expect(Tok.Comma);
          const bloc = lx.loc();
          if (lx.tk() !== Tok.LocalVar && lx.tk() !== Tok.LocalVarID) this.error(`expected a block name, found ${this.describe()}`);
          const b = this.parseLocalRef(labelType);
          if (b.kind !== ValueKind.BasicBlock) this.error('expected a basic block', bloc);
          this.expect(Tok.RSquare);
          i.addIncoming(v, b as BasicBlock);
        } while (this.phiContinues());
        return i;
      }
      case Opcode.Call:
        return this.parseCall();
      case Opcode.Select: {
        lx.next();
        const flags = this.parseFastMath();
        const c = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const a = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const b = this.parseTypeAndValue();
        if (a.type !== b.type) this.error('select values must have the same type', loc);
        if (c.type.scalarType() !== i1) this.error(`select condition must be i1, not '${c.type}'`, loc);
        const i = new Instruction(Opcode.Select, a.type, [c, a, b]);
        i.flags = flags;
        return i;
      }
      case Opcode.Freeze: {
        lx.next();
        const v = this.parseTypeAndValue();
        return new Instruction(Opcode.Freeze, v.type, [v]);
      }
      case Opcode.VAArg: {
        lx.next();
        const v = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const t = this.parseType(false);
        return new Instruction(Opcode.VAArg, t, [v]);
      }
      case Opcode.ExtractValue: {
        lx.next();
        const agg = this.parseTypeAndValue();
        const { idx, t } = this.parseAggregateIndices(agg.type, 'extractvalue', loc);
        const i = new Instruction(Opcode.ExtractValue, t, [agg]);
        i.indices = idx;
        return i;
      }
      case Opcode.InsertValue: {
        lx.next();
        const agg = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const v = this.parseTypeAndValue();
        const { idx, t } = this.parseAggregateIndices(agg.type, 'insertvalue', loc);
        if (t !== v.type) this.error(`insertvalue operand has type '${v.type}', expected '${t}'`, loc);
        const i = new Instruction(Opcode.InsertValue, agg.type, [agg, v]);
        i.indices = idx;
        return i;
      }
      case Opcode.ExtractElement: {
        lx.next();
        const v = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const idx = this.parseTypeAndValue();
        if (v.type.kind !== TypeKind.Vector) this.error('extractelement requires a vector', loc);
        return new Instruction(Opcode.ExtractElement, v.type.elem!, [v, idx]);
      }
      case Opcode.InsertElement: {
        lx.next();
        const v = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const e = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const idx = this.parseTypeAndValue();
        if (v.type.kind !== TypeKind.Vector) this.error('insertelement requires a vector', loc);
        return new Instruction(Opcode.InsertElement, v.type, [v, e, idx]);
      }
      case Opcode.ShuffleVector: {
        lx.next();
        const a = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const b = this.parseTypeAndValue();
        this.expect(Tok.Comma);
        const mt = this.parseType();
        const mask = this.parseConstant(mt);
        if (a.type.kind !== TypeKind.Vector || mt.kind !== TypeKind.Vector) this.error('shufflevector requires vectors', loc);
        const n = mt.count;
        const idx: number[] = [];
        for (let k = 0; k < n; k++) {
          let e: Constant | null = null;
          if (mask.kind === ValueKind.ConstantVector) e = (mask as ConstantAggregate).elements[k];
          else if (mask.kind === ValueKind.ConstantZero) idx.push(0);
          else idx.push(-1);
          if (e !== null) idx.push(e.kind === ValueKind.ConstantInt ? Number((e as ConstantInt).value) : -1);
        }
        const i = new Instruction(Opcode.ShuffleVector, vectorType(a.type.elem!, n), [a, b]);
        i.indices = idx;
        return i;
      }
      case Opcode.Fence:
      case Opcode.AtomicCmpXchg:
      case Opcode.AtomicRMW:
        this.error(`instruction '${w}' (atomics) is not supported`, loc);
        break;
      default:
        break;
    }
    this.error(`unsupported instruction '${w}'`, loc);
  }

  /** After a phi entry: `, [` continues the list; `, !md` does not. */
  private phiContinues(): boolean {
    const lx = this.lx;
    if (lx.tk() !== Tok.Comma || lx.peek() !== Tok.LSquare) return false;
    lx.next();
    return true;
  }

  private parseFastMath(): number {
    const lx = this.lx;
    let flags = 0;
    while (lx.tk() === Tok.Word) {
      const f = FAST_MATH[lx.text];
      if (f === undefined) break;
      flags |= f;
      lx.next();
    }
    return flags;
  }

  private parseBinary(op: Opcode): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next();
    let flags = 0;
    for (;;) {
      if (lx.tk() !== Tok.Word) break;
      const w = lx.text;
      if (w === 'nsw') flags |= Flag.NSW;
      else if (w === 'nuw') flags |= Flag.NUW;
      else if (w === 'exact') flags |= Flag.Exact;
      else if (w === 'disjoint') flags |= Flag.Disjoint;
      else {
        const f = FAST_MATH[w];
        if (f === undefined) break;
        flags |= f;
      }
      lx.next();
    }
    const t = this.parseType();
    const isFp = op === Opcode.FAdd || op === Opcode.FSub || op === Opcode.FMul || op === Opcode.FDiv || op === Opcode.FRem;
    const st = t.scalarType();
    if (isFp ? !st.isFloatingPoint() : st.kind !== TypeKind.Int) {
      this.error(`'${OPCODE_NAMES[op]}' requires ${isFp ? 'floating-point' : 'integer'} operands, not '${t}'`, loc);
    }
    const a = this.parseValue(t);
    this.expect(Tok.Comma);
    const b = this.parseValue(t);
    const i = new Instruction(op, t, [a, b]);
    i.flags = flags;
    return i;
  }

  private parseCast(op: Opcode): Instruction {
    const lx = this.lx;
    lx.next();
    let flags = 0;
    for (;;) {
      if (this.eatWord('nneg')) flags |= Flag.NNeg;
      else if (this.eatWord('nuw')) flags |= Flag.NUW;
      else if (this.eatWord('nsw')) flags |= Flag.NSW;
      else break;
    }
    flags |= this.parseFastMath();
    const v = this.parseTypeAndValue();
    this.expectWord('to');
    const to = this.parseType(false);
    const i = new Instruction(op, to, [v]);
    i.flags = flags;
    return i;
  }

  private parseAlloca(): Instruction {
    const lx = this.lx;
    lx.next();
    let flags = 0;
    if (this.eatWord('inalloca')) flags |= Flag.InAlloca;
    const t = this.parseType(false);
    let count: Value = ConstantInt.get(i32, 1);
    let align = 0;
    let extra: string | null = null;
    // LLParser::parseAlloc's order: [, count] [, align N] [, addrspace(N)]... [, !md]
    // (stage 0: nothing yet, 1: after the count, 2: after align, 3: after an addrspace with no align)
    let stage = 0;
    while (lx.tk() === Tok.Comma) {
      if (lx.nextIsMetadataName()) break; // a metadata attachment: the statement parser takes it
      lx.next();
      if (stage === 3) this.error('expected metadata after comma');
      if (this.isWord('align') && stage < 2) {
        lx.next();
        align = this.parseAlignment(false);
        stage = 2;
      } else if (this.isWord('addrspace')) {
        const s = lx.start;
        lx.next();
        this.skipParens();
        extra = lx.slice(s, lx.prevEnd);
        if (stage !== 2) stage = 3;
      } else if (stage === 2) this.error("expected metadata or 'addrspace'");
      else if (stage === 1) this.error('expected metadata after comma');
      else {
        count = this.parseTypeAndValue();
        stage = 1;
      }
    }
    const i = new Instruction(Opcode.Alloca, ptrType(0), [count]);
    i.auxType = t;
    i.align = align;
    i.flags = flags;
    i.extra = extra;
    return i;
  }

  private parseLoad(): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next();
    let flags = 0;
    if (this.eatWord('atomic')) flags |= Flag.Atomic;
    if (this.eatWord('volatile')) flags |= Flag.Volatile;
    const t = this.parseType(false);
    this.expect(Tok.Comma);
    const p = this.parseTypeAndValue();
    if (p.type.kind !== TypeKind.Ptr) this.error(`load operand must be a pointer, not '${p.type}'`, loc);
    const i = new Instruction(Opcode.Load, t, [p]);
    i.flags = flags;
    if (flags & Flag.Atomic) i.extra = this.parseAtomicOrdering();
    this.parseMemAlign(i);
    return i;
  }

  private parseAtomicOrdering(): string {
    const lx = this.lx;
    const s = lx.start;
    if (this.isWord('syncscope')) {
      lx.next();
      this.skipParens();
    }
    if (lx.tk() !== Tok.Word) this.error('expected atomic ordering');
    lx.next();
    return lx.slice(s, lx.prevEnd).trim();
  }

  private parseMemAlign(i: Instruction): void {
    const lx = this.lx;
    while (lx.tk() === Tok.Comma) {
      if (!lx.nextIsWord('align')) break;
      lx.next();
      lx.next();
      i.align = this.parseAlignment(false);
    }
  }

  private parseStore(): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next();
    let flags = 0;
    if (this.eatWord('atomic')) flags |= Flag.Atomic;
    if (this.eatWord('volatile')) flags |= Flag.Volatile;
    const v = this.parseTypeAndValue();
    this.expect(Tok.Comma);
    const p = this.parseTypeAndValue();
    if (p.type.kind !== TypeKind.Ptr) this.error(`store operand must be a pointer, not '${p.type}'`, loc);
    const i = new Instruction(Opcode.Store, voidType, [v, p]);
    i.flags = flags;
    if (flags & Flag.Atomic) i.extra = this.parseAtomicOrdering();
    this.parseMemAlign(i);
    return i;
  }

  private parseGep(): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next();
    let flags = 0;
    for (;;) {
      if (this.eatWord('inbounds')) flags |= Flag.InBounds;
      else if (this.eatWord('nuw')) flags |= Flag.NUW;
      else if (this.eatWord('nusw')) flags |= Flag.NUSW;
      else break;
    }
    const src = this.parseType(false);
    this.expect(Tok.Comma);
    const base = this.parseTypeAndValue();
    if (base.type.scalarType().kind !== TypeKind.Ptr) this.error(`getelementptr base must be a pointer, not '${base.type}'`, loc);
    const ops: Value[] = [base];
    let t: Type | null = src;
    let first = true;
    while (lx.tk() === Tok.Comma) {
      if (lx.nextIsMetadataName()) break;
      lx.next();
      if (this.eatWord('inrange')) {
        /* old-style marker */
      }
      const iloc = lx.loc();
      let idx = this.parseTypeAndValue();
      if (idx.type.scalarType().kind !== TypeKind.Int) this.error('getelementptr index must be an integer', iloc);
      if (!first) {
        if (t === null) this.error('too many getelementptr indices', iloc);
        let k: number | null = null;
        if (t.kind === TypeKind.Struct) {
          // a constant expression LLVM folds to an integer as it reads it is one
          const folded = constantIntOf(idx);
          if (folded === null) this.error('struct index must be a constant', iloc);
          idx = folded;
          k = Number(folded.value);
          if (k < 0 || k >= t.members.length) this.error(`struct index ${k} out of range for '${t}'`, iloc);
        }
        t = gepStepType(t, k) ?? this.error(`cannot index into '${t}'`, iloc);
      }
      first = false;
      ops.push(idx);
    }
    const i = new Instruction(Opcode.GetElementPtr, base.type.kind === TypeKind.Vector ? base.type : ptrType(base.type.bits), ops);
    i.auxType = src;
    i.flags = flags;
    return i;
  }

  private parseCall(): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next(); // 'call'
    const flags = this.parseFastMath();
    let cconv = '';
    if (lx.tk() === Tok.Word && GLOBAL_PREFIX_WORDS.has(lx.text) && lx.text.endsWith('cc')) {
      const s = lx.start;
      lx.next();
      if (lx.tk() === Tok.Int) lx.next();
      cconv = lx.slice(s, lx.prevEnd).trim();
    }
    const retAttrs = this.skipParamAttrs('ret');
    const retWords = this.lastAttrWords;
    if (this.isWord('addrspace')) {
      lx.next();
      this.skipParens();
    }
    const tloc = lx.loc();
    let t = this.parseType();
    let fnType: Type;
    if (t.kind === TypeKind.Function) fnType = t;
    else fnType = null as unknown as Type;
    // callee
    const calleeLoc = lx.loc();
    let callee: Value;
    if (lx.tk() === Tok.Word && lx.text === 'asm') callee = this.parseKeywordConstant(ptrType(0), calleeLoc);
    else callee = this.parseValue(ptrType(0));
    // arguments
    this.expect(Tok.LParen);
    const args: Value[] = [];
    const argAttrs: string[] = [];
    if (lx.tk() !== Tok.RParen) {
      do {
        if (lx.tk() === Tok.DotDotDot) {
          lx.next();
          break;
        }
        const at = this.parseType(false);
        const attrs = this.skipParamAttrs('param', at);
        argAttrs.push(attrs);
        args.push(at === metadataType ? this.parseMetadataArg() : this.parseValue(at));
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RParen);
    if (fnType === null) {
      if (callee.kind === ValueKind.Function && (callee as Function).fnType.returnType === t && (callee as Function).fnType.vararg) {
        fnType = (callee as Function).fnType;
      } else fnType = functionType(t, args.map((a) => a.type), false);
    }
    t = fnType.returnType;
    void tloc;
    this.lastAttrWords = retWords;
    this.checkAttrTypes(t);
    // function attributes and operand bundles, on the line of the closing parenthesis
    const fnStart = lx.start;
    const callLine = lx.tokLine;
    for (;;) {
      if (lx.tokLine !== callLine) break;
      if (lx.tk() === Tok.AttrGrpID) {
        this.groupRefs.push(lx.num);
        lx.next();
        continue;
      }
      if (lx.tk() === Tok.Word && isFunctionSuffixWord(lx.text) && !DEFINITION_ONLY_WORDS.has(lx.text)) {
        // a function attribute; any other word is left for the next instruction, which
        // reports it as LLParser does ("expected instruction opcode")
        const w = lx.text;
        const wloc = lx.loc();
        lx.next();
        if (w === 'allocsize') this.parseAllocSize(fnType, wloc);
        else if (readAttributeArgument(this.attrHost, w, 'fn')) {
          /* read */
        } else if (lx.tk() === Tok.LParen) {
          if (isAttributeWord(w)) this.error('expected instruction opcode');
          this.skipParens();
        }
        continue;
      }
      if (lx.tk() === Tok.String) {
        this.stringFnAttribute();
        continue;
      }
      if (lx.tk() === Tok.LSquare) this.error('operand bundles are not supported', lx.loc());
      break;
    }
    const fnAttrs = lx.slice(fnStart, lx.prevEnd).trim();
    const nfixed = fnType.params.length;
    if (args.length < nfixed || (!fnType.vararg && args.length !== nfixed)) {
      this.error(`call has ${args.length} argument(s), but the function type '${fnType}' takes ${nfixed}`, loc);
    }
    for (let k = 0; k < nfixed; k++) {
      if (args[k].type !== fnType.params[k]) this.error(`argument ${k + 1} has type '${args[k].type}', expected '${fnType.params[k]}'`, loc);
    }
    const i = new Instruction(Opcode.Call, t, [callee, ...args]);
    i.auxType = fnType;
    i.flags = flags;
    if (cconv !== '' || retAttrs !== '' || fnAttrs !== '' || argAttrs.some((a) => a !== '')) {
      const ca: CallAttrs = { cconv, ret: retAttrs, args: argAttrs, fn: fnAttrs };
      i.callAttrs = ca;
    }
    return i;
  }

  private parseMetadataArg(): Value {
    // `metadata !5`, `metadata !{}`, `metadata !"s"`, `metadata !DIExpression()`, or a value: `metadata i32 %x`
    const md = this.mdr.parseMetadata(true);
    return new MetadataValue(metadataType, '', md);
  }
}

/**
 * Words LLParser reads after a function's parameter list (function attributes, and
 * unnamed_addr, section, comdat, align, gc, …); any other word there is an error.
 */
const FUNCTION_SUFFIX_WORDS = new Set([
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
const DEFINITION_ONLY_WORDS = new Set([
  'unnamed_addr', 'local_unnamed_addr', 'addrspace', 'section', 'partition', 'comdat', 'align', 'gc', 'prefix', 'prologue', 'personality',
]);

function isFunctionSuffixWord(w: string): boolean {
  return FUNCTION_SUFFIX_WORDS.has(w);
}

/** The casts LLVM 19 still reads as constant expressions, with the types each allows. */
function constantCastOk(op: Opcode, src: Type, dst: Type): boolean {
  const s = src.scalarType();
  const d = dst.scalarType();
  if (op === Opcode.BitCast && !s.isPtr() && !d.isPtr()) {
    const bits = (t: Type): number => (t.kind === TypeKind.Vector ? t.count : 1) * (t.scalarType().isInt() || t.scalarType().isFloatingPoint() ? t.scalarType().bits : 0);
    return bits(src) !== 0 && bits(src) === bits(dst);
  }
  if ((src.kind === TypeKind.Vector) !== (dst.kind === TypeKind.Vector) || (src.kind === TypeKind.Vector && src.count !== dst.count)) return false;
  switch (op) {
    case Opcode.Trunc:
      return s.isInt() && d.isInt() && s.bits > d.bits;
    case Opcode.PtrToInt:
      return s.isPtr() && d.isInt();
    case Opcode.IntToPtr:
      return s.isInt() && d.isPtr();
    case Opcode.AddrSpaceCast:
      return s.isPtr() && d.isPtr() && s.bits !== d.bits;
    case Opcode.BitCast:
      return s.isPtr() && d.isPtr() && s.bits === d.bits;
    default:
      return false;
  }
}

function stripWords(prefix: string, attrs: string): string {
  const idx = prefix.indexOf(attrs);
  if (idx < 0) return prefix;
  return (prefix.slice(0, idx) + prefix.slice(idx + attrs.length)).replace(/\s+/g, ' ').trim();
}


/**
 * The debug record a call to `llvm.dbg.declare/value/assign/label` stands for (LLVM 19
 * reads the old form and prints records), or null when the operands do not fit.
 */
function dbgIntrinsicToRecord(call: Instruction, name: string): DbgRecord | null {
  const kind = name.slice('llvm.dbg.'.length) as DbgRecordKind;
  const loc = getAttachment(call.md, 'dbg');
  if (loc === null) return null;
  const ops: MDOperand[] = [];
  for (let k = 1; k < call.ops.length; k++) {
    const v = call.ops[k].value;
    if (v.kind !== ValueKind.Metadata) return null;
    const md = (v as MetadataValue).md;
    if (md === null) return null;
    ops.push(md);
  }
  const want = kind === 'label' ? 1 : kind === 'assign' ? 6 : kind === 'value' || kind === 'declare' ? 3 : -1;
  if (ops.length !== want) return null;
  for (let k = 1; k < ops.length; k++) {
    const o = ops[k];
    if (k === 4) continue;
    if (o === null || typeof o === 'string' || o.mdKind !== MDKind.Node) return null;
  }
  if (kind === 'label' && (ops[0] === null || typeof ops[0] === 'string' || ops[0].mdKind !== MDKind.Node)) return null;
  return new DbgRecord(kind, ops, loc as MDNode);
}

/** The ConstantInt `v` is or folds to as LLVM folds integer constant expressions, or null. */
function constantIntOf(v: Value): ConstantInt | null {
  return v instanceof Constant ? foldIntConstant(v) : null;
}

/**
 * The module level of the LLVM IR parser (LLParser::Run, parseTopLevelEntities): the pre-scan
 * of global definitions, top-level words, named types, metadata definitions, global
 * variables and aliases; the last class of the chain (see parser-base.ts).
 */
import { Constant } from '../ir/constants.js';
import { Function, GlobalAlias, GlobalVariable } from '../ir/function.js';
import { Module } from '../ir/module.js';
import { ptrType, Type, TypeKind } from '../ir/types.js';
import { ValueKind } from '../ir/value.js';
import { Tok } from './lexer.js';
import { dataLayoutProblem } from './datalayout.js';
import {
  attributePlaceProblem,
  isAttributeWord,
  readAttributeArgument,
  stringFnAttributeProblem,
} from './attributes.js';
import { declarePendingIntrinsics } from './intrinsic-declare.js';
import { DEFINITION_ONLY_WORDS, GLOBAL_PREFIX_WORDS, LINKAGES, Loc, isFunctionSuffixWord } from './parser-base.js';
import { FunctionParser } from './parser-functions.js';

/** What may follow `, ` after a global variable's initializer (LLParser::parseGlobal). */
const GLOBAL_PROPERTIES = new Set([
  'section', 'partition', 'comdat', 'align', 'code_model', 'no_sanitize_address', 'no_sanitize_hwaddress',
  'sanitize_address_dyninit', 'sanitize_memtag',
]);

/** `define …@name` / `declare …@name` at a line's first non-blank character (prescan, sticky). */
const FUNCTION_DEF = /(?:define|declare)\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)/y;
/** `@name = … global|constant|alias|ifunc` at a line's first non-blank character (prescan, sticky). */
const GLOBAL_DEF = /@("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)[ \t]*=[^\n]*?\b(alias|ifunc|global|constant)\b/y;

export class Parser extends FunctionParser {
  // ---- module -----------------------------------------------------------------------

  /** Where the last `target datalayout` string was (-1: none); validated at the end. */
  protected dataLayoutLoc: Loc = -1;

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
    // an intrinsic called undeclared is declared (LLParser does it before it reports undefined values)
    if (this.pendingIntrinsics.size > 0) {
      for (const g of this.pendingIntrinsics.keys()) if (this.definedGlobals.has(g)) this.pendingIntrinsics.delete(g);
      declarePendingIntrinsics(this.m, this.pendingIntrinsics.values(), (msg, loc) => this.error(msg, loc));
    }
    for (const [g, loc] of this.globalForwardLoc) {
      if (!this.definedGlobals.has(g) && !this.pendingIntrinsics.has(g)) this.error(`use of undefined value '@${g.name}'`, loc);
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
  protected prescan(): void {
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

  protected parseTopLevelWord(): void {
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
          // (a function's properties — unnamed_addr, section, gc… — are no attributes)
          if (t === Tok.Word && ((isFunctionSuffixWord(lx.text) && !DEFINITION_ONLY_WORDS.has(lx.text)) || isAttributeWord(lx.text))) {
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
  protected skipToLineEnd(start: number, into: string[] | null): void {
    const lx = this.lx;
    const line = lx.tokLine;
    while (lx.tk() !== Tok.EOF && lx.tokLine === line) lx.next();
    if (into !== null) into.push(lx.slice(start, lx.prevEnd).trim());
  }

  protected parseNamedType(): void {
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

  protected parseMetadataDef(): void {
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
  protected skipMetadataValue(): void {
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

  protected parseGlobal(): void {
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
    let addrSpace = 0;
    while (lx.tk() === Tok.Word && GLOBAL_PREFIX_WORDS.has(lx.text)) {
      const w = lx.text;
      lx.next();
      if (w === 'addrspace' && lx.tk() === Tok.LParen) {
        // addrspace(N): the global's pointer type (the text stays in the prefix for the printer)
        lx.next();
        const nLoc = lx.loc();
        if (lx.tk() !== Tok.Int || !/^[0-9]+$/.test(lx.text) || Number(lx.text) >= 2 ** 24) this.error('invalid address space, must be a 24-bit integer', nLoc);
        addrSpace = Number(lx.text);
        lx.next();
        this.expect(Tok.RParen);
      } else if (lx.tk() === Tok.LParen) this.skipParens();
    }
    const prefix = lx.slice(prefixStart, lx.prevEnd).trim();
    if (this.isWord('alias') || this.isWord('ifunc')) {
      // LLParser reads addrspace(N) only before 'global'/'constant' (an alias takes its aliasee's)
      if (addrSpace !== 0 || /\baddrspace\b/.test(prefix)) this.error("expected 'global' or 'constant'");
      const isIfunc = lx.text === 'ifunc';
      lx.next();
      const vt = this.parseType();
      this.expect(Tok.Comma);
      const atLoc = lx.loc();
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
        if (at.kind === TypeKind.Ptr && a.type !== at) this.error('forward reference and definition of alias have different types', atLoc);
        (a as { valueType: Type }).valueType = vt;
        a.aliasee = aliasee;
      }
      // the alias has its aliasee's pointer type (an alias of an addrspace(1) global is one too)
      if (at.kind === TypeKind.Ptr) a.type = at;
      a.attrs = { linkage, prefix, suffix: lx.slice(suffixStart, lx.prevEnd).trim() };
      this.definedGlobals.add(a);
      this.m.addAlias(a);
      return;
    }
    let isConstant: boolean;
    if (this.eatWord('global')) isConstant = false;
    else if (this.eatWord('constant')) isConstant = true;
    else this.error(`expected 'global' or 'constant', found ${this.describe()}`);
    const typeLoc = lx.loc();
    const vt = this.parseType();
    let init: Constant | null = null;
    const isDecl = linkage === 'external' || linkage === 'extern_weak';
    if (!isDecl) init = this.parseConstant(vt);
    let g = this.defineGlobal(key, loc) as GlobalVariable | undefined;
    if (g !== undefined && !(g instanceof GlobalVariable)) this.error('global variable conflicts with an earlier reference', loc);
    const name = key.startsWith('#') ? '' : key.slice(1);
    if (g === undefined) {
      g = new GlobalVariable(name, vt, init, isConstant, addrSpace);
      if (key.startsWith('#')) this.globalsByNumber[Number(key.slice(1))] = g;
      else this.globalsByName.set(name, g);
    } else {
      // a forward reference was typed by its first use (LLParser's placeholder)
      if (g.type !== ptrType(addrSpace)) this.error('forward reference and definition of global have different types', typeLoc);
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

  protected skipGlobalSuffix(): void {
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
}

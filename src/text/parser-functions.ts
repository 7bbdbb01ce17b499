/**
 * Function headers (`define`/`declare`: linkage, attributes, parameters, suffix words) and
 * bodies: blocks, their labels and numbering (LLParser::parseFunctionHeader, parseFunctionBody,
 * parseBasicBlock).
 */
import { BasicBlock } from '../ir/basic-block.js';
import { type MDAttachment } from '../ir/metadata.js';
import { Function } from '../ir/function.js';
import { Type, functionType } from '../ir/types.js';
import { Tok } from './lexer.js';
import { attributePlaceProblem, isAttributeWord, readAttributeArgument } from './attributes.js';
import { FunctionState, GLOBAL_PREFIX_WORDS, LINKAGES, Loc, isFunctionSuffixWord } from './parser-base.js';
import { InstructionParser } from './parser-instructions.js';

const TOP_LEVEL_WORDS = new Set(['define', 'declare', 'attributes', 'source_filename', 'target', 'module', 'uselistorder', 'uselistorder_bb']);

function stripWords(prefix: string, attrs: string): string {
  const idx = prefix.indexOf(attrs);
  if (idx < 0) return prefix;
  return (prefix.slice(0, idx) + prefix.slice(idx + attrs.length)).replace(/\s+/g, ' ').trim();
}

export abstract class FunctionParser extends InstructionParser {
  // ---- functions ----------------------------------------------------------------------------

  protected parseFunction(isDefine: boolean): void {
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

  protected parseBody(fn: Function, argNumbers: (number | null)[], argLocs: Loc[], headerLoc: Loc): void {
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

  protected parseBlock(fs: FunctionState): void {
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
}

/**
 * The operand lists of LLVM IR instructions with more than a plain form: binary operators and
 * their flags, casts, alloca, load, store, getelementptr, call (LLParser::parseBinary,
 * parseCast, parseAlloc, parseLoad, parseStore, parseGetElementPtr, parseCall).
 */
import { Constant, ConstantInt, MetadataValue } from '../ir/constants.js';
import { Function } from '../ir/function.js';
import { CallAttrs, Instruction } from '../ir/instruction.js';
import { Flag, Opcode, OPCODE_NAMES } from '../ir/opcodes.js';
import { Type, TypeKind, functionType, gepStepType, i32, metadataType, ptrType, voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { Tok } from './lexer.js';
import { foldIntConstant } from '../ir/constant-int-fold.js';
import { isAttributeWord, readAttributeArgument } from './attributes.js';
import { DEFINITION_ONLY_WORDS, GLOBAL_PREFIX_WORDS, isFunctionSuffixWord, type Loc } from './parser-base.js';
import { ValueParser } from './parser-values.js';

const FAST_MATH: Record<string, number> = {
  nnan: Flag.NNaN, ninf: Flag.NInf, nsz: Flag.NSZ, arcp: Flag.ARcp, contract: Flag.Contract, afn: Flag.AFn,
  reassoc: Flag.Reassoc, fast: Flag.NNaN | Flag.NInf | Flag.NSZ | Flag.ARcp | Flag.Contract | Flag.AFn | Flag.Reassoc,
};

/** The ConstantInt `v` is or folds to as LLVM folds integer constant expressions, or null. */
export function constantIntOf(v: Value): ConstantInt | null {
  return v instanceof Constant ? foldIntConstant(v) : null;
}

export abstract class OperationParser extends ValueParser {
  /**
   * LLParser: fast-math flags on a call, phi or select need a floating-point (vector)
   * result, or an array of them (LLVM's FPMathOperator::classof).
   */
  protected checkFastMathResult(flags: number, t: Type, what: string, loc: Loc): void {
    if (flags === 0) return;
    let e = t;
    while (e.kind === TypeKind.Array) e = e.elem!;
    if (!e.scalarType().isFloatingPoint()) this.error(`fast-math-flags specified for ${what} without floating-point scalar or vector return type`, loc);
  }

  protected parseFastMath(): number {
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

  protected parseBinary(op: Opcode): Instruction {
    const lx = this.lx;
    const loc = lx.loc();
    lx.next();
    let flags = 0;
    // LLParser 19 reads only the flags of the opcode (nuw/nsw: add sub mul shl; exact: udiv
    // sdiv lshr ashr; disjoint: or; fast-math: the float ops): `add fast nsw` is an error
    const wrap = op === Opcode.Add || op === Opcode.Sub || op === Opcode.Mul || op === Opcode.Shl;
    const exact = op === Opcode.UDiv || op === Opcode.SDiv || op === Opcode.LShr || op === Opcode.AShr;
    const fp = op === Opcode.FAdd || op === Opcode.FSub || op === Opcode.FMul || op === Opcode.FDiv || op === Opcode.FRem;
    for (;;) {
      if (lx.tk() !== Tok.Word) break;
      const w = lx.text;
      if (wrap && w === 'nsw') flags |= Flag.NSW;
      else if (wrap && w === 'nuw') flags |= Flag.NUW;
      else if (exact && w === 'exact') flags |= Flag.Exact;
      else if (op === Opcode.Or && w === 'disjoint') flags |= Flag.Disjoint;
      else {
        const f = fp ? FAST_MATH[w] : undefined;
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

  protected parseCast(op: Opcode): Instruction {
    const lx = this.lx;
    lx.next();
    let flags = 0;
    // LLParser 19: `nneg` only on zext/uitofp, `nuw`/`nsw` only on trunc (`zext nuw` is an error)
    if (op === Opcode.ZExt || op === Opcode.UIToFP) {
      if (this.eatWord('nneg')) flags |= Flag.NNeg;
    } else if (op === Opcode.Trunc) {
      for (;;) {
        if (!(flags & Flag.NUW) && this.eatWord('nuw')) flags |= Flag.NUW;
        else if (!(flags & Flag.NSW) && this.eatWord('nsw')) flags |= Flag.NSW;
        else break;
      }
    }
    flags |= this.parseFastMath();
    const v = this.parseTypeAndValue();
    this.expectWord('to');
    const to = this.parseType(false);
    const i = new Instruction(op, to, [v]);
    i.flags = flags;
    return i;
  }

  protected parseAlloca(): Instruction {
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

  protected parseLoad(): Instruction {
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

  protected parseAtomicOrdering(): string {
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

  protected parseMemAlign(i: Instruction): void {
    const lx = this.lx;
    while (lx.tk() === Tok.Comma) {
      if (!lx.nextIsWord('align')) break;
      lx.next();
      lx.next();
      i.align = this.parseAlignment(false);
    }
  }

  protected parseStore(): Instruction {
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

  protected parseGep(): Instruction {
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

  protected parseCall(): Instruction {
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
    this.checkFastMathResult(flags, t, 'call', loc);
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

  protected parseMetadataArg(): Value {
    // `metadata !5`, `metadata !{}`, `metadata !"s"`, `metadata !DIExpression()`, or a value: `metadata i32 %x`
    const md = this.mdr.parseMetadata(true);
    return new MetadataValue(metadataType, '', md);
  }
}

/**
 * Constants (nested aggregates and constant expressions, read iteratively) and references to
 * locals, globals and blocks (LLParser::parseValID, parseValue): the part of the parser chain
 * (see parser-base.ts) every operand goes through.
 */
import { BasicBlock } from '../ir/basic-block.js';
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
import { Flag, Opcode, OPCODE_BY_NAME, OPCODE_NAMES, Pred, fcmpPredByName, icmpPredByName } from '../ir/opcodes.js';
import { Type, TypeKind, labelType } from '../ir/types.js';
import { Argument, Value, ValueKind } from '../ir/value.js';
import { Tok } from './lexer.js';
import { parseFloatLiteral } from './float-format.js';
import { FunctionState, Loc } from './parser-base.js';
import { TypeParser } from './parser-types.js';

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

export abstract class ValueParser extends TypeParser {
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
  protected parseValueOrConstant(ty: Type, allowLocal: boolean): Value {
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
        return this.parseGlobalRef(ty);
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

  protected parseKeywordConstant(ty: Type, loc: Loc): Constant {
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
        return this.parseGlobalRef(ty.kind === TypeKind.Ptr ? ty : undefined);
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
  protected startsNestedConstant(): boolean {
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
  protected parseNestedConstant(ty: Type): Constant {
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
  protected *nestedConstantFrame(ty: Type): Generator<Type, Constant, Constant> {
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
  protected *constantListFrame(close: Tok, elem: Type): Generator<Type, Constant[], Constant> {
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
  protected *structElementsFrame(ty: Type): Generator<Type, Constant[], Constant> {
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
  protected *constantExprFrame(op: Opcode, ty: Type, loc: Loc): Generator<Type, Constant, Constant> {
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

  protected parsePredicate(op: Opcode): Pred {
    const lx = this.lx;
    if (lx.tk() !== Tok.Word) this.error('expected comparison predicate');
    const p = op === Opcode.ICmp ? icmpPredByName(lx.text) : fcmpPredByName(lx.text);
    if (p === undefined) this.error(`expected ${op === Opcode.ICmp ? 'icmp' : 'fcmp'} predicate, found '${lx.text}'`);
    lx.next();
    return p;
  }

  // ---- local values and blocks --------------------------------------------------------------

  protected blockByName(fs: FunctionState, name: string, loc: Loc): BasicBlock {
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

  protected blockByNumber(fs: FunctionState, n: number, loc: Loc): BasicBlock {
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

  protected resolveForward(fs: FunctionState, placeholder: Value, def: Value, loc: Loc): void {
    if (placeholder.type !== def.type) {
      this.error(`'%${fs.forward.get(placeholder)?.name ?? def.name}' defined with type '${def.type}' but expected '${placeholder.type}'`, loc);
    }
    placeholder.replaceAllUsesWith(def);
    fs.forward.delete(placeholder);
  }

  /** A reference to a local value of type `ty` (consumes the token). */
  protected parseLocalRef(ty: Type): Value {
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

  protected parseValue(ty: Type): Value {
    return this.parseValueOrConstant(ty, true);
  }

  protected parseTypeAndValue(): Value {
    const t = this.parseType();
    return this.parseValue(t);
  }

  protected parseBlockRef(): BasicBlock {
    const lx = this.lx;
    if (!this.isWord('label')) this.error(`expected 'label', found ${this.describe()}`);
    lx.next();
    const loc = lx.loc();
    if (lx.tk() !== Tok.LocalVar && lx.tk() !== Tok.LocalVarID) this.error(`expected a block name, found ${this.describe()}`);
    const v = this.parseLocalRef(labelType);
    if (v.kind !== ValueKind.BasicBlock) this.error("expected a basic block", loc);
    return v as BasicBlock;
  }
}

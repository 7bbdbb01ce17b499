/**
 * One instruction statement (`%x = op …`, its metadata attachments and debug records) and
 * the instructions read inline (LLParser::parseInstruction): numbering of results, forward
 * references resolved at their definition.
 */
import { BasicBlock } from '../ir/basic-block.js';
import {
  DbgRecord,
  type DbgRecordKind,
  type MDAttachment,
  MDNode,
  type MDOperand,
  MDKind,
  getAttachment,
} from '../ir/metadata.js';
import { Constant, ConstantAggregate, ConstantInt, MetadataValue } from '../ir/constants.js';
import { Instruction } from '../ir/instruction.js';
import { Flag, Opcode, isBinaryOp, isCastOp } from '../ir/opcodes.js';
import { TypeKind, i1, labelType, vectorType, voidType } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { Tok } from './lexer.js';
import { FunctionState } from './parser-base.js';
import { OperationParser, constantIntOf } from './parser-operations.js';

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

export abstract class InstructionParser extends OperationParser {
  protected parseInstructionStatement(fs: FunctionState, bb: BasicBlock): Instruction {
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

  protected parseInstruction(bb: BasicBlock): Instruction {
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
        this.checkFastMathResult(flags, t, 'phi', loc);
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
        this.checkFastMathResult(flags, a.type, 'select', loc);
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
  protected phiContinues(): boolean {
    const lx = this.lx;
    if (lx.tk() !== Tok.Comma || lx.peek() !== Tok.LSquare) return false;
    lx.next();
    return true;
  }
}

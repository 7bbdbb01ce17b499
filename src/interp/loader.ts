/**
 * Loads a module into a machine: one allocation per global (initialised byte for byte per
 * the x86-64 layout), one zero-size allocation per function (its address), the standard
 * FILE objects, and constant-expression evaluation for initializers and operands.
 *
 * Relocations: clang's relative lookup tables store `trunc(sub(ptrtoint @str, ptrtoint
 * @table))` in i32 slots. Our addresses are 2^32 apart per allocation, so the truncation
 * loses the target; the loader records the full difference per slot address and
 * llvm.load.relative reads it back (runtime.ts: loadRelative).
 */
import { BlockAddress, ConstantAggregate, ConstantExpr, ConstantFP, ConstantInt, ConstantString, type Constant } from '../ir/constants.js';
import type { BasicBlock } from '../ir/basic-block.js';
import { Function, GlobalAlias, type GlobalVariable } from '../ir/function.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import type { Module } from '../ir/module.js';
import { Opcode, Pred } from '../ir/opcodes.js';
import { Type, TypeKind, quoteIdentifier } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { compileFunction, type ModuleContext } from './codegen.js';
import { Fault, InterpError } from './errors.js';
import { LIBC, type FileIds } from './libc.js';
import { FnInfo, type ExternalFn, type Machine } from './machine.js';
import { AK, ID_UNIT, TWO32, type Memory } from './memory.js';
import { RT } from './runtime.js';
import { bitcastValue, writeRaw, zeroValue } from './typed-memory.js';
import { BIN_ADD, binW, fptosi64, fptoui64, ubig, wrapW, type Wide } from './wide.js';

export class LoadedModule implements ModuleContext {
  readonly fnIndexMap = new Map<Function, number>();
  private readonly addr = new Map<Value, number>();
  private readonly opKeys = new Map<string, number>();
  private readonly constCache = new Map<Value, unknown>();

  constructor(
    readonly machine: Machine,
    readonly module: Module,
    readonly limitSteps: boolean,
    readonly externals: Record<string, ExternalFn>,
  ) {
    const S = machine;
    S.opNames.length = 0;
    S.compile = (info) => compileFunction(this, info);
    const M = S.mem;
    // functions
    for (const f of module.functions) {
      const info = new FnInfo(f, S.fns.length);
      this.fnIndexMap.set(f, info.index);
      S.fns.push(info);
      info.addr = M.allocFunction(f.name, info.index) * ID_UNIT;
      this.addr.set(f, info.addr);
      if (f.isDeclaration()) {
        const impl = externals[f.name];
        const name = f.name;
        info.external =
          impl ??
          (() => {
            throw new Fault(`call to unknown external function @${name}`, -1);
          });
      }
    }
    // standard streams
    const fileIds: FileIds = {
      stdin: M.allocOwned(216, AK.File, 'stdin') * ID_UNIT,
      stdout: M.allocOwned(216, AK.File, 'stdout') * ID_UNIT,
      stderr: M.allocOwned(216, AK.File, 'stderr') * ID_UNIT,
    };
    S.lib.files = fileIds;
    // globals: allocate first (initializers may point at each other), then initialise
    for (const g of module.globals) {
      if (g.initializer === null) {
        const std = (fileIds as unknown as Record<string, number>)[g.name];
        if (std !== undefined) {
          const id = M.allocOwned(8, AK.Global, g.name);
          M.dv[id].setUint32(0, std >>> 0, true);
          M.dv[id].setUint32(4, Math.floor(std / TWO32), true);
          this.addr.set(g, id * ID_UNIT);
        } else if (g.name === 'signgam') {
          // lgamma's sign of Γ (libc-math.ts writes it): a real int the program may read
          const a = M.allocOwned(4, AK.Global, g.name) * ID_UNIT;
          S.lib.signgam = a;
          this.addr.set(g, a);
        } else this.addr.set(g, M.allocExtern(g.name) * ID_UNIT);
        continue;
      }
      const id = allocGlobal(M, g);
      this.addr.set(g, id * ID_UNIT);
    }
    for (const g of module.globals) {
      if (g.initializer === null) continue;
      const a = this.addr.get(g)!;
      const id = a / ID_UNIT;
      this.writeConst(M.dv[id], 0, g.initializer, g.valueType, a);
    }
  }

  private readonly labels = new Map<BasicBlock, number>();
  private readonly labelBase = new Map<unknown, { base: number; n: number }>();
  /**
   * The address of a block (blockaddress): an offset inside one zero-size label
   * allocation per function, so that label differences (`&&a - &&b`, which C code keeps
   * in i32 tables) are small numbers as they are natively, and `&&b + (&&a - &&b)` is `&&a`.
   */
  blockAddress(bb: BasicBlock): number {
    let a = this.labels.get(bb);
    if (a === undefined) {
      let fl = this.labelBase.get(bb.parent);
      if (fl === undefined) {
        fl = { base: this.machine.mem.allocLabel(bb.parent?.name ?? '?') * ID_UNIT, n: 0 };
        this.labelBase.set(bb.parent, fl);
      }
      a = fl.base + 16 * ++fl.n;
      this.labels.set(bb, a);
    }
    return a;
  }

  fnIndex(f: Function): number {
    return this.fnIndexMap.get(f)!;
  }

  externalFor(name: string): ExternalFn | null {
    return this.externals[name] ?? null;
  }

  opKey(name: string): number {
    let k = this.opKeys.get(name);
    if (k === undefined) {
      k = this.machine.opNames.length;
      this.machine.opNames.push(name);
      this.opKeys.set(name, k);
    }
    return k;
  }

  addressOf(v: Value): number {
    const a = this.addr.get(v);
    if (a !== undefined) return a;
    if (v.kind === ValueKind.GlobalAlias) {
      const r = this.constValue((v as GlobalAlias).aliasee) as number;
      this.addr.set(v, r);
      return r;
    }
    throw new Error(`internal: no address for @${v.name}`);
  }

  /** Interpreter value of a constant. */
  constValue(c: Value): unknown {
    switch (c.kind) {
      case ValueKind.ConstantInt:
        return intValue((c as ConstantInt).value, c.type.bits);
      case ValueKind.ConstantFP:
        return (c as ConstantFP).value;
      case ValueKind.ConstantNull:
        return 0;
      case ValueKind.Undef:
      case ValueKind.Poison:
      case ValueKind.ConstantZero:
        return zeroValue(c.type);
      case ValueKind.GlobalVariable:
      case ValueKind.Function:
      case ValueKind.GlobalAlias:
        return this.addressOf(c);
      default:
        break;
    }
    const cached = this.constCache.get(c);
    if (cached !== undefined) return cached;
    this.evalNestedFirst(c as Constant);
    let v: unknown;
    switch (c.kind) {
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector:
        v = (c as ConstantAggregate).elements.map((e) => this.constValue(e));
        break;
      case ValueKind.ConstantString: {
        const b = (c as ConstantString).bytes;
        const n = c.type.count;
        const arr = new Array(n);
        for (let k = 0; k < n; k++) arr[k] = k < b.length ? (b[k] << 24) >> 24 : 0;
        v = arr;
        break;
      }
      case ValueKind.ConstantExpr:
        v = this.evalExpr(c as ConstantExpr);
        break;
      case ValueKind.BlockAddress:
        {
          // a deleted block's address is LLVM's `inttoptr (i32 1 to ptr)`
          const bb = (c as BlockAddress).liveBlock();
          v = bb === null ? 1 : this.blockAddress(bb as BasicBlock);
        }
        break;
      default:
        v = undefined;
    }
    this.constCache.set(c, v);
    return v;
  }

  /**
   * Evaluates the nested aggregates and expressions below `root` children first, with an
   * explicit stack, so that evaluating `root` finds every operand cached: constant
   * expressions may nest thousands deep (llvm-as reads 5,000), deeper than recursion goes.
   */
  private evalNestedFirst(root: Constant): void {
    const cache = this.constCache;
    const pending = (o: Value): boolean =>
      (o.kind === ValueKind.ConstantExpr || o.kind === ValueKind.ConstantArray || o.kind === ValueKind.ConstantStruct || o.kind === ValueKind.ConstantVector) && !cache.has(o);
    const kids = (c: Constant): readonly Constant[] => (c.kind === ValueKind.ConstantExpr ? (c as ConstantExpr).operands : c.kind === ValueKind.ConstantString ? [] : ((c as ConstantAggregate).elements ?? []));
    if (!kids(root).some(pending)) return;
    const stack: Constant[] = [root];
    const expanded = new Set<Constant>();
    while (stack.length > 0) {
      const c = stack[stack.length - 1];
      if (!expanded.has(c)) {
        expanded.add(c);
        for (const o of kids(c)) if (pending(o) && !expanded.has(o)) stack.push(o);
        continue;
      }
      stack.pop();
      if (c !== root && !cache.has(c)) this.constValue(c);
    }
  }

  private evalExpr(ce: ConstantExpr): unknown {
    const ops = ce.operands;
    const op = ce.opcode;
    const to = ce.type;
    if (op === Opcode.GetElementPtr) {
      let ty = ce.sourceType!;
      let p = this.constValue(ops[0]) as number;
      p += idx(this.constValue(ops[1])) * allocSize(ty);
      for (let k = 2; k < ops.length; k++) {
        const i = idx(this.constValue(ops[k]));
        if (ty.kind === TypeKind.Struct) {
          p += structLayout(ty).offsets[i];
          ty = ty.members[i];
        } else {
          ty = ty.elem!;
          p += i * allocSize(ty);
        }
      }
      return p;
    }
    if (op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast) return castValue(op, ops[0].type, to, this.constValue(ops[0]));
    if (op >= Opcode.Add && op <= Opcode.Xor) {
      const a = this.constValue(ops[0]);
      const b = this.constValue(ops[1]);
      const t = ops[0].type;
      if (t.kind === TypeKind.Int) return intBinary(op, a as Wide, b as Wide, t.bits);
      return floatBinary(op, a as number, b as number, t);
    }
    if (op === Opcode.ICmp) {
      const t = ops[0].type;
      const bits = t.kind === TypeKind.Int ? t.bits : 64;
      const a = this.constValue(ops[0]) as Wide;
      const b = this.constValue(ops[1]) as Wide;
      const sa = BigInt(a), sb = BigInt(b);
      const ua = ubig(a, bits), ub = ubig(b, bits);
      const p = ce.predicate as Pred;
      const r = p === Pred.EQ ? sa === sb : p === Pred.NE ? sa !== sb : p === Pred.SLT ? sa < sb : p === Pred.SLE ? sa <= sb : p === Pred.SGT ? sa > sb : p === Pred.SGE ? sa >= sb : p === Pred.ULT ? ua < ub : p === Pred.ULE ? ua <= ub : p === Pred.UGT ? ua > ub : ua >= ub;
      return r ? 1 : 0;
    }
    if (op === Opcode.Select) return this.constValue(ops[0]) ? this.constValue(ops[1]) : this.constValue(ops[2]);
    if (op === Opcode.FNeg) return -(this.constValue(ops[0]) as number);
    if (op === Opcode.ExtractElement) return (this.constValue(ops[0]) as unknown[])[idx(this.constValue(ops[1]))];
    throw new Error(`unsupported constant expression (${ce.opcode})`);
  }

  /** Writes constant c of type ty at dv[off] (the address `addr`, for relocations). */
  writeConst(dv: DataView, off: number, c: Constant, ty: Type, addr: number): void {
    switch (c.kind) {
      case ValueKind.ConstantZero:
      case ValueKind.Undef:
      case ValueKind.Poison:
      case ValueKind.ConstantNull:
        return; // buffers start zeroed
      case ValueKind.ConstantString: {
        const b = (c as ConstantString).bytes;
        const n = Math.min(b.length, storeSize(ty));
        for (let k = 0; k < n; k++) dv.setUint8(off + k, b[k]);
        return;
      }
      case ValueKind.ConstantArray:
      case ValueKind.ConstantVector:
      case ValueKind.ConstantStruct: {
        const els = (c as ConstantAggregate).elements;
        if (ty.kind === TypeKind.Struct) {
          const l = structLayout(ty);
          for (let k = 0; k < els.length; k++) this.writeConst(dv, off + l.offsets[k], els[k], ty.members[k], addr + l.offsets[k]);
        } else if (ty.kind === TypeKind.Vector && ty.elem!.kind === TypeKind.Int && ty.elem!.bits % 8 !== 0) {
          writeRaw(dv, off, this.constValue(c), ty);
        } else {
          const e = ty.elem!;
          const st = ty.kind === TypeKind.Vector ? storeSize(e) : allocSize(e);
          for (let k = 0; k < els.length; k++) this.writeConst(dv, off + k * st, els[k], e, addr + k * st);
        }
        return;
      }
      case ValueKind.ConstantExpr: {
        const ce = c as ConstantExpr;
        const v = this.constValue(c);
        if (ce.opcode === Opcode.Trunc && ty.kind === TypeKind.Int) {
          const full = this.constValue(ce.operands[0]);
          if (typeof full === 'number' && full !== v) this.machine.relocs.set(addr, full);
        }
        writeRaw(dv, off, v, ty);
        return;
      }
      default:
        writeRaw(dv, off, this.constValue(c), ty);
    }
  }
}

/**
 * A global's buffer, or an InterpError naming it when it cannot have one: an object is at
 * most 1 GiB (as an alloca is), and the host may refuse a smaller one.
 */
function allocGlobal(M: Memory, g: GlobalVariable): number {
  const size = allocSize(g.valueType);
  const what = `global @${g.name === '' ? '<unnamed>' : quoteIdentifier(g.name)} of type '${g.valueType}'`;
  if (!(size <= ID_UNIT)) throw new InterpError(`${what} needs ${size} bytes (more than 1 GiB per object)`);
  try {
    return M.allocOwned(size, g.isConstant ? AK.ConstGlobal : AK.Global, g.name || '<unnamed>');
  } catch (e) {
    if (e instanceof RangeError) throw new InterpError(`out of memory: ${what} needs ${size} bytes`);
    throw e;
  }
}

function idx(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : (v as number);
}

/** Canonical interpreter form of an integer of `bits` bits (i1 as 0/1). */
export function intValue(x: bigint, bits: number): Wide {
  if (bits === 1) return Number(x & 1n);
  if (bits <= 32) return Number(BigInt.asIntN(bits, x));
  return wrapW(x, bits);
}

function intBinary(op: Opcode, a: Wide, b: Wide, bits: number): Wide {
  // Add..Xor opcodes interleave float ops; map to binW codes
  const map: Partial<Record<Opcode, number>> = {
    [Opcode.Add]: 0, [Opcode.Sub]: 1, [Opcode.Mul]: 2, [Opcode.SDiv]: 3, [Opcode.UDiv]: 4, [Opcode.SRem]: 5, [Opcode.URem]: 6,
    [Opcode.Shl]: 7, [Opcode.LShr]: 8, [Opcode.AShr]: 9, [Opcode.And]: 10, [Opcode.Or]: 11, [Opcode.Xor]: 12,
  };
  const k = map[op] ?? BIN_ADD;
  if ((k >= 3 && k <= 6) && BigInt(b) === 0n) throw new Error('division by zero in a constant expression');
  const r = binW(k, bits === 1 ? -BigInt(a) : a, bits === 1 ? -BigInt(b) : b, bits);
  return intValue(BigInt(r), bits);
}

function floatBinary(op: Opcode, a: number, b: number, t: Type): number {
  let r: number;
  switch (op) {
    case Opcode.FAdd: r = a + b; break;
    case Opcode.FSub: r = a - b; break;
    case Opcode.FMul: r = a * b; break;
    case Opcode.FDiv: r = a / b; break;
    default: r = a % b;
  }
  return t.kind === TypeKind.Float ? Math.fround(r) : r;
}

/** A cast on interpreter values (constant folding and the reference semantics for tests). */
export function castValue(op: Opcode, from: Type, to: Type, v: unknown): unknown {
  const fb = from.kind === TypeKind.Int ? from.bits : 64;
  const tb = to.kind === TypeKind.Int ? to.bits : 64;
  switch (op) {
    case Opcode.Trunc:
      return intValue(BigInt(v as Wide), tb);
    case Opcode.ZExt:
      return intValue(BigInt.asUintN(fb, fb === 1 ? BigInt(v as number) : BigInt(v as Wide)), tb);
    case Opcode.SExt:
      return intValue(fb === 1 ? -BigInt(v as number) : BigInt(v as Wide), tb);
    case Opcode.PtrToInt:
      return intValue(BigInt(Math.trunc(v as number)), tb);
    case Opcode.IntToPtr:
      return RT.i2p(intValue(BigInt(v as Wide), fb), fb);
    case Opcode.BitCast:
      return from === to || (from.kind === TypeKind.Ptr && to.kind === TypeKind.Ptr) ? v : bitcastValue(v, from, to);
    case Opcode.AddrSpaceCast:
    case Opcode.FPExt:
      return v;
    case Opcode.FPTrunc:
      return to.kind === TypeKind.Float ? Math.fround(v as number) : v;
    case Opcode.SIToFP: {
      const x = fb === 1 ? -(v as number) : Number(v as Wide);
      return to.kind === TypeKind.Float ? Math.fround(x) : x;
    }
    case Opcode.UIToFP: {
      const x = Number(ubig(v as Wide, fb));
      return to.kind === TypeKind.Float ? Math.fround(x) : x;
    }
    case Opcode.FPToSI:
      return intValue(BigInt(fptosi64(v as number)), tb);
    case Opcode.FPToUI:
      return intValue(BigInt(fptoui64(v as number)), tb);
    default:
      return v;
  }
}

export const DEFAULT_EXTERNALS = LIBC;

/**
 * Compiles one IR function to a JavaScript function with `new Function` (a "closure
 * compiler" in the sense of Feeley & Lapalme, but emitting source so V8 optimises it).
 *
 * Shape of the output:
 *
 *   function f(S, fr) {
 *     const A = fr.a, sv = fr.sv; let a0 = A[0], …;   // arguments, re-read on every entry
 *     let v3 = 0, v4 = 0, …;                         // one JS local per SSA value
 *     let bb = fr.pc;
 *     for (;;) switch (bb) {
 *       case 0: C[0]++; …; bb = 2; continue;         // one case per block
 *       …  fr.pc = 9; sv[0] = v4; …push callee…; return;   // call to an IR function
 *       case 9: v4 = sv[0]; v7 = S.rv; C[5]++; …     // resume point, then the rest of the block
 *     }
 *   }
 *
 * Invariants: SSA values live across a suspending call (see liveness.ts) are saved to and
 * restored from `fr.sv`; phis are assigned on the incoming edge with parallel-copy
 * semantics (temporaries when a phi reads another phi of the same block); every segment
 * (block, or block remainder after a suspending call) bumps its counter once on entry, so
 * dynamic instruction counts are Σ count × static histogram.
 */
import { envVar, writeDiagnostics } from '../platform/index.js';
import type { BasicBlock } from '../ir/basic-block.js';
import { ConstantExpr, ConstantInt, ConstantFP } from '../ir/constants.js';
import { Function, GlobalAlias } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Opcode, OPCODE_NAMES, Pred } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { emitIntrinsic } from './intrinsics.js';
import { norm, uns } from './js-int.js';
import { liveAcrossCalls } from './liveness.js';
import type { ExternalFn, FnInfo, Machine } from './machine.js';
import { RT } from './runtime.js';
import { typeFromText } from './type-text.js';
import { MAX_SAFE } from './wide.js';
import { ID_UNIT } from './memory.js';

/** What the code generator needs from the loaded module. */
export interface ModuleContext {
  readonly machine: Machine;
  /** The interpreter value of a constant (globals and functions: their address). */
  constValue(c: Value): unknown;
  /** Index in machine.fns of a function. */
  fnIndex(f: Function): number;
  /** Implementation of an external function, or null when unknown. */
  externalFor(name: string): ExternalFn | null;
  /** Emit step-budget checks. */
  readonly limitSteps: boolean;
  /** Key of an opcode name in machine.opNames. */
  opKey(name: string): number;
  /** The address of a block (blockaddress). */
  blockAddress(bb: BasicBlock): number;
}

const RT_NAMES = Object.keys(RT);

/** Above this many SSA values a function keeps them in an array rather than JS locals. */
export const MAX_JS_LOCALS = 20000;

/** Type codes of variadic arguments (for va_start's overflow area). */
export const enum VaType {
  Int32 = 0,
  Int64 = 1,
  Double = 2,
  Ptr = 3,
  Other = 4,
}

export function vaTypeOf(t: Type): VaType {
  if (t.kind === TypeKind.Int) return t.bits <= 32 ? VaType.Int32 : t.bits <= 64 ? VaType.Int64 : VaType.Other;
  if (t.kind === TypeKind.Double || t.kind === TypeKind.Float) return VaType.Double;
  if (t.kind === TypeKind.Ptr) return VaType.Ptr;
  return VaType.Other;
}

export function numLit(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'Infinity';
  if (n === -Infinity) return '(-Infinity)';
  if (n === 0) return Object.is(n, -0) ? '(-0)' : '0';
  return n < 0 ? `(${n})` : String(n);
}

/** JS literal of an interpreter scalar value. */
export function valueLit(v: unknown): string | null {
  if (typeof v === 'number') return numLit(v);
  if (typeof v === 'bigint') return v < 0n ? `(${v}n)` : `${v}n`;
  return null;
}

export function isWideInt(t: Type): boolean {
  return t.kind === TypeKind.Int && t.bits > 32;
}

export class Gen {
  readonly names = new Map<Value, string>();
  readonly siteOf = new Map<Instruction, number>();
  readonly binds: unknown[] = [];
  private bindIndex = new Map<unknown, string>();
  readonly blocks: BasicBlock[];
  readonly blockLabel = new Map<BasicBlock, number>();
  private tempCount = 0;
  /** Site of the instruction being emitted. */
  site = 0;
  /** Emit memory accesses inline (small functions: keeps big ones under V8's optimisation size limit). */
  inlineMemory = true;
  /**
   * Entry-block allocas of one scalar whose address is only ever used directly by loads and
   * stores of that scalar type (and lifetime markers): no access through them can fault or
   * alias, so the slot lives in a JS local (`m<site>`) instead of memory — what -O0 code
   * spends most of its time on. They are saved across suspending calls like SSA values.
   */
  readonly promoted = new Map<Instruction, string>();

  findPromotable(): void {
    const entry = this.blocks[0];
    if (entry === undefined || this.spill) return;
    for (let i = entry.first; i !== null; i = i.next) {
      if (i.op !== Opcode.Alloca) continue;
      const t = i.auxType!;
      const scalar = (t.kind === TypeKind.Int && t.bits <= 64 && t.bits % 8 === 0) || t.kind === TypeKind.Float || t.kind === TypeKind.Double || t.kind === TypeKind.Ptr;
      const cnt = i.ops[0].value;
      if (!scalar || cnt.kind !== ValueKind.ConstantInt || (cnt as ConstantInt).value !== 1n) continue;
      let ok = true;
      for (let u = i.firstUse; u !== null && ok; u = u.next) {
        const user = u.user as Instruction;
        if (user.op === Opcode.Load) ok = user.type === t && u.index === 0;
        else if (user.op === Opcode.Store) ok = u.index === 1 && user.ops[0].value.type === t && user.ops[0].value !== i;
        else if (user.op === Opcode.Call) {
          const c = user.ops[0].value;
          ok = u.index > 0 && c.kind === ValueKind.Function && /^llvm\.lifetime\.(start|end)/.test(c.name);
        } else ok = false;
      }
      if (ok) this.promoted.set(i, `m${this.siteOf.get(i)}`);
    }
  }

  constructor(
    readonly mc: ModuleContext,
    readonly info: FnInfo,
  ) {
    const f = info.fn;
    this.blocks = f.blocks();
    for (let i = 0; i < f.args.length; i++) this.names.set(f.args[i], `a${i}`);
    let results = 0;
    for (const bb of this.blocks) for (let i = bb.first; i !== null; i = i.next) if (i.type.kind !== TypeKind.Void) results++;
    // V8 gives every JS local a register in the function's frame: tens of thousands of them
    // overflow the native stack on entry. Huge functions keep their values in an array.
    this.spill = results > MAX_JS_LOCALS;
    let site = 0;
    let slot = 0;
    for (let b = 0; b < this.blocks.length; b++) {
      const bb = this.blocks[b];
      this.blockLabel.set(bb, b);
      for (let i = bb.first; i !== null; i = i.next) {
        this.siteOf.set(i, site);
        if (i.type.kind !== TypeKind.Void) this.names.set(i, this.spill ? `X[${slot++}]` : `v${site}`);
        site++;
      }
    }
    this.spillSlots = slot;
  }

  /** Values live in the frame's array `X` instead of JS locals (huge functions). */
  readonly spill: boolean;
  readonly spillSlots: number;

  /** A JS object the generated code refers to by name. */
  bind(obj: unknown): string {
    let n = this.bindIndex.get(obj);
    if (n === undefined) {
      n = `E${this.binds.length}`;
      this.binds.push(obj);
      this.bindIndex.set(obj, n);
    }
    return n;
  }

  /**
   * Magnitude bounds of wide integer values: |v| < 2^bound. A bound ≤ 53 means the value is
   * always a JS number (a safe integer), so arithmetic whose result bound is ≤ 53 is exact
   * in doubles and needs neither overflow checks nor typeof tests. Computed once, forward
   * in layout order (an operand not yet seen, or a phi, is unbounded).
   */
  readonly bound = new Map<Value, number>();

  boundOf(v: Value): number {
    if (v.kind === ValueKind.ConstantInt) {
      const c = (v as ConstantInt).value;
      return (c < 0n ? -c : c).toString(2).length;
    }
    if (v.type.kind === TypeKind.Int && v.type.bits <= 32) return v.type.bits;
    if (v.type.kind === TypeKind.Ptr) return 53;
    return this.bound.get(v) ?? 999;
  }

  computeBounds(): void {
    for (const bb of this.blocks) {
      for (let i = bb.first; i !== null; i = i.next) {
        if (i.type.kind !== TypeKind.Int || i.type.bits <= 32) continue;
        const o = (k: number): number => this.boundOf(i.ops[k].value);
        let b = 999;
        switch (i.op) {
          case Opcode.SExt:
          case Opcode.ZExt:
            b = o(0);
            break;
          case Opcode.Add:
          case Opcode.Sub:
            b = Math.max(o(0), o(1)) + 1;
            break;
          case Opcode.Mul:
            b = o(0) + o(1);
            break;
          case Opcode.And: {
            const x = i.ops[0].value, y = i.ops[1].value;
            const nonNegConst = (v: Value): number => (v.kind === ValueKind.ConstantInt && (v as ConstantInt).value >= 0n ? this.boundOf(v) : 999);
            b = Math.min(Math.max(o(0), o(1)), nonNegConst(x), nonNegConst(y));
            break;
          }
          case Opcode.Or:
          case Opcode.Xor:
            b = Math.max(o(0), o(1));
            break;
          case Opcode.Shl: {
            const k = i.ops[1].value;
            if (k.kind === ValueKind.ConstantInt) b = o(0) + Number((k as ConstantInt).value);
            break;
          }
          case Opcode.AShr:
          case Opcode.SDiv:
            b = o(0);
            break;
          case Opcode.SRem:
            b = Math.min(o(0), o(1));
            break;
          case Opcode.Select:
            b = Math.max(o(1), o(2));
            break;
          case Opcode.PtrToInt:
            b = 53;
            break;
          case Opcode.Freeze:
            b = o(0);
            break;
          default:
            break;
        }
        if (b < 999) this.bound.set(i, Math.min(b, 999));
      }
    }
  }

  /** Whether an operand is always a JS number (narrow ints, pointers, bounded wide ints). */
  isNum(v: Value): boolean {
    return this.boundOf(v) <= 53;
  }

  temp(): string {
    return `t${this.tempCount++}`;
  }
  get temps(): number {
    return this.tempCount;
  }

  /** JS expression (a name or a literal) for an operand. */
  atom(v: Value): string {
    const n = this.names.get(v);
    if (n !== undefined) return n;
    switch (v.kind) {
      case ValueKind.ConstantInt: {
        const c = v as ConstantInt;
        const bits = c.type.bits;
        if (bits === 1) return c.value !== 0n ? '1' : '0';
        if (bits <= 32) return numLit(Number(c.value));
        if (c.value >= -BigInt(MAX_SAFE) && c.value <= BigInt(MAX_SAFE)) return numLit(Number(c.value));
        return c.value < 0n ? `(${c.value}n)` : `${c.value}n`;
      }
      case ValueKind.ConstantFP:
        return numLit((v as ConstantFP).value);
      case ValueKind.ConstantNull:
        return '0';
      case ValueKind.Undef:
      case ValueKind.Poison:
      case ValueKind.ConstantZero: {
        const k = v.type.kind;
        if (k === TypeKind.Array || k === TypeKind.Struct || k === TypeKind.Vector) return this.bind(this.mc.constValue(v));
        return '0';
      }
      case ValueKind.Metadata:
        return 'undefined';
      case ValueKind.BasicBlock:
        return String(this.blockLabel.get(v as BasicBlock) ?? -1);
      default: {
        const val = this.mc.constValue(v);
        const l = valueLit(val);
        return l !== null ? l : this.bind(val);
      }
    }
  }

  res(i: Instruction): string {
    return this.names.get(i)!;
  }
}

/** Whether a call suspends the activation (calls an IR function, directly or not). */
function resolveCallee(v: Value): Value {
  let c = v;
  for (let k = 0; k < 8; k++) {
    if (c.kind === ValueKind.GlobalAlias) c = (c as GlobalAlias).aliasee;
    else if (c.kind === ValueKind.ConstantExpr && (c as ConstantExpr).opcode === Opcode.BitCast) c = (c as ConstantExpr).operands[0];
    else break;
  }
  return c;
}

/** Whether a call may push IR frames (a direct call to a defined function, or an indirect call). */
function callsIR(i: Instruction): boolean {
  if (i.op !== Opcode.Call) return false;
  const c = resolveCallee(i.ops[0].value);
  if (c.kind === ValueKind.Function) return !(c as Function).isDeclaration();
  return c.kind !== ValueKind.InlineAsm;
}

const leafCache = new WeakMap<Function, boolean>();
/**
 * A leaf calls no IR function (only externals and intrinsics), so calling it directly from
 * JS adds exactly one JS stack level: such calls need no suspension. (It is rechecked
 * whenever a function is compiled, so a module changed between runs is seen afresh.)
 */
function isLeaf(f: Function): boolean {
  let r = leafCache.get(f);
  if (r === undefined) {
    r = !f.isDeclaration();
    if (r) outer: for (let b = f.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null; i = i.next) if (callsIR(i)) {
      r = false;
      break outer;
    }
    leafCache.set(f, r);
  }
  return r;
}

/** A direct call to a leaf function: runs to completion inside the caller's JS activation. */
function leafCallee(i: Instruction): Function | null {
  if (i.op !== Opcode.Call) return null;
  const c = resolveCallee(i.ops[0].value);
  return c.kind === ValueKind.Function && isLeaf(c as Function) ? (c as Function) : null;
}

/** Whether a call suspends the activation (returns to the driver loop). */
function isSplitCall(i: Instruction): boolean {
  return callsIR(i) && leafCallee(i) === null;
}

function opKeyName(i: Instruction): string {
  return OPCODE_NAMES[i.op];
}

function jsString(s: string): string {
  return JSON.stringify(s);
}

/** Compiles info.fn and installs info.code and the stats tables. */
export function compileFunction(mc: ModuleContext, info: FnInfo): void {
  const g = new Gen(mc, info);
  const f = info.fn;
  const blocks = g.blocks;

  // sites, segments
  const nSites = g.siteOf.size;
  g.inlineMemory = nSites <= 3000;
  g.computeBounds();
  g.findPromotable();
  const promotedNames = [...g.promoted.values()];
  const insts: Instruction[] = new Array(nSites);
  for (const [i, s] of g.siteOf) insts[s] = i;
  info.insts = insts;
  const instSeg = new Int32Array(nSites);
  const after = new Int32Array(nSites);
  const segOps: Int32Array[] = [];
  let nSeg = 0;
  {
    let segStart = 0;
    const close = (endSite: number): void => {
      // sites segStart..endSite inclusive form segment nSeg
      const hist = new Map<number, number>();
      for (let s = segStart; s <= endSite; s++) {
        instSeg[s] = nSeg;
        after[s] = endSite - s;
        const k = mc.opKey(opKeyName(insts[s]));
        hist.set(k, (hist.get(k) ?? 0) + 1);
      }
      const flat = new Int32Array(hist.size * 2);
      let j = 0;
      for (const [k, n] of hist) {
        flat[j++] = k;
        flat[j++] = n;
      }
      segOps.push(flat);
      nSeg++;
      segStart = endSite + 1;
    };
    for (const bb of blocks) {
      for (let i = bb.first; i !== null; i = i.next) {
        const s = g.siteOf.get(i)!;
        if (isSplitCall(i) || i.next === null) close(s);
      }
      if (bb.first === null) {
        /* empty block: nothing to count */
      }
    }
  }
  info.instSeg = instSeg;
  info.after = after;
  info.segOps = segOps;
  info.counts = new Float64Array(nSeg);

  // liveness across suspending calls
  const valueIndex = new Map<Instruction, number>();
  const valueName: string[] = [];
  for (const i of insts) {
    if (i.type.kind !== TypeKind.Void) {
      valueIndex.set(i, valueName.length);
      valueName.push(g.res(i));
    }
  }
  let hasSplit = false;
  for (const i of insts) if (isSplitCall(i)) hasSplit = true;
  const liveAcross = hasSplit ? liveAcrossCalls(blocks, valueIndex, valueName.length, isSplitCall) : new Map<Instruction, number[]>();

  // values used only in the segment that defines them are block-scoped `let`s of that
  // segment's case (fewer loop-carried variables for V8, so doubles stay unboxed)
  const segLocals: string[][] = [];
  for (let k = 0; k < nSeg; k++) segLocals.push([]);
  const isLocal = new Set<Instruction>();
  for (const i of insts) {
    if (g.spill) break;
    if (i.type.kind === TypeKind.Void || i.op === Opcode.Phi || isSplitCall(i)) continue;
    const d = instSeg[g.siteOf.get(i)!];
    let ok = true;
    for (let u = i.firstUse; u !== null && ok; u = u.next) {
      const user = u.user as Instruction;
      if (user.kind !== ValueKind.Instruction || user.parent === null || user.parent.parent !== f) {
        ok = false;
        break;
      }
      let useSite: number;
      if (user.op === Opcode.Phi) {
        const pred = user.blocks![u.index];
        if (pred.last === null || pred.parent !== f) {
          ok = false;
          break;
        }
        useSite = g.siteOf.get(pred.last)!;
      } else useSite = g.siteOf.get(user)!;
      if (instSeg[useSite] !== d) ok = false;
    }
    if (ok) {
      isLocal.add(i);
      segLocals[d].push(g.res(i));
    }
  }
  const localDecl = (sg: number): string => (segLocals[sg].length > 0 ? `let ${segLocals[sg].join(', ')};` : '');

  // emit
  const body: string[] = [];
  let resumeLabel = blocks.length;
  let seg = 0;
  for (const bb of blocks) {
    const label = g.blockLabel.get(bb)!;
    if (bb.first === null) {
      body.push(`case ${label}:`);
      body.push(`S.trap("block without terminator", -1);`);
      continue;
    }
    body.push(`case ${label}: {`);
    body.push(localDecl(seg));
    body.push(segEntry(g, seg, g.siteOf.get(bb.first)!, lengthOfSeg(info, seg)));
    for (let i: Instruction | null = bb.first; i !== null; i = i.next) {
      g.site = g.siteOf.get(i)!;
      if (isSplitCall(i)) {
        const live = liveAcross.get(i) ?? [];
        const r = resumeLabel++;
        const saves: string[] = [];
        const restores: string[] = [];
        for (let k = 0; k < live.length; k++) {
          saves.push(`sv[${k}] = ${valueName[live[k]]};`);
          restores.push(`${valueName[live[k]]} = sv[${k}];`);
        }
        for (let k = 0; k < promotedNames.length; k++) {
          saves.push(`sv[${live.length + k}] = ${promotedNames[k]};`);
          restores.push(`${promotedNames[k]} = sv[${live.length + k}];`);
        }
        body.push(`fr.pc = ${r}; ${saves.join(' ')}`);
        body.push(emitSuspendingCall(g, i));
        body.push('return; }');
        body.push(`case ${r}: {`);
        if (restores.length > 0) body.push(restores.join(' '));
        if (i.type.kind !== TypeKind.Void) body.push(`${g.res(i)} = S.rv;`);
        seg++;
        if (i.next !== null) {
          body.push(localDecl(seg));
          body.push(segEntry(g, seg, g.siteOf.get(i.next)!, lengthOfSeg(info, seg)));
        } else body.push('S.trap("block without terminator", -1); }');
        continue;
      }
      if (i.next === null) {
        body.push(emitTerminator(g, i));
        body.push('}');
        seg++;
      } else if (i.op !== Opcode.Phi) {
        body.push(emitInst(g, i));
      }
    }
  }

  // prologue
  const pro: string[] = [];
  pro.push('const A = fr.a, sv = fr.sv;');
  // byval arguments: the callee owns a copy (made once, on entry, in its own frame)
  const byval: string[] = [];
  for (let k = 0; k < f.args.length; k++) {
    const m = /\bbyval\(/.exec(f.args[k].attrs);
    if (m === null) continue;
    const t = typeFromText(f.args[k].attrs.slice(m.index + 6), f.parent);
    if (t !== null) byval.push(`A[${k}] = byvalCopy(M, A[${k}], ${allocSize(t)});`);
  }
  if (byval.length > 0) pro.push(`if (fr.pc === 0) { ${byval.join(' ')} }`);
  if (f.args.length > 0) pro.push('let ' + f.args.map((_, k) => `a${k} = A[${k}]`).join(', ') + ';');
  if (g.spill) {
    // one array per activation, kept in the frame so it survives suspension
    pro.push(`const X = fr.x === undefined ? (fr.x = new Array(${g.spillSlots}).fill(0)) : fr.x;`);
  } else {
    const globalNames = insts.filter((i) => i.type.kind !== TypeKind.Void && !isLocal.has(i)).map((i) => g.res(i));
    for (let k = 0; k < globalNames.length; k += 64) pro.push('let ' + globalNames.slice(k, k + 64).map((n) => `${n} = 0`).join(', ') + ';');
  }
  if (promotedNames.length > 0) {
    for (let k = 0; k < promotedNames.length; k += 64) pro.push('let ' + promotedNames.slice(k, k + 64).map((n) => `${n} = 0`).join(', ') + ';');
  }
  if (g.temps > 0) {
    const ts: string[] = [];
    for (let k = 0; k < g.temps; k++) ts.push(`t${k} = 0`);
    pro.push('let ' + ts.join(', ') + ';');
  }
  pro.push('let ti = 0, to = 0, tb = 0, tr = 0;');
  pro.push('let bb = fr.pc;');
  const fname = 'f_' + f.name.replace(/[^A-Za-z0-9_$]/g, '_');
  const src =
    `"use strict";\n` +
    `const {${RT_NAMES.join(', ')}} = R;\n` +
    `const M = S.mem, RS = M.rsize, WS = M.wsize, BS = M.base, DV = M.dv;\n` +
    g.binds.map((_, k) => `const E${k} = E[${k}];`).join('\n') +
    `\nreturn function ${fname}(S, fr) {\n${pro.join('\n')}\nfor (;;) switch (bb) {\n${body.join('\n')}\ndefault: S.trap("bad resume point " + bb, -1);\n}\n};`;
  let factory: (R: unknown, S: Machine, E: unknown[], C: Float64Array) => (S: Machine, fr: unknown) => void;
  try {
    factory = new globalThis.Function('R', 'S', 'E', 'C', src) as typeof factory;
  } catch (e) {
    throw new Error(`internal: generated code for @${f.name} does not compile: ${(e as Error).message}\n${envVar('SSAKIT_DEBUG') ? src : ''}`);
  }
  if (envVar('SSAKIT_DUMP_JS')) writeDiagnostics(`// ---- @${f.name}\n${src}\n`);
  info.code = factory(RT, mc.machine, g.binds, info.counts) as FnInfo['code'];
}

function lengthOfSeg(info: FnInfo, seg: number): number {
  let n = 0;
  const ops = info.segOps[seg];
  for (let k = 1; k < ops.length; k += 2) n += ops[k];
  return n;
}

function segEntry(g: Gen, seg: number, firstSite: number, len: number): string {
  if (g.mc.limitSteps) return `if ((S.budget -= ${len}) < 0) S.outOfSteps(${firstSite}); C[${seg}]++;`;
  return `C[${seg}]++;`;
}

// ---- phis and branches ---------------------------------------------------------------------------

function edgeCopies(g: Gen, from: BasicBlock, to: BasicBlock): string {
  const dsts: string[] = [];
  const srcs: string[] = [];
  const phiNames = new Set<string>();
  for (let i = to.first; i !== null && i.op === Opcode.Phi; i = i.next) {
    const bs = i.blocks!;
    const k = bs.indexOf(from);
    if (k < 0) continue;
    dsts.push(g.res(i));
    phiNames.add(g.res(i));
    srcs.push(g.atom(i.ops[k].value));
  }
  if (dsts.length === 0) return '';
  if (dsts.length === 1) return dsts[0] === srcs[0] ? '' : `${dsts[0]} = ${srcs[0]};`;
  // parallel copy: read every source that is itself a phi of `to` before any write
  const pre: string[] = [];
  const post: string[] = [];
  const tempFor = new Map<string, string>();
  for (let k = 0; k < dsts.length; k++) {
    const s = srcs[k];
    if (s === dsts[k]) continue;
    if (phiNames.has(s)) {
      let t = tempFor.get(s);
      if (t === undefined) {
        t = g.temp();
        tempFor.set(s, t);
        pre.push(`${t} = ${s};`);
      }
      post.push(`${dsts[k]} = ${t};`);
    } else post.push(`${dsts[k]} = ${s};`);
  }
  return pre.join(' ') + post.join(' ');
}

function jump(g: Gen, from: BasicBlock, to: BasicBlock): string {
  const c = edgeCopies(g, from, to);
  return `${c}${c ? ' ' : ''}bb = ${g.blockLabel.get(to)}; continue;`;
}

function emitTerminator(g: Gen, i: Instruction): string {
  const from = i.parent!;
  switch (i.op) {
    case Opcode.Ret:
      return i.ops.length === 0 ? 'S.ret(undefined); return;' : `S.ret(${g.atom(i.ops[0].value)}); return;`;
    case Opcode.Br: {
      if (i.ops.length === 1) return jump(g, from, i.ops[0].value as BasicBlock);
      const c = g.atom(i.ops[0].value);
      const t = i.ops[1].value as BasicBlock;
      const e = i.ops[2].value as BasicBlock;
      if (t === e) return jump(g, from, t);
      const ct = edgeCopies(g, from, t);
      const ce = edgeCopies(g, from, e);
      if (ct === '' && ce === '') return `bb = ${c} ? ${g.blockLabel.get(t)} : ${g.blockLabel.get(e)}; continue;`;
      return `if (${c}) { ${jump(g, from, t)} } else { ${jump(g, from, e)} }`;
    }
    case Opcode.Switch: {
      const c = g.atom(i.ops[0].value);
      const dflt = i.ops[1].value as BasicBlock;
      const byDest = new Map<BasicBlock, string[]>();
      for (let k = 2; k + 1 < i.ops.length; k += 2) {
        const d = i.ops[k + 1].value as BasicBlock;
        if (d === dflt) continue;
        let l = byDest.get(d);
        if (l === undefined) byDest.set(d, (l = []));
        l.push(g.atom(i.ops[k].value));
      }
      let s = `switch (${c}) {`;
      for (const [d, vals] of byDest) s += ` ${vals.map((v) => `case ${v}:`).join(' ')} { ${jump(g, from, d)} }`;
      s += ` default: { ${jump(g, from, dflt)} } }`;
      return s;
    }
    case Opcode.Unreachable:
      return `S.trap("unreachable instruction executed", ${g.site}); return;`;
    case Opcode.IndirectBr: {
      // computed goto: the address is the blockaddress of one of the listed destinations
      let sw = `switch (${g.atom(i.ops[0].value)}) {`;
      const seen = new Set<BasicBlock>();
      for (let k = 1; k < i.ops.length; k++) {
        const d = i.ops[k].value as BasicBlock;
        if (seen.has(d)) continue;
        seen.add(d);
        sw += ` case ${numLit(g.mc.blockAddress(d))}: { ${jump(g, from, d)} }`;
      }
      return `${sw} default: S.trap("indirectbr to an address that is not one of its destinations", ${g.site}); return; }`;
    }
    default:
      // a block that ends in a non-terminator (malformed): run it, then stop
      return `${emitInst(g, i)} S.trap("block without terminator", ${g.site}); return;`;
  }
}

// ---- calls -------------------------------------------------------------------------------------

function argList(g: Gen, i: Instruction): string[] {
  const out: string[] = [];
  for (let k = 1; k < i.ops.length; k++) out.push(g.atom(i.ops[k].value));
  return out;
}

function vaTypes(g: Gen, i: Instruction): string {
  const ft = i.auxType;
  if (ft === null || !ft.vararg) return 'null';
  const fixed = ft.params.length;
  const codes = new Int8Array(Math.max(0, i.ops.length - 1 - fixed));
  for (let k = fixed; k < i.ops.length - 1; k++) codes[k - fixed] = vaTypeOf(i.ops[k + 1].value.type);
  return g.bind(codes);
}

function emitSuspendingCall(g: Gen, i: Instruction): string {
  const callee = resolveCallee(i.ops[0].value);
  const args = argList(g, i);
  const va = vaTypes(g, i);
  if (callee.kind === ValueKind.Function) {
    const fi = g.mc.fnIndex(callee as Function);
    let s = `{ const nf = S.push(${fi}); const B = nf.a;`;
    for (let k = 0; k < args.length; k++) s += ` B[${k}] = ${args[k]};`;
    if (va !== 'null') s += ` nf.va = ${va};`;
    return s + ' }';
  }
  return `S.callPtr(${g.atom(i.ops[0].value)}, [${args.join(', ')}], ${va}, ${g.site});`;
}

const INLINE_MATH: Record<string, string> = {
  sqrt: 'Math.sqrt', fabs: 'Math.abs', floor: 'Math.floor', ceil: 'Math.ceil', trunc: 'Math.trunc',
  sin: 'Math.sin', cos: 'Math.cos', tan: 'Math.tan', asin: 'Math.asin', acos: 'Math.acos', atan: 'Math.atan',
  atan2: 'Math.atan2', sinh: 'Math.sinh', cosh: 'Math.cosh', tanh: 'Math.tanh', exp: 'Math.exp', log: 'Math.log',
  log10: 'Math.log10', log2: 'Math.log2', pow: 'Math.pow', cbrt: 'Math.cbrt', hypot: 'Math.hypot', expm1: 'Math.expm1',
  log1p: 'Math.log1p', exp2: 'exp2', fmod: 'fmod', round: 'roundC', fmin: 'fminC', fmax: 'fmaxC', rint: 'rintC',
  nearbyint: 'rintC', ldexp: 'ldexp', scalbn: 'ldexp', copysign: 'copysign', exp10: 'exp10', asinh: 'Math.asinh',
  acosh: 'Math.acosh', atanh: 'Math.atanh', lround: 'lroundC', llround: 'lroundC', lrint: 'lrintC', llrint: 'lrintC',
  roundeven: 'rintC', fdim: 'fdimC',
};

function emitCall(g: Gen, i: Instruction): string {
  const calleeV = resolveCallee(i.ops[0].value);
  const site = g.site;
  const hasRes = i.type.kind !== TypeKind.Void;
  const res = hasRes ? g.res(i) : '';
  const args = argList(g, i);
  if (calleeV.kind === ValueKind.InlineAsm) return `S.trap("inline assembly is not supported", ${site});`;
  const leaf = leafCallee(i);
  if (leaf !== null) {
    const fi = g.mc.fnIndex(leaf);
    const va = vaTypes(g, i);
    let c = `{ const nf = S.push(${fi}); const B = nf.a;`;
    for (let k = 0; k < args.length; k++) c += ` B[${k}] = ${args[k]};`;
    if (va !== 'null') c += ` nf.va = ${va};`;
    c += ' nf.code(S, nf); }';
    return hasRes ? `${c} ${res} = S.rv;` : c;
  }
  if (calleeV.kind !== ValueKind.Function) return `S.trap("cannot call this value", ${site});`;
  const callee = calleeV as Function;
  const name = callee.name;
  if (name.startsWith('llvm.')) {
    const s = emitIntrinsic(g, name, i, args);
    if (s !== null) return s;
    return `S.trap(${jsString(`unsupported intrinsic @${name}`)}, ${site});`;
  }
  // math functions inline (float variants round through Math.fround)
  let base = name;
  let isF = false;
  if (!(base in INLINE_MATH) && base.endsWith('f') && base.slice(0, -1) in INLINE_MATH) {
    base = base.slice(0, -1);
    isF = true;
  }
  if (base in INLINE_MATH) {
    const e = `${INLINE_MATH[base]}(${args.join(', ')})`;
    const v = isF ? `Math.fround(${e})` : e;
    return hasRes ? `${res} = ${v};` : `${v};`;
  }
  const ext = g.mc.externalFor(name);
  if (ext === null) return `S.site = ${site}; S.trap(${jsString(`call to unknown external function @${name}`)}, ${site});`;
  const fn = g.bind(ext);
  const call = `${fn}(S, [${args.join(', ')}])`;
  return `S.site = ${site}; ${hasRes ? `${res} = ` : ''}${call};`;
}

// ---- instructions ------------------------------------------------------------------------------

function emitInst(g: Gen, i: Instruction): string {
  const site = g.site;
  switch (i.op) {
    case Opcode.Call:
      return emitCall(g, i);
    case Opcode.Alloca: {
      if (g.promoted.has(i)) return '';
      const sz = allocSize(i.auxType!);
      const cnt = i.ops[0].value;
      let size: string;
      if (cnt.kind === ValueKind.ConstantInt) size = String(sz * Number((cnt as ConstantInt).value));
      else size = `${sz} * Number(${g.atom(cnt)})`;
      return `${g.res(i)} = M.alloca(${size}, ${site});`;
    }
    case Opcode.Load: {
      const slot = g.promoted.get(i.ops[0].value as Instruction);
      if (slot !== undefined) return `${g.res(i)} = ${slot};`;
      return `${g.res(i)} = ${loadExpr(g, i.type, g.atom(i.ops[0].value), site, globalAccess(g, i, i.ops[0].value))};`;
    }
    case Opcode.Store: {
      const slot = g.promoted.get(i.ops[1].value as Instruction);
      if (slot !== undefined) return `${slot} = ${g.atom(i.ops[0].value)};`;
      return storeStmt(g, i.ops[0].value.type, g.atom(i.ops[1].value), g.atom(i.ops[0].value), site, globalAccess(g, i, i.ops[1].value));
    }
    case Opcode.GetElementPtr:
      return `${g.res(i)} = ${gepExpr(g, i)};`;
    case Opcode.Fence:
      return '';
    case Opcode.AtomicRMW:
      return `${g.res(i)} = atomicRMW(M, ${g.atom(i.ops[0].value)}, ${g.atom(i.ops[1].value)}, ${jsString(atomicOp(i))}, ${g.bind(i.type)}, ${site});`;
    case Opcode.AtomicCmpXchg:
      return `${g.res(i)} = cmpXchg(M, ${g.atom(i.ops[0].value)}, ${g.atom(i.ops[1].value)}, ${g.atom(i.ops[2].value)}, ${g.bind(i.ops[1].value.type)}, ${site});`;
    case Opcode.Select: {
      const c = i.ops[0].value;
      if (c.type.kind === TypeKind.Vector) {
        const n = c.type.count;
        const cc = g.atom(c);
        const a = g.atom(i.ops[1].value);
        const b = g.atom(i.ops[2].value);
        const lanes: string[] = [];
        for (let k = 0; k < n; k++) lanes.push(`${cc}[${k}] ? ${a}[${k}] : ${b}[${k}]`);
        return `${g.res(i)} = [${lanes.join(', ')}];`;
      }
      return `${g.res(i)} = ${g.atom(c)} ? ${g.atom(i.ops[1].value)} : ${g.atom(i.ops[2].value)};`;
    }
    case Opcode.Freeze:
      return `${g.res(i)} = ${g.atom(i.ops[0].value)};`;
    case Opcode.FNeg:
      return `${g.res(i)} = ${lanes1(i.type, g.atom(i.ops[0].value), (a) => `(-${a})`)};`;
    case Opcode.ICmp:
      return `${g.res(i)} = ${lanes2(i.ops[0].value.type, g.atom(i.ops[0].value), g.atom(i.ops[1].value), (a, b, t) => icmpExpr(i.pred, t, a, b))};`;
    case Opcode.FCmp:
      return `${g.res(i)} = ${lanes2(i.ops[0].value.type, g.atom(i.ops[0].value), g.atom(i.ops[1].value), (a, b) => fcmpExpr(i.pred, a, b))};`;
    case Opcode.ExtractValue: {
      let e = g.atom(i.ops[0].value);
      for (const k of i.indices!) e += `[${k}]`;
      return `${g.res(i)} = ${e};`;
    }
    case Opcode.InsertValue: {
      const idx = i.indices!;
      const agg = g.atom(i.ops[0].value);
      const v = g.atom(i.ops[1].value);
      if (idx.length === 1) return `${g.res(i)} = ins1(${agg}, ${idx[0]}, ${v});`;
      return `${g.res(i)} = insPath(${agg}, ${g.bind(idx)}, ${v});`;
    }
    case Opcode.ExtractElement: {
      const vec = g.atom(i.ops[0].value);
      const idx = g.atom(i.ops[1].value);
      return `${g.res(i)} = elemOr0(${vec}, ${idx});`;
    }
    case Opcode.InsertElement:
      return `${g.res(i)} = insElem(${g.atom(i.ops[0].value)}, ${g.atom(i.ops[1].value)}, ${g.atom(i.ops[2].value)});`;
    case Opcode.ShuffleVector: {
      const a = g.atom(i.ops[0].value);
      const b = g.atom(i.ops[1].value);
      const n = i.ops[0].value.type.count;
      const lanes = i.indices!.map((m) => (m < 0 ? '0' : m < n ? `${a}[${m}]` : `${b}[${m - n}]`));
      return `${g.res(i)} = [${lanes.join(', ')}];`;
    }
    case Opcode.VAArg:
      return `S.trap("va_arg instruction is not supported", ${site});`;
    case Opcode.Phi:
      return '';
    default:
      break;
  }
  if (i.op >= Opcode.Add && i.op <= Opcode.Xor) {
    const t = i.type;
    const a = g.atom(i.ops[0].value);
    const b = g.atom(i.ops[1].value);
    if (t.kind === TypeKind.Int && t.bits === 64) return `${g.res(i)} = ${wide64Expr(g, i, a, b, site)};`;
    return `${g.res(i)} = ${lanes2(t, a, b, (x, y, st) => binExpr(i.op, st, x, y, site))};`;
  }
  if (i.op >= Opcode.Trunc && i.op <= Opcode.AddrSpaceCast) {
    const from = i.ops[0].value.type;
    const to = i.type;
    const a = g.atom(i.ops[0].value);
    if (i.op === Opcode.BitCast) return `${g.res(i)} = ${bitcastExpr(g, a, from, to)};`;
    if (to.kind === TypeKind.Vector) {
      const n = to.count;
      const lanes: string[] = [];
      for (let k = 0; k < n; k++) lanes.push(castExpr(i.op, from.elem!, to.elem!, `${a}[${k}]`));
      return `${g.res(i)} = [${lanes.join(', ')}];`;
    }
    if (i.op === Opcode.Trunc && from.kind === TypeKind.Int && from.bits > 32 && to.bits <= 32 && g.isNum(i.ops[0].value)) {
      return `${g.res(i)} = ${to.bits === 32 ? `(${a} | 0)` : norm(to.bits, a)};`;
    }
    return `${g.res(i)} = ${castExpr(i.op, from, to, a)};`;
  }
  return `S.trap(${jsString(`unsupported instruction ${OPCODE_NAMES[i.op]}`)}, ${site});`;
}

function atomicOp(i: Instruction): string {
  const t = `${i.extra ?? ''}`;
  const m = /\b(xchg|add|sub|and|nand|or|xor|max|min|umax|umin|fadd|fsub|fmax|fmin|uinc_wrap|udec_wrap)\b/.exec(t);
  return m ? m[1] : 'xchg';
}


function lanes1(t: Type, a: string, f: (a: string, t: Type) => string): string {
  if (t.kind !== TypeKind.Vector) return f(a, t);
  const out: string[] = [];
  for (let k = 0; k < t.count; k++) out.push(f(`${a}[${k}]`, t.elem!));
  return `[${out.join(', ')}]`;
}

function lanes2(t: Type, a: string, b: string, f: (a: string, b: string, t: Type) => string): string {
  if (t.kind !== TypeKind.Vector) return f(a, b, t);
  const out: string[] = [];
  for (let k = 0; k < t.count; k++) out.push(f(`${a}[${k}]`, `${b}[${k}]`, t.elem!));
  return `[${out.join(', ')}]`;
}

// ---- arithmetic ----------------------------------------------------------------------------------

function isZeroLit(s: string): boolean {
  return s === '0';
}
function isNonZeroLit(s: string): boolean {
  return /^\(?-?[0-9]+n?\)?$/.test(s) && !/^\(?-?0+n?\)?$/.test(s);
}

function divGuard(b: string, site: number, e: string): string {
  if (isNonZeroLit(b)) return e;
  if (isZeroLit(b)) return `S.divz(${site})`;
  return `(${b} === 0 ? S.divz(${site}) : ${e})`;
}

export function binExpr(op: Opcode, t: Type, a: string, b: string, site: number): string {
  switch (t.kind) {
    case TypeKind.Float:
    case TypeKind.Double:
    case TypeKind.X86_FP80:
    case TypeKind.FP128:
    case TypeKind.Half:
    case TypeKind.BFloat: {
      let e: string;
      switch (op) {
        case Opcode.FAdd: e = `${a} + ${b}`; break;
        case Opcode.FSub: e = `${a} - ${b}`; break;
        case Opcode.FMul: e = `${a} * ${b}`; break;
        case Opcode.FDiv: e = `${a} / ${b}`; break;
        case Opcode.FRem: e = `${a} % ${b}`; break;
        default: return `S.trap("integer op on float", ${site})`;
      }
      if (t.kind === TypeKind.Float) return `Math.fround(${e})`;
      if (t.kind === TypeKind.Half) return `roundHalf(${e})`;
      if (t.kind === TypeKind.BFloat) return `roundBfloat(${e})`;
      return `(${e})`;
    }
    case TypeKind.Int:
      break;
    default:
      return `S.trap("arithmetic on ${t}", ${site})`;
  }
  const bits = t.bits;
  if (bits === 1) {
    switch (op) {
      case Opcode.Add: case Opcode.Sub: case Opcode.Xor: return `(${a} ^ ${b})`;
      case Opcode.Mul: case Opcode.And: return `(${a} & ${b})`;
      case Opcode.Or: return `(${a} | ${b})`;
      case Opcode.SDiv: case Opcode.UDiv: return divGuard(b, site, a);
      case Opcode.SRem: case Opcode.URem: return divGuard(b, site, '0');
      case Opcode.Shl: case Opcode.LShr: case Opcode.AShr: return a; // shifting by 1 is poison
      default: break;
    }
  }
  if (bits <= 32) {
    switch (op) {
      case Opcode.Add: return norm(bits, `${a} + ${b}`);
      case Opcode.Sub: return norm(bits, `${a} - ${b}`);
      case Opcode.Mul: return bits === 32 ? `Math.imul(${a}, ${b})` : norm(bits, `Math.imul(${a}, ${b})`);
      case Opcode.SDiv: return divGuard(b, site, norm(bits, `${a} / ${b}`));
      case Opcode.UDiv: return divGuard(b, site, norm(bits, `${uns(bits, a)} / ${uns(bits, b)}`));
      case Opcode.SRem: return divGuard(b, site, norm(bits, `${a} % ${b}`));
      case Opcode.URem: return divGuard(b, site, norm(bits, `${uns(bits, a)} % ${uns(bits, b)}`));
      case Opcode.Shl: return bits === 32 ? `(${a} << ${b})` : norm(bits, `${a} << ${b}`);
      case Opcode.LShr: return bits === 32 ? `((${a} >>> ${b}) | 0)` : norm(bits, `${uns(bits, a)} >>> ${b}`);
      case Opcode.AShr: return `(${a} >> ${b})`;
      case Opcode.And: return `(${a} & ${b})`;
      case Opcode.Or: return `(${a} | ${b})`;
      case Opcode.Xor: return `(${a} ^ ${b})`;
      default: return `S.trap("float op on integer", ${site})`;
    }
  }
  if (bits === 64) {
    switch (op) {
      case Opcode.Add: return `add64(${a}, ${b})`;
      case Opcode.Sub: return `sub64(${a}, ${b})`;
      case Opcode.Mul: return `mul64(${a}, ${b})`;
      case Opcode.SDiv: return divGuard(b, site, `sdiv64(${a}, ${b})`);
      case Opcode.UDiv: return divGuard(b, site, `udiv64(${a}, ${b})`);
      case Opcode.SRem: return divGuard(b, site, `srem64(${a}, ${b})`);
      case Opcode.URem: return divGuard(b, site, `urem64(${a}, ${b})`);
      case Opcode.Shl: return `shl64(${a}, ${b})`;
      case Opcode.LShr: return `lshr64(${a}, ${b})`;
      case Opcode.AShr: return `ashr64(${a}, ${b})`;
      case Opcode.And: return `and64(${a}, ${b})`;
      case Opcode.Or: return `or64(${a}, ${b})`;
      case Opcode.Xor: return `xor64(${a}, ${b})`;
      default: return `S.trap("float op on integer", ${site})`;
    }
  }
  const code: Partial<Record<Opcode, number>> = {
    [Opcode.Add]: 0, [Opcode.Sub]: 1, [Opcode.Mul]: 2, [Opcode.SDiv]: 3, [Opcode.UDiv]: 4, [Opcode.SRem]: 5,
    [Opcode.URem]: 6, [Opcode.Shl]: 7, [Opcode.LShr]: 8, [Opcode.AShr]: 9, [Opcode.And]: 10, [Opcode.Or]: 11, [Opcode.Xor]: 12,
  };
  const c = code[op];
  if (c === undefined) return `S.trap("float op on integer", ${site})`;
  const e = `binW(${c}, ${a}, ${b}, ${bits})`;
  return c >= 3 && c <= 6 ? divGuard(b, site, e) : e;
}

/**
 * i64 arithmetic: plain double arithmetic when the operands' bounds make the result exact,
 * else an inline number fast path (checked against the safe range) with the bigint helper
 * as fallback.
 */
function wide64Expr(g: Gen, i: Instruction, a: string, b: string, site: number): string {
  const x = i.ops[0].value;
  const y = i.ops[1].value;
  const nx = g.isNum(x);
  const ny = g.isNum(y);
  const exact = g.boundOf(i) <= 53;
  const guard = (nx ? '' : `typeof ${a} === 'number' && `) + (ny ? '' : `typeof ${b} === 'number' && `);
  const fast = (e: string, helper: string): string =>
    `(${guard}(tr = ${e}) <= 9007199254740991 && tr >= -9007199254740991 ? tr : ${helper}(${a}, ${b}))`;
  switch (i.op) {
    case Opcode.Add:
      return exact ? `(${a} + ${b})` : fast(`${a} + ${b}`, 'add64');
    case Opcode.Sub:
      return exact ? `(${a} - ${b})` : fast(`${a} - ${b}`, 'sub64');
    case Opcode.Mul:
      return exact ? `(${a} * ${b} + 0)` : `(${guard}(tr = ${a} * ${b}) <= 9007199254740991 && tr >= -9007199254740991 ? tr + 0 : mul64(${a}, ${b}))`;
    case Opcode.And:
    case Opcode.Or:
    case Opcode.Xor: {
      const op = i.op === Opcode.And ? '&' : i.op === Opcode.Or ? '|' : '^';
      if (g.boundOf(x) <= 31 && g.boundOf(y) <= 31) return `(${a} ${op} ${b})`;
      const h = i.op === Opcode.And ? 'and64' : i.op === Opcode.Or ? 'or64' : 'xor64';
      return `(${guard}(${a} | 0) === ${a} && (${b} | 0) === ${b} ? ${a} ${op} ${b} : ${h}(${a}, ${b}))`;
    }
    case Opcode.Shl: {
      if (y.kind === ValueKind.ConstantInt && exact) return `(${a} * ${2 ** Number((y as ConstantInt).value)})`;
      break;
    }
    case Opcode.SDiv:
      if (nx && ny) return divGuard(b, site, `(Math.trunc(${a} / ${b}) + 0)`);
      break;
    case Opcode.SRem:
      if (nx && ny) return divGuard(b, site, `(${a} % ${b} + 0)`);
      break;
    default:
      break;
  }
  return binExpr(i.op, i.type, a, b, site);
}

function icmpExpr(p: Pred, t: Type, a: string, b: string): string {
  let c: string;
  if (t.kind === TypeKind.Int && t.bits === 1 && p >= Pred.SGT) {
    // i1 true is −1 when signed
    a = `(0 - ${a})`;
    b = `(0 - ${b})`;
  }
  const wide = t.kind === TypeKind.Int && t.bits > 32;
  const narrow = t.kind === TypeKind.Int && t.bits <= 32;
  const bits = t.bits;
  const ua = narrow ? uns(bits, a) : a;
  const ub = narrow ? uns(bits, b) : b;
  switch (p) {
    case Pred.EQ: c = `${a} === ${b}`; break;
    case Pred.NE: c = `${a} !== ${b}`; break;
    case Pred.SGT: c = `${a} > ${b}`; break;
    case Pred.SGE: c = `${a} >= ${b}`; break;
    case Pred.SLT: c = `${a} < ${b}`; break;
    case Pred.SLE: c = `${a} <= ${b}`; break;
    case Pred.ULT: c = wide ? `ult(${a}, ${b})` : `${ua} < ${ub}`; break;
    case Pred.UGT: c = wide ? `ult(${b}, ${a})` : `${ua} > ${ub}`; break;
    case Pred.ULE: c = wide ? `!ult(${b}, ${a})` : `${ua} <= ${ub}`; break;
    case Pred.UGE: c = wide ? `!ult(${a}, ${b})` : `${ua} >= ${ub}`; break;
    default: c = 'false';
  }
  return `(${c} ? 1 : 0)`;
}

function fcmpExpr(p: Pred, a: string, b: string): string {
  let c: string;
  switch (p) {
    case Pred.FCMP_FALSE: return '0';
    case Pred.FCMP_TRUE: return '1';
    case Pred.FCMP_OEQ: c = `${a} === ${b}`; break;
    case Pred.FCMP_OGT: c = `${a} > ${b}`; break;
    case Pred.FCMP_OGE: c = `${a} >= ${b}`; break;
    case Pred.FCMP_OLT: c = `${a} < ${b}`; break;
    case Pred.FCMP_OLE: c = `${a} <= ${b}`; break;
    case Pred.FCMP_ONE: c = `(${a} < ${b} || ${a} > ${b})`; break;
    case Pred.FCMP_ORD: c = `(${a} === ${a} && ${b} === ${b})`; break;
    case Pred.FCMP_UNO: c = `(${a} !== ${a} || ${b} !== ${b})`; break;
    case Pred.FCMP_UEQ: c = `!(${a} < ${b} || ${a} > ${b})`; break;
    case Pred.FCMP_UGT: c = `!(${a} <= ${b})`; break;
    case Pred.FCMP_UGE: c = `!(${a} < ${b})`; break;
    case Pred.FCMP_ULT: c = `!(${a} >= ${b})`; break;
    case Pred.FCMP_ULE: c = `!(${a} > ${b})`; break;
    case Pred.FCMP_UNE: c = `${a} !== ${b}`; break;
    default: return '0';
  }
  return `(${c} ? 1 : 0)`;
}

function isFloatTy(t: Type): boolean {
  return t.kind >= TypeKind.Half && t.kind <= TypeKind.FP128;
}

export function castExpr(op: Opcode, from: Type, to: Type, a: string): string {
  const fb = from.kind === TypeKind.Int ? from.bits : 64;
  const tb = to.kind === TypeKind.Int ? to.bits : 64;
  switch (op) {
    case Opcode.Trunc:
      if (fb > 32) {
        if (tb > 32) return `truncW(${a}, ${tb})`;
        const t32 = `(typeof ${a} === 'number' ? ${a} | 0 : trunc32(${a}))`;
        return tb === 32 ? t32 : norm(tb, t32);
      }
      return tb === 32 ? a : norm(tb, a);
    case Opcode.ZExt:
      if (fb === 1) return a;
      if (fb <= 32) return tb > 32 || fb < tb ? uns(fb, a) : a;
      return `zextW(${a}, ${fb})`;
    case Opcode.SExt:
      if (fb === 1) return `(0 - ${a})`;
      return a;
    case Opcode.FPToSI:
      if (tb > 32) return tb === 64 ? `fptosi64(${a})` : tb > 64 ? `fptoiW(${a}, ${tb}, true)` : `truncW(fptosi64(${a}), ${tb})`;
      return tb === 32 ? `fptosi32(${a})` : norm(tb, `fptosi32(${a})`);
    case Opcode.FPToUI:
      if (tb > 32) return tb === 64 ? `fptoui64(${a})` : tb > 64 ? `fptoiW(${a}, ${tb}, false)` : `truncW(fptoui64(${a}), ${tb})`;
      return tb === 32 ? `fptoui32(${a})` : norm(tb, `fptoui32(${a})`);
    case Opcode.SIToFP: {
      const toF = to.kind === TypeKind.Float;
      if (fb === 1) return toF ? `Math.fround(0 - ${a})` : `(0 - ${a})`;
      if (fb <= 32) return toF ? `Math.fround(${a})` : a;
      return toF ? `sitofpF(${a})` : `sitofpD(${a})`;
    }
    case Opcode.UIToFP: {
      const toF = to.kind === TypeKind.Float;
      if (fb <= 32) return toF ? `Math.fround(${uns(fb, a)})` : uns(fb, a);
      return toF ? `uitofpF(${a}, ${fb})` : `uitofpD(${a}, ${fb})`;
    }
    case Opcode.FPTrunc:
      if (to.kind === TypeKind.Float) return `Math.fround(${a})`;
      if (to.kind === TypeKind.Half) return `roundHalf(${a})`;
      if (to.kind === TypeKind.BFloat) return `roundBfloat(${a})`;
      return a;
    case Opcode.FPExt:
      return a;
    case Opcode.PtrToInt:
      if (tb > 32) return tb >= 54 ? a : `truncW(${a}, ${tb})`;
      return tb === 32 ? `(${a} | 0)` : norm(tb, a);
    case Opcode.IntToPtr:
      if (fb <= 32) return uns(fb, a) === a ? a : `(${a} >>> 0)`;
      return `i2p(${a}, ${fb})`;
    case Opcode.AddrSpaceCast:
      return a;
    default:
      return `S.trap("bad cast", -1)`;
  }
}

function bitcastExpr(g: Gen, a: string, from: Type, to: Type): string {
  if (from === to) return a;
  if (from.kind === TypeKind.Ptr && to.kind === TypeKind.Ptr) return a;
  if (from.kind === TypeKind.Float && to.kind === TypeKind.Int && to.bits === 32) return `f2i(${a})`;
  if (from.kind === TypeKind.Int && from.bits === 32 && to.kind === TypeKind.Float) return `i2f(${a})`;
  if (from.kind === TypeKind.Double && to.kind === TypeKind.Int && to.bits === 64) return `d2l(${a})`;
  if (from.kind === TypeKind.Int && from.bits === 64 && to.kind === TypeKind.Double) return `l2d(${a})`;
  if (isFloatTy(from) && isFloatTy(to)) return a;
  return `bitcastValue(${a}, ${g.bind(from)}, ${g.bind(to)})`;
}

// ---- memory --------------------------------------------------------------------------------------

const INV32 = '2.3283064365386963e-10';
/** Pointer decoding (memory.ts: pointer = id · 2^30 + offset). */
const INV_UNIT = '9.313225746154785e-10';
const OFF_MASK = '1073741823';

/**
 * Inline bounds-checked access: `off + n <= size[id]` then a DataView access, else the
 * Memory method (which re-checks and raises the fault). Inline code keeps pointer doubles
 * unboxed (a call would box them).
 */
function inlineRead(p: string, n: number, body: string, fallback: string, site: number, ga: GlobalAccess | null = null): string {
  if (ga !== null) return `((to = ${ga.off}) >= 0 && to + ${n} <= RS[${ga.k}] ? ${body.replaceAll('[ti]', `[${ga.k}]`)} : M.${fallback}(${ga.base} + to, ${site}))`;
  return `((to = ${p} & ${OFF_MASK}) + ${n} <= RS[ti = (${p} * ${INV_UNIT}) | 0] ? ${body} : M.${fallback}(${p}, ${site}))`;
}
function inlineWrite(p: string, n: number, body: string, fallback: string, v: string, site: number, pre = '', ga: GlobalAccess | null = null): string {
  if (ga !== null) return `if ((to = ${ga.off}) >= 0 && ${pre}to + ${n} <= WS[${ga.k}]) { ${body.replaceAll('[ti]', `[${ga.k}]`)} } else M.${fallback}(${ga.base} + to, ${v}, ${site});`;
  return `if (${pre}(to = ${p} & ${OFF_MASK}) + ${n} <= WS[ti = (${p} * ${INV_UNIT}) | 0]) { ${body} } else M.${fallback}(${p}, ${v}, ${site});`;
}

export function loadExpr(g: Gen, t: Type, p: string, site: number, ga: GlobalAccess | null = null): string {
  const inl = g.inlineMemory;
  switch (t.kind) {
    case TypeKind.Int:
      switch (t.bits) {
        case 1: return inl ? `(${inlineRead(p, 1, 'DV[ti].getUint8(BS[ti] + to)', 'ldu8', site, ga)} & 1)` : `(M.ldu8(${p}, ${site}) & 1)`;
        case 8: return inl ? inlineRead(p, 1, 'DV[ti].getInt8(BS[ti] + to)', 'ld8', site, ga) : `M.ld8(${p}, ${site})`;
        case 16: return inl ? inlineRead(p, 2, 'DV[ti].getInt16(BS[ti] + to, true)', 'ld16', site, ga) : `M.ld16(${p}, ${site})`;
        case 32: return inl ? inlineRead(p, 4, 'DV[ti].getInt32(BS[ti] + to, true)', 'ld32', site, ga) : `M.ld32(${p}, ${site})`;
        case 64:
          return inl
            ? inlineRead(p, 8, '((tr = DV[ti].getInt32((tb = BS[ti] + to) + 4, true) * 4294967296 + DV[ti].getUint32(tb, true)) <= 9007199254740991 && tr >= -9007199254740991 ? tr : DV[ti].getBigInt64(tb, true))', 'ld64', site, ga)
            : `M.ld64(${p}, ${site})`;
        default: break;
      }
      break;
    case TypeKind.Ptr:
      return inl ? inlineRead(p, 8, '(DV[ti].getUint32((tb = BS[ti] + to) + 4, true) * 4294967296 + DV[ti].getUint32(tb, true))', 'ldp', site, ga) : `M.ldp(${p}, ${site})`;
    case TypeKind.Float:
      return inl ? inlineRead(p, 4, 'DV[ti].getFloat32(BS[ti] + to, true)', 'ldf32', site, ga) : `M.ldf32(${p}, ${site})`;
    case TypeKind.Double:
      return inl ? inlineRead(p, 8, 'DV[ti].getFloat64(BS[ti] + to, true)', 'ldf64', site, ga) : `M.ldf64(${p}, ${site})`;
    default:
      break;
  }
  return `loadT(M, ${p}, ${g.bind(t)}, ${storeSize(t)}, ${site})`;
}

export function storeStmt(g: Gen, t: Type, p: string, v: string, site: number, ga: GlobalAccess | null = null): string {
  const inl = g.inlineMemory;
  switch (t.kind) {
    case TypeKind.Int:
      switch (t.bits) {
        case 1:
        case 8: return inl ? inlineWrite(p, 1, `DV[ti].setInt8(BS[ti] + to, ${v});`, 'st8', v, site, '', ga) : `M.st8(${p}, ${v}, ${site});`;
        case 16: return inl ? inlineWrite(p, 2, `DV[ti].setInt16(BS[ti] + to, ${v}, true);`, 'st16', v, site, '', ga) : `M.st16(${p}, ${v}, ${site});`;
        case 32: return inl ? inlineWrite(p, 4, `DV[ti].setInt32(BS[ti] + to, ${v}, true);`, 'st32', v, site, '', ga) : `M.st32(${p}, ${v}, ${site});`;
        case 64:
          return inl
            ? inlineWrite(p, 8, `tb = BS[ti] + to; DV[ti].setUint32(tb, ${v} >>> 0, true); DV[ti].setInt32(tb + 4, Math.floor(${v} * ${INV32}), true);`, 'st64', v, site, `typeof ${v} === 'number' && `, ga)
            : `M.st64(${p}, ${v}, ${site});`;
        default: break;
      }
      break;
    case TypeKind.Ptr:
      return inl
        ? inlineWrite(p, 8, `tb = BS[ti] + to; DV[ti].setUint32(tb, ${v} >>> 0, true); DV[ti].setUint32(tb + 4, Math.floor(${v} * ${INV32}) >>> 0, true);`, 'stp', v, site, '', ga)
        : `M.stp(${p}, ${v}, ${site});`;
    case TypeKind.Float:
      return inl ? inlineWrite(p, 4, `DV[ti].setFloat32(BS[ti] + to, ${v}, true);`, 'stf32', v, site, '', ga) : `M.stf32(${p}, ${v}, ${site});`;
    case TypeKind.Double:
      return inl ? inlineWrite(p, 8, `DV[ti].setFloat64(BS[ti] + to, ${v}, true);`, 'stf64', v, site, '', ga) : `M.stf64(${p}, ${v}, ${site});`;
    default:
      break;
  }
  return `storeT(M, ${p}, ${v}, ${g.bind(t)}, ${storeSize(t)}, ${site});`;
}

function gepExpr(g: Gen, i: Instruction): string {
  if (i.type.kind === TypeKind.Vector) return `S.trap("vector getelementptr is not supported", ${g.site})`;
  const { off, parts } = gepOffset(g, i);
  let e = g.atom(i.ops[0].value);
  if (off !== 0) e += ` + ${numLit(off)}`;
  for (const p of parts) e += ` + ${p}`;
  return parts.length === 0 && off === 0 ? e : `(${e})`;
}

/** A GEP's byte offset from its base: a constant and the variable terms (index · stride). */
function gepOffset(g: Gen, i: Instruction): { off: number; parts: string[] } {
  let ty = i.auxType!;
  let off = 0;
  const parts: string[] = [];
  const add = (v: Value, stride: number): void => {
    if (v.kind === ValueKind.ConstantInt) {
      off += Number((v as ConstantInt).value) * stride;
      return;
    }
    if (v.kind === ValueKind.ConstantZero || v.kind === ValueKind.ConstantNull || v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) return;
    const a = g.atom(v);
    const x = v.type.kind === TypeKind.Int && v.type.bits > 32 && !g.isNum(v) ? `(typeof ${a} === 'number' ? ${a} : idxN(${a}))` : a;
    parts.push(stride === 1 ? x : `${x} * ${stride}`);
  };
  add(i.ops[1].value, allocSize(ty));
  for (let k = 2; k < i.ops.length; k++) {
    const v = i.ops[k].value;
    if (ty.kind === TypeKind.Struct) {
      const field = v.kind === ValueKind.ConstantInt ? Number((v as ConstantInt).value) : 0;
      off += structLayout(ty).offsets[field];
      ty = ty.members[field];
    } else {
      ty = ty.elem!;
      add(v, allocSize(ty));
    }
  }
  return { off, parts };
}

/**
 * A load or store through a `getelementptr` on a global variable (clang's `a[i][j]` on a
 * static array): the allocation's id K is known when the code is generated, so the access
 * needs only the integer byte offset. The generic path splits a pointer double
 * (`p & mask`, `p · 2^-30 | 0`) and indexes the size, view and base tables by a runtime id;
 * on stencils and matrix codes that was most of the time of each access. Out of range
 * offsets take the generic Memory method on `base + offset`: the same pointer, the same fault.
 */
interface GlobalAccess {
  k: number;
  base: string;
  off: string;
}

/**
 * `def` comes before `use` in the same block, at most 64 instructions back, with no call in
 * between: a call splits the block's code (the activation suspends), and the operands of
 * `def` may be locals of the part before it.
 */
function closeBefore(def: Instruction, use: Instruction): boolean {
  if (def.parent !== use.parent) return false;
  let i = use.prev;
  for (let n = 0; i !== null && n < 64; n++, i = i.prev) {
    if (i === def) return true;
    if (i.op === Opcode.Call) return false;
  }
  return false;
}

function globalAccess(g: Gen, access: Instruction, ptr: Value): GlobalAccess | null {
  if (!g.inlineMemory) return null;
  // clang -O0 indexes a[i][j] with a GEP on a GEP on the global: follow a short chain. The
  // GEPs must sit in the access's block: their operands may be locals of their own block.
  let off = 0;
  const parts: string[] = [];
  let p = ptr;
  for (let depth = 0; depth < 4 && p.kind === ValueKind.Instruction; depth++) {
    const gep = p as Instruction;
    if (gep.op !== Opcode.GetElementPtr || gep.type.kind === TypeKind.Vector || !closeBefore(gep, access)) return null;
    const o = gepOffset(g, gep);
    off += o.off;
    parts.push(...o.parts);
    p = gep.ops[0].value;
  }
  if (p.kind !== ValueKind.GlobalVariable || p === ptr) return null;
  const addr = g.mc.constValue(p);
  if (typeof addr !== 'number' || addr <= 0 || addr % ID_UNIT !== 0 || !Number.isSafeInteger(off)) return null;
  let e = numLit(off);
  for (const x of parts) e += ` + ${x}`;
  return { k: addr / ID_UNIT, base: numLit(addr), off: e };
}

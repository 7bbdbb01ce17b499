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
 *
 * This file holds the driver (segments, blocks, phis, terminators, calls, the instruction
 * switch); the per-function state is in codegen-state.ts, arithmetic, comparisons and casts
 * in codegen-arith.ts, loads, stores and GEPs in codegen-memory.ts.
 */
import { envVar, writeDiagnostics } from '../platform/index.js';
import type { BasicBlock } from '../ir/basic-block.js';
import { ConstantExpr, ConstantInt } from '../ir/constants.js';
import { Function, GlobalAlias } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { allocSize } from '../ir/layout.js';
import { Opcode, OPCODE_NAMES } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import { emitIntrinsic } from './intrinsics.js';
import { norm, numLit } from './js-int.js';
import { Gen, type ModuleContext, vaTypeOf } from './codegen-state.js';
import { binExpr, bitcastExpr, castExpr, fcmpExpr, icmpExpr, wide64Expr } from './codegen-arith.js';
import { gepExpr, globalAccess, loadExpr, storeStmt } from './codegen-memory.js';
import { liveAcrossCalls } from './liveness.js';
import type { FnInfo, Machine } from './machine.js';
import { RT } from './runtime.js';
import { typeFromText } from './type-text.js';

export { MAX_JS_LOCALS, type ModuleContext } from './codegen-state.js';

const RT_NAMES = Object.keys(RT);

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
  atan2: 'Math.atan2', sinh: 'Math.sinh', cosh: 'Math.cosh', tanh: 'Math.tanh', exp: 'expC', log: 'Math.log',
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
/**
 * Semantic corruptions of valid modules for the bad-input fuzz suite: each breaks one rule
 * LLVM's verifier enforces (lib/IR/Verifier.cpp) while the text still parses, so the suite
 * can check that our verifier rejects what `opt-19 -passes=verify` rejects.
 *
 * Kinds: use before def, non-dominating use, phi shape (a missing incoming entry, a phi below
 * a non-phi), misplaced terminator, type mismatch, call shape, intrinsic signature,
 * attributes. IR-level kinds edit the parsed module and print it; text-level kinds edit the
 * printed text (the rule is one the IR API would not let us break).
 *
 * Invariants: deterministic for a seed; returns null when the module has no place for the
 * kind (the caller tries another).
 */
import { IRBuilder } from '../ir/builder.js';
import { ConstantInt } from '../ir/constants.js';
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import type { Module } from '../ir/module.js';
import { Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import { printModule } from '../text/printer.js';
import { Rng } from './rng.js';

export const CORRUPTIONS = [
  'use-before-def', 'non-dominating-use', 'phi-missing-entry', 'phi-not-first', 'misplaced-terminator',
  'type-mismatch', 'call-shape', 'intrinsic-signature', 'attributes',
] as const;
export type Corruption = (typeof CORRUPTIONS)[number];

function pick<T>(rng: Rng, xs: readonly T[]): T | null {
  return xs.length === 0 ? null : xs[rng.below(xs.length)];
}

function allInsts(m: Module): Instruction[] {
  const out: Instruction[] = [];
  for (const f of m.functions) for (let bb = f.firstBlock; bb !== null; bb = bb.next) for (let i = bb.first; i !== null; i = i.next) out.push(i);
  return out;
}

/**
 * Corrupts `m` (parsed from valid text; it is modified) by `kind`, returning the text, or
 * null when there is no place for that kind.
 */
export function corrupt(m: Module, kind: Corruption, seed: number): string | null {
  const rng = new Rng(seed);
  const insts = allInsts(m);
  switch (kind) {
    case 'use-before-def': {
      // an instruction moved below its first user in the same block
      const cands = insts.filter((i) => i.op !== Opcode.Phi && !i.isTerminator() && i.users().some((u) => (u as Instruction).parent === i.parent && (u as Instruction).op !== Opcode.Phi));
      const i = pick(rng, cands);
      if (i === null) return null;
      const user = i.users().find((u) => (u as Instruction).parent === i.parent && (u as Instruction).op !== Opcode.Phi) as Instruction;
      if (user.next === null) return null;
      i.moveBefore(user.next);
      return printModule(m);
    }
    case 'non-dominating-use': {
      // a value of a later block used in the entry block
      const cands = insts.filter((i) => i.type.kind !== TypeKind.Void && i.type.isFirstClass() && i.type.kind !== TypeKind.Label && i.parent !== i.parent!.parent!.firstBlock && i.op !== Opcode.Phi);
      const i = pick(rng, cands);
      if (i === null) return null;
      const entry = (i.parent!.parent as Function).firstBlock!;
      const b = new IRBuilder();
      b.setInsertPointBefore(entry.terminator()!);
      b.select(ConstantInt.bool(true), i, i);
      return printModule(m);
    }
    case 'phi-missing-entry': {
      const i = pick(rng, insts.filter((p) => p.op === Opcode.Phi && p.numIncoming >= 2));
      if (i === null) return null;
      i.removeIncoming(rng.below(i.numIncoming));
      return printModule(m);
    }
    case 'phi-not-first': {
      const i = pick(rng, insts.filter((p) => p.op === Opcode.Phi && p.parent!.firstNonPhi() !== null && !p.parent!.firstNonPhi()!.isTerminator()));
      if (i === null) return null;
      const after = i.parent!.firstNonPhi()!;
      i.moveBefore(after.next!);
      return printModule(m);
    }
    case 'misplaced-terminator': {
      // a terminator in the middle of a block
      const i = pick(rng, insts.filter((t) => t.isTerminator() && t.prev !== null && t.prev.op !== Opcode.Phi));
      if (i === null) return null;
      i.moveBefore(i.prev!);
      return printModule(m);
    }
    case 'type-mismatch': {
      // a binary operation whose operands' types differ: through the printed text, where an
      // operand written with another type is a parse error in both readers
      const text = printModule(m);
      const hits = [...text.matchAll(/= (add|sub|mul|and|or|xor|icmp [a-z]+) (i32|i64) (%[-\w.]+), /g)];
      const h = pick(rng, hits);
      if (h === null) return null;
      const other = h[2] === 'i32' ? 'i64' : 'i32';
      return text.slice(0, h.index!) + `= ${h[1]} ${other} ${h[3]}, ` + text.slice(h.index! + h[0].length);
    }
    case 'call-shape': {
      // a call whose explicit function type takes one parameter fewer than it passes
      const text = printModule(m);
      const hits = [...text.matchAll(/call (i32|i64|void|ptr|double) (@[-\w.]+)\(([^()]*\S[^()]*)\)/g)];
      const h = pick(rng, hits);
      if (h === null) return null;
      return text.slice(0, h.index!) + `call ${h[1]} () ${h[2]}(${h[3]})` + text.slice(h.index! + h[0].length);
    }
    case 'intrinsic-signature': {
      const f = pick(rng, m.functions.filter((fn) => !fn.isDeclaration()));
      if (f === null) return null;
      const text = printModule(m);
      const variant = rng.below(3);
      const call =
        variant === 0
          ? '  call void @llvm.memcpy.p0.p0.i64(ptr null, ptr null, i64 8)\n'
          : variant === 1
            ? '  %badfma = call double @llvm.fmuladd.f64(double 1.0, double 2.0)\n'
            : '  %badsmax = call i32 @llvm.smax.i32(i32 1, i64 2)\n';
      const decl =
        variant === 0 ? 'declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64)\n' : variant === 1 ? 'declare double @llvm.fmuladd.f64(double, double)\n' : 'declare i32 @llvm.smax.i32(i32, i64)\n';
      // the call goes at the top of the function's entry block
      const head = text.indexOf('{\n', text.indexOf(`@${f.name}(`));
      if (head < 0 || text.includes(decl.slice(8, 30))) return null;
      let at = head + 2;
      // keep a leading label line in front
      const nl = text.indexOf('\n', at);
      if (/^[-\w.]+:/.test(text.slice(at, nl))) at = nl + 1;
      return text.slice(0, at) + call + text.slice(at) + '\n' + decl;
    }
    case 'attributes': {
      const text = printModule(m);
      const edits: [RegExp, string][] = [
        [/(load [^,\n]+, ptr [^,\n]+), align (\d+)/g, '$1, align 3'],
        [/(store [^\n]+), align (\d+)/g, '$1, align 6'],
        [/(alloca [^,\n]+), align (\d+)/g, '$1, align 12'],
        [/define (i32|i64) @/g, 'define noalias $1 @'],
        [/define (dso_local )?(i32|i64) @([-\w.]+)\((i32|i64) /g, 'define $1$2 @$3($4 byval($4) '],
        [/define (dso_local )?void @([-\w.]+)\(/g, 'define $1noundef void @$2('],
      ];
      const usable = edits.filter(([re]) => {
        re.lastIndex = 0;
        return re.test(text);
      });
      const e = pick(rng, usable);
      if (e === null) return null;
      const [re, rep] = e;
      re.lastIndex = 0;
      const hits = [...text.matchAll(re)];
      const h = pick(rng, hits)!;
      return text.slice(0, h.index!) + h[0].replace(new RegExp(re.source), rep) + text.slice(h.index! + h[0].length);
    }
  }


}

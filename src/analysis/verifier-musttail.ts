/**
 * The verifier's rules for `musttail` calls, after LLVM 19's Verifier::verifyMustTailCall
 * (lib/IR/Verifier.cpp; LangRef "call" instruction): the call is followed by `ret` (or a
 * bitcast of it, then `ret`) returning its value, void or undef; caller and callee agree
 * on varargs, calling convention, return type, parameter count and types (pointers may
 * differ only within an address space), and on the ABI attributes of every parameter
 * (sret, byval, inalloca, inreg, alignstack, swiftself, swiftasync, swifterror,
 * preallocated, byref, and align with byval/byref). `tailcc`/`swifttailcc` calls are
 * checked for the ret only.
 *
 * Invariants: reads the call, its next instructions, the caller's signature and the
 * attribute text both keep; messages are LLVM's.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { Opcode } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { ValueKind } from '../ir/value.js';

/** LLVM's isTypeCongruent: the same type, or pointers of one address space. */
function congruent(a: Type, b: Type): boolean {
  return a === b || (a.kind === TypeKind.Ptr && b.kind === TypeKind.Ptr && a.bits === b.bits);
}

/** The calling convention among `words` (a function's prefix or a call's cconv), '' for C. */
function callingConv(words: string): string {
  const m = /(?:^|\s)(cc\s+\d+|[a-z0-9_]*cc|(?:x86|arm|amdgpu|aarch64|spir|ptx|riscv|m68k|msp430|avr)_[a-z0-9_]+)(?=\s|$)/.exec(words);
  if (m === null) return '';
  const c = m[1].replace(/\s+/g, ' ');
  return c === 'ccc' || c === 'cc 0' ? '' : c;
}

const ABI_WORDS = /\b(sret|byval|inalloca|preallocated|byref)\s*\(|\b(inreg|swiftself|swiftasync|swifterror)\b|\balignstack\s*\(\s*\d+\s*\)/g;

/** The ABI-impacting attributes of one parameter's attribute text, normalized, sorted. */
function abiAttrs(text: string): string {
  if (text === '') return '';
  const out: string[] = [];
  for (const m of text.matchAll(ABI_WORDS)) {
    if (m[1] !== undefined) {
      // the attribute with its type argument (balanced parentheses)
      let depth = 0;
      let k = m.index! + m[0].length - 1;
      const start = k;
      for (; k < text.length; k++) {
        if (text[k] === '(') depth++;
        else if (text[k] === ')' && --depth === 0) break;
      }
      out.push(m[1] + text.slice(start, k + 1).replace(/\s+/g, ''));
    } else out.push(m[0].replace(/\s+/g, ''));
  }
  if (/\b(byval|byref)\s*\(/.test(text)) {
    const a = /\balign\s+(\d+)/.exec(text);
    if (a !== null) out.push('align ' + a[1]);
  }
  return out.sort().join(' ');
}

/** What is wrong with `musttail` call `i` of function type `ft`, or null. */
export function mustTailProblem(i: Instruction, ft: Type): string | null {
  const callee = i.ops[0].value;
  if (callee.kind === ValueKind.InlineAsm) return 'cannot use musttail call with inline asm';
  const fn = i.parent?.parent;
  if (fn === null || fn === undefined) return null;
  const callerTy = fn.fnType;
  if (callerTy.vararg !== ft.vararg) return 'cannot guarantee tail call due to mismatched varargs';
  if (!congruent(callerTy.returnType, ft.returnType)) return 'cannot guarantee tail call due to mismatched return types';
  const cc = callingConv(i.callAttrs?.cconv ?? '');
  if (callingConv(fn.attrs.prefix) !== cc) return 'cannot guarantee tail call due to mismatched calling conv';
  let retVal: Instruction = i;
  let next = i.next;
  if (next !== null && next.op === Opcode.BitCast) {
    if (next.ops[0].value !== i) return 'bitcast following musttail call must use the call';
    retVal = next;
    next = next.next;
  }
  if (next === null || next.op !== Opcode.Ret) return 'musttail call must precede a ret with an optional bitcast';
  const rv = next.ops[0]?.value;
  if (rv !== undefined && rv !== retVal && rv.kind !== ValueKind.Undef && rv.kind !== ValueKind.Poison) return 'musttail call result must be returned';
  if (cc === 'tailcc' || cc === 'swifttailcc') return null;
  if (!(callee.kind === ValueKind.Function && callee.name.startsWith('llvm.'))) {
    if (callerTy.params.length !== ft.params.length) return 'cannot guarantee tail call due to mismatched parameter counts';
    for (let k = 0; k < callerTy.params.length; k++) {
      if (!congruent(callerTy.params[k], ft.params[k])) return 'cannot guarantee tail call due to mismatched parameter types';
    }
  }
  const callArgs = i.callAttrs?.args ?? [];
  for (let k = 0; k < callerTy.params.length; k++) {
    if (abiAttrs((fn as Function).args[k]?.attrs ?? '') !== abiAttrs(callArgs[k] ?? '')) {
      return 'cannot guarantee tail call due to mismatched ABI impacting function attributes';
    }
  }
  return null;
}

/**
 * The verifier's rules for intrinsics (LLVM's Verifier::visitIntrinsicCall and the checks
 * Function::Create's intrinsic attributes imply), over the signature table in
 * intrinsic-signatures.ts. Kept apart from verifier.ts so that file only calls two hooks.
 */
import { Constant } from './constants.js';
import { foldIntConstant } from './constant-int-fold.js';
import type { Function } from './function.js';
import type { Instruction } from './instruction.js';
import { intrinsicSignature, intrinsicTypeProblem } from './intrinsic-signatures.js';
import { Type, TypeKind } from './types.js';
import { ValueKind } from './value.js';

/** What is wrong with a call to an `llvm.*` function, or null. `ft` is the call's function type. */
export function intrinsicCallProblem(i: Instruction, callee: Function, ft: Type, declarationPending = false): string | null {
  // LLVM: a call through another function type than the intrinsic's own (unknown while the
  // streaming reader has not reached the declaration)
  if (!declarationPending && callee.fnType !== ft) return 'Intrinsic called with incompatible signature';
  const sig = intrinsicSignature(callee.name);
  if (sig === null) return null;
  const problem = intrinsicTypeProblem(callee.name, ft.returnType, ft.params, ft.vararg);
  if (problem !== null) return problem;
  const base = sig.base;
  // the index width of the default data layout (ssakit's table binds any integer)
  if (base === 'ptrmask' && !ft.params[1].isInt(64)) return 'llvm.ptrmask intrinsic second argument bitwidth must match pointer index type size of first argument';
  if (base === 'va_start' && !(i.parent?.parent?.fnType.vararg ?? true)) return 'va_start called in a non-varargs function';
  if (base === 'threadlocal.address') {
    const g = i.ops[1]?.value;
    if (g === undefined || g.kind !== ValueKind.GlobalVariable) return 'llvm.threadlocal.address first argument must be a GlobalValue';
  }
  for (const k of sig.immarg) {
    const a = i.ops[k + 1]?.value;
    // an integer constant expression is folded by LLVM as it is read: immediate too
    if (a !== undefined && a.kind !== ValueKind.ConstantInt && a.kind !== ValueKind.ConstantFP && !(a instanceof Constant && foldIntConstant(a) !== null)) return 'immarg operand has non-immediate parameter';
  }
  return null;
}

/** What is wrong with the declaration (or definition) of an `llvm.*` function, or null. */
export function intrinsicDeclarationProblem(fn: Function): string | null {
  if (!fn.name.startsWith('llvm.')) return null;
  if (!fn.isDeclaration()) return 'llvm intrinsics cannot be defined!';
  const sig = intrinsicSignature(fn.name);
  if (sig === null) return null;
  // LLVM gives an intrinsic's declaration the attributes of its table (nocapture, immarg…):
  // on a declaration with too few parameters they land after the last one
  if (fn.fnType.kind !== TypeKind.Function) return null;
  if (fn.fnType.params.length < sig.attributedParams) return 'Attribute after last parameter!';
  return null;
}

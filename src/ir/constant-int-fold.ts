/**
 * The integer constant expressions LLVM folds as it builds them: `add (i32 1, i32 1)` is the
 * ConstantInt 2 to LLParser, because ConstantExpr::get folds integer operands at once
 * (ConstantFoldBinaryInstruction / ConstantFoldCastInstruction). Where LLVM then requires a
 * ConstantInt (a switch case, a struct index of a GEP, an `immarg` argument), such an
 * expression is accepted. ssakit keeps the expression as written (so it prints back what it
 * read) and folds it only where a ConstantInt is needed.
 *
 * Invariants: the walk is iterative (expressions nest 100,000 deep); the flags (nsw, nuw) are
 * ignored as LLVM 19's folder ignores them; any other leaf (undef, poison, a global) or
 * opcode gives null, as LLVM's result is then not a ConstantInt.
 */
import { Constant, ConstantExpr, ConstantInt } from './constants.js';
import { Opcode } from './opcodes.js';
import { TypeKind } from './types.js';
import { ValueKind } from './value.js';

/** The ConstantInt an integer constant expression folds to, or null. */
export function foldIntConstant(c: Constant): ConstantInt | null {
  if (c.kind === ValueKind.ConstantInt) return c as ConstantInt;
  if (c.kind !== ValueKind.ConstantExpr) return null;
  const done = new Map<Constant, bigint>();
  const stack: Constant[] = [c];
  while (stack.length > 0) {
    const x = stack[stack.length - 1];
    if (done.has(x)) {
      stack.pop();
      continue;
    }
    if (x.kind === ValueKind.ConstantInt) {
      done.set(x, (x as ConstantInt).value);
      stack.pop();
      continue;
    }
    if (x.kind !== ValueKind.ConstantExpr || x.type.kind !== TypeKind.Int) return null;
    const e = x as ConstantExpr;
    if (e.opcode !== Opcode.Add && e.opcode !== Opcode.Sub && e.opcode !== Opcode.Mul && e.opcode !== Opcode.Xor && e.opcode !== Opcode.Trunc) return null;
    let ready = true;
    for (const o of e.operands) {
      if (!done.has(o)) {
        ready = false;
        stack.push(o);
      }
    }
    if (!ready) continue;
    stack.pop();
    const a = done.get(e.operands[0])!;
    const b = e.operands.length > 1 ? done.get(e.operands[1])! : 0n;
    let r: bigint;
    switch (e.opcode) {
      case Opcode.Add: r = a + b; break;
      case Opcode.Sub: r = a - b; break;
      case Opcode.Mul: r = a * b; break;
      case Opcode.Xor: r = a ^ b; break;
      default: r = a; break; // trunc: the width cut below
    }
    done.set(e, BigInt.asIntN(e.type.bits, r));
  }
  return ConstantInt.get(c.type, done.get(c)!);
}

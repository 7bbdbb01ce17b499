/**
 * The names of overloaded intrinsics, as LLVM 19 mangles them (Intrinsic::getName and
 * getMangledTypeStr, lib/IR/Function.cpp): `llvm.` + the base name + `.` + each overloaded
 * type in the table's order — `p0` for `ptr`, `i64`, `f64`, `v4i32` for `<4 x i32>`,
 * `a3i8` for `[3 x i8]`, `sl_i32i1s` for a literal `{ i32, i1 }`, `s_struct.Ss` for
 * `%struct.S`, `f_isVoidi32f` for a function type. LLParser names the declaration it makes
 * for an intrinsic called without one this way (`call void @llvm.memcpy.p0.p0.ptr(…)` gets
 * `declare void @llvm.memcpy.p0.p0.i64(…)`), from the call's type.
 *
 * Invariants: the type walk is iterative (types nest without limit); a name is only made
 * for a signature of intrinsic-signatures.ts, from the types its call binds.
 */
import { intrinsicSignature, overloadTypes } from './intrinsic-signatures.js';
import { Type, TypeKind } from './types.js';

const SCALARS: Partial<Record<TypeKind, string>> = {
  [TypeKind.Void]: 'isVoid',
  [TypeKind.Metadata]: 'Metadata',
  [TypeKind.Half]: 'f16',
  [TypeKind.BFloat]: 'bf16',
  [TypeKind.Float]: 'f32',
  [TypeKind.Double]: 'f64',
  [TypeKind.X86_FP80]: 'f80',
  [TypeKind.FP128]: 'f128',
};

/** LLVM's getMangledTypeStr of one type. */
export function mangledTypeName(t: Type): string {
  let out = '';
  // items: a type to write, or text to emit once the types pushed after it are written
  const stack: (Type | string)[] = [t];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (typeof x === 'string') {
      out += x;
      continue;
    }
    switch (x.kind) {
      case TypeKind.Int:
        out += 'i' + x.bits;
        break;
      case TypeKind.Ptr:
        out += 'p' + x.bits;
        break;
      case TypeKind.Array:
      case TypeKind.Vector:
        out += (x.kind === TypeKind.Array ? 'a' : 'v') + x.count;
        stack.push(x.elem!);
        break;
      case TypeKind.Struct:
        if (x.name !== null) out += 's_' + x.name + 's';
        else {
          out += 'sl_';
          stack.push('s');
          for (let k = x.members.length - 1; k >= 0; k--) stack.push(x.members[k]);
        }
        break;
      case TypeKind.Function:
        out += 'f_';
        stack.push((x.vararg ? 'vararg' : '') + 'f');
        for (let k = x.members.length - 1; k >= 0; k--) stack.push(x.members[k]);
        stack.push(x.elem!);
        break;
      default:
        out += SCALARS[x.kind] ?? x.toString();
    }
  }
  return out;
}

/**
 * The name LLVM gives the intrinsic `name` (any suffix) called with function type `ft`:
 * `llvm.<base>` and the mangled overloaded types; null when ssakit's table does not know
 * the intrinsic, or when `ft` does not fit its signature.
 */
export function mangledIntrinsicName(name: string, ft: Type): string | null {
  const sig = intrinsicSignature(name);
  if (sig === null || ft.kind !== TypeKind.Function) return null;
  const tys = overloadTypes(sig, ft.returnType, ft.params, ft.vararg);
  if (tys === null) return null;
  return 'llvm.' + sig.base + tys.map((t) => '.' + mangledTypeName(t)).join('');
}

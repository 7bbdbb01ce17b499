/**
 * Concrete types for the intrinsic signature table's notation (src/ir/intrinsic-signatures.ts:
 * `A:int`, `B:fp`, `{...}` literal structs, `X.e` a vector's element, `X~i1` the same shape of
 * i1, `!` an immediate, `*` varargs), shared by the signature test (verdicts against
 * llvm-as-19) and the mangling test (names against opt-19).
 */

/** `s` split at the commas outside braces. */
export function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/** The type variables of `sigText` bound by constraint: `pick[constraint]`, B:int to `bInt`, B to i32 when absent. */
export function bindVariables(sigText: string, pick: Record<string, string>, bInt: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const m of sigText.matchAll(/([A-Z]):(int|fp|any|ivec|fvec|ptr)/g)) vars[m[1]!] = m[1] === 'B' && m[2] === 'int' ? bInt : pick[m[2]!]!;
  vars.B ??= 'i32'; // frexp's exponent
  return vars;
}

/** The signature's result and parameter types under `vars`; `raw` keeps the table's spelling of each parameter. */
export function instantiate(sigText: string, vars: Record<string, string>): { ret: string; params: string[]; raw: string[] } {
  const open = sigText.lastIndexOf('(');
  const ty = (p: string): string => {
    p = p.replace(/[!*]$/, '');
    if (p.startsWith('{')) return '{ ' + splitTopLevel(p.slice(1, -1)).map(ty).join(', ') + ' }';
    const m = /^([A-Z])(?::\w+)?(~i1|\.e)?$/.exec(p);
    if (m === null) return p;
    const v = vars[m[1]!]!;
    if (m[2] === '.e') return v.replace(/^<\d+ x (.*)>$/, '$1');
    if (m[2] === '~i1') return v.startsWith('<') ? v.replace(/x .*>$/, 'x i1>') : 'i1';
    return v;
  };
  const raw = splitTopLevel(sigText.slice(open + 1, -1));
  return { ret: ty(sigText.slice(0, open)), params: raw.map(ty), raw };
}

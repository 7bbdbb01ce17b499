/**
 * Programs nested 10,000 levels deep (or 100,000 terms long), with the value main returns.
 * IR generation must not recurse on the tree (see ast.ts), nor must the SSA builder,
 * the verifier, the printer or the interpreter on the resulting IR.
 */
export const DEPTH = 10_000;
const N = DEPTH;

export interface DeepProgram {
  name: string;
  source: string;
  /** main's result & 255 with input `0`. */
  exit: number;
  /** Our interpreter cannot run the alloca-mode IR yet (see deep.test.ts). */
  noInterpAlloca?: boolean;
}

export const DEEP_PROGRAMS: DeepProgram[] = [
  {
    name: 'parentheses around a right-deep sum',
    source: `int main() { int x = 1; return ${'(x + '.repeat(N)}x${')'.repeat(N)} % 256; }`,
    exit: (N + 1) % 256,
  },
  {
    name: 'left-deep sum of 100,000 terms',
    source: `int main() { int x = getint(); return (${Array(100_000).fill('x').join(' + ')}) % 256; }`,
    exit: 0,
    noInterpAlloca: true,
  },
  {
    name: 'nested blocks, each shadowing x',
    source: `int main() { int y = 0; ${'{ int x = y + 1; y = x; '.repeat(N)} ${'}'.repeat(N)} return y % 256; }`,
    exit: N % 256,
  },
  {
    name: 'nested ifs',
    source: `int main() { int x = getint(); ${'if (x < 5) '.repeat(N)} x = x + 7; return x; }`,
    exit: 7,
  },
  {
    name: 'an else-if chain',
    source: `int main() { int x = getint() + 3; ${Array.from({ length: N }, (_, k) => `if (x == ${k + 100}) x = ${k};`).join(' else ')} else x = x + 1; return x; }`,
    exit: 4,
  },
  {
    name: 'nested whiles with break and continue',
    source: `int main() { int x = getint(); int n = 0; ${'while (x < 5) '.repeat(N)} { x = x + 1; n = n + 1; if (x > 2) break; continue; } return x * 10 + n; }`,
    // the innermost loop runs 3 times and breaks; each enclosing level re-enters it once more
    exit: 55,
  },
  {
    name: 'unary minus and logical not',
    source: `int main() { int x = getint() + 7; if (${'!'.repeat(N)}x) return ${'-'.repeat(N)}x; return 1; }`,
    exit: 7,
  },
  {
    name: 'nested calls',
    source: `int f(int x) { return x + 1; }\nint main() { int x = getint(); return ${'f('.repeat(N)}x${')'.repeat(N)} % 256; }`,
    exit: N % 256,
  },
  {
    name: 'nested subscripts',
    source: `int a[2] = {1, 1};\nint main() { int x = getint(); a[0] = x; return ${'a['.repeat(N)}0${']'.repeat(N)} + 5; }`,
    exit: 5,
  },
  {
    name: 'long && and || chains as values and conditions',
    source: `int main() { int a = getint() + 1; int v = ${Array(N).fill('a').join(' && ')}; int w = ${Array(N).fill('(a - 1)').join(' || ')}; if (${Array(N).fill('a').join(' && ')}) return v * 10 + w; return 99; }`,
    exit: 10,
  },
];

/**
 * Ranges of scalar evolution expressions (src/analysis/scev-range.ts) and backedge-taken
 * counts of loops with several exits (src/analysis/scev-exits.ts), against independent
 * oracles:
 *  - opt-19's `print<scalar-evolution>` on the same input IR: the `U:`/`S:` ranges of every
 *    expression we print exactly as LLVM does (flags included; ranges depend on them), and
 *    the count lines (exact, per exit, constant and symbolic maxima) of loops with one and
 *    with two exits;
 *  - execution: random loops (fast-check) are instrumented so that every integer value is
 *    checked against its two ranges each time it is computed; no value may fall outside;
 *  - simulation: random loops with a second exit (a `break` on an affine test); the exact
 *    count, evaluated at each parameter value, must equal the iterations the interpreter
 *    counts, and the constant maximum must bound it.
 * Size: SSAKIT_SCEV_RUNS programs per property (default 25; the fuzz suite runs more).
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { freshScalarEvolution } from '../../src/analysis/scalar-evolution.js';
import { scevRanges } from '../../src/analysis/scev-range.js';
import { backedgeTakenInfo } from '../../src/analysis/scev-exits.js';
import { ConstantRange } from '../../src/analysis/constant-range.js';
import { SK, type SCEV } from '../../src/analysis/scev-expr.js';
import { Instruction } from '../../src/ir/instruction.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { ValueKind } from '../../src/ir/value.js';
import { callFunction } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule, printValue } from '../../src/text/printer.js';
import { setSCEVPrintSink } from '../../src/transforms/loop/print-scev.js';
import { clangToLL, hasLlvm, LLVM_MISSING, OPT, runTool } from '../helpers/llvm.js';
import { inputIR } from '../helpers/differential.js';

const RUNS = Number(process.env.SSAKIT_SCEV_RUNS ?? 25);
if (!hasLlvm()) console.warn(LLVM_MISSING);

function printSE(ll: string): string {
  let out = '';
  const old = setSCEVPrintSink((t) => (out += t));
  try {
    runPipeline(parseModule(ll, 'r.ll'), 'print<scalar-evolution>');
  } finally {
    setSCEVPrintSink(old);
  }
  return out;
}

/** `fn inst` → [expression, U, S], and `fn Loop …` count lines → their text. */
function parse(t: string): { exprs: Map<string, [string, string, string]>; counts: Map<string, string> } {
  const exprs = new Map<string, [string, string, string]>();
  const counts = new Map<string, string>();
  let fn = '';
  let loop = '';
  const lines = t.split('\n');
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k];
    const f = /^(?:Classifying expressions|Determining loop execution counts) for: @(\w+)/.exec(l);
    if (f) fn = f[1];
    const e = /^ {2}-->\s+(.*?) U: (\S+) S: (\S+)/.exec(lines[k + 1] ?? '');
    if (/^ {2}%/.test(l) && e) exprs.set(`${fn} ${l.trim()}`, [e[1], e[2], e[3]]);
    const c = /^Loop (%[\w.]+): (.*)$/.exec(l);
    if (c) {
      loop = c[1];
      const kind = c[2].replace(/ is .*| count\..*/, '');
      counts.set(`${fn} ${loop} ${kind}`, c[2]);
    }
    const x = /^ {2}((?:symbolic max )?exit count for [\w.]*): (.*)$/.exec(l);
    if (x) counts.set(`${fn} ${loop} ${x[1]} #${[...counts.keys()].filter((q) => q.startsWith(`${fn} ${loop} ${x[1]}`)).length}`, x[2]);
  }
  return { exprs, counts };
}

describe('constant ranges', () => {
  it('union and intersection hold exactly the members they must (exhaustive at 3 bits)', () => {
    const all: ConstantRange[] = [ConstantRange.full(3), ConstantRange.empty(3)];
    for (let lo = 0n; lo < 8n; lo++) for (let hi = 0n; hi < 8n; hi++) if (lo !== hi) all.push(ConstantRange.of(lo, hi, 3));
    const bad: string[] = [];
    for (const a of all) {
      for (const b of all) {
        const i = a.intersectWith(b);
        const u = a.unionWith(b);
        const s = a.add(b);
        const m = a.multiply(b);
        for (let x = 0n; x < 8n; x++) {
          if (a.contains(x) && b.contains(x) && !i.contains(x)) bad.push(`${a} ∩ ${b} = ${i} misses ${x}`);
          if ((a.contains(x) || b.contains(x)) && !u.contains(x)) bad.push(`${a} ∪ ${b} = ${u} misses ${x}`);
          if (!a.contains(x)) continue;
          for (let y = 0n; y < 8n; y++) {
            if (!b.contains(y)) continue;
            if (!s.contains(x + y)) bad.push(`${a} + ${b} = ${s} misses ${x} + ${y}`);
            if (!m.contains(x * y)) bad.push(`${a} * ${b} = ${m} misses ${x} * ${y}`);
          }
        }
      }
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('scalar evolution ranges and multi-exit counts against opt-19', () => {
  const src = `
int up(int n, int *a) { int s = 0; for (int i = 0; i < n; i++) { s += i; a[i] = s; } return s; }
int nest(int n) { int x = 0; for (int a = 0; a < n; a++) for (int b = 0; b < n; b++) x++; return x; }
long wide(int n, long k) { long s = k; for (int i = 3; i <= n; i += 1) s += 2 * i + 5; return s; }
int cst(int *a) { int s = 0; for (int i = 0; i < 100; i++) { s += a[i]; } return s; }
int brk(int n, int *a) { int i; for (i = 0; i < n; i++) { if (a[i] == 7) break; } return i; }
int two(int n, int m) { int s = 0; for (int i = 0; i < n; i++) { if (i >= m) break; s += 2; } return s; }
int down0(int *a) { int s = 0; for (int i = 200; i > 0; i -= 2) a[i] = i; return s; }
short sh(short *a) { short s = 0; for (short i = 0; i < 300; i++) a[i] = i * 3; return s; }
int two2(int n, int m, int *a) { for (int i = 0; i < n; i++) { if (i == m) break; a[i] = 1; } return 0; }
int twoc(int *a) { int i; for (i = 5; i < 90; i += 2) { if (i > 40) break; a[i] = 1; } return i; }
`;
  it('prints the ranges and counts opt-19 prints', () => {
    const ll = inputIR(src, 'scev-range', { prePasses: 'mem2reg,loop-simplify,loop-rotate,instcombine' });
    const llvm = runTool(OPT, ['-passes=print<scalar-evolution>', '-disable-output', '-'], { input: ll });
    expect(llvm.status).toBe(0);
    const ours = parse(printSE(ll));
    const theirs = parse(llvm.stderr);
    let compared = 0;
    for (const [k, [e, u, s]] of ours.exprs) {
      const t = theirs.exprs.get(k);
      // the same expression with the same flags (LLVM infers more flags, which narrow its
      // ranges) and not a bare unknown (a phi's range is the union of its operands', whose
      // flags may differ)
      if (t === undefined || t[0] !== e || /^%[\w.]+$/.test(e)) continue;
      expect(`${k}: ${e} U: ${u} S: ${s}`).toBe(`${k}: ${t[0]} U: ${t[1]} S: ${t[2]}`);
      compared++;
    }
    expect(compared).toBeGreaterThan(25);
    // every count line, including the per-exit ones of the loops with a break
    expect([...ours.counts].filter(([k]) => !/Trip multiple/.test(k))).toEqual([...theirs.counts].filter(([k]) => !/Trip multiple/.test(k)));
    expect([...ours.counts.keys()].filter((k) => /exit count/.test(k)).length).toBeGreaterThanOrEqual(16);
  }, 60_000);
});

/** Evaluates an expression of the function's arguments (null if it holds anything else). */
function evaluate(s: SCEV, args: bigint[]): bigint | null {
  const u = (x: bigint, b: number) => BigInt.asUintN(b, x);
  const r = (x: bigint) => BigInt.asIntN(s.bits, x);
  const ops: bigint[] = [];
  for (const o of s.ops) {
    const v = evaluate(o, args);
    if (v === null) return null;
    ops.push(v);
  }
  const pick = (better: (a: bigint, b: bigint) => boolean) => ops.reduce((a, b) => (better(b, a) ? b : a));
  switch (s.kind) {
    case SK.Const:
      return s.c;
    case SK.Unknown:
      return s.value!.kind === ValueKind.Argument ? r(args[(s.value as unknown as { index: number }).index]) : null;
    case SK.Add:
      return r(ops.reduce((a, b) => a + b, 0n));
    case SK.Mul:
      return r(ops.reduce((a, b) => a * b, 1n));
    case SK.UDiv:
      return ops[1] === 0n ? null : r(u(ops[0], s.bits) / u(ops[1], s.bits));
    case SK.SMax:
      return pick((a, b) => a > b);
    case SK.SMin:
      return pick((a, b) => a < b);
    case SK.UMax:
      return pick((a, b) => u(a, s.bits) > u(b, s.bits));
    case SK.UMin:
      return pick((a, b) => u(a, s.bits) < u(b, s.bits));
    case SK.ZExt:
      return r(u(ops[0], s.ops[0].bits));
    case SK.SExt:
    case SK.Trunc:
      return r(ops[0]);
    default:
      return null;
  }
}

interface Loop2 {
  type: 'int' | 'unsigned' | 'long';
  start: number;
  step: number;
  test: '<' | '<=' | '!=' | '>' | '>=';
  bn: number;
  bc: number;
  /** the second exit: `if (i <cmp2> n * b2n + b2c) break;` */
  cmp2: '<' | '>' | '==' | '>=';
  b2n: number;
  b2c: number;
  body: number;
  inner: boolean;
}

const loop2: fc.Arbitrary<Loop2> = fc.record({
  type: fc.constantFrom('int' as const, 'unsigned' as const, 'long' as const),
  start: fc.integer({ min: 0, max: 5 }),
  step: fc.integer({ min: 1, max: 3 }),
  test: fc.constantFrom('<' as const, '<=' as const, '!=' as const, '>' as const, '>=' as const),
  bn: fc.integer({ min: 0, max: 3 }),
  bc: fc.integer({ min: 0, max: 9 }),
  cmp2: fc.constantFrom('<' as const, '>' as const, '==' as const, '>=' as const),
  b2n: fc.integer({ min: 0, max: 2 }),
  b2c: fc.integer({ min: 0, max: 12 }),
  body: fc.integer({ min: -3, max: 5 }),
  inner: fc.boolean(),
});

/**
 * A do-while loop that always terminates for n in 1..6 (as in scalar-evolution.test.ts)
 * with a second exit; `c` counts the body's runs, so the backedge-taken count is c - 1. With
 * `inner`, an inner loop over the outer IV runs inside (more values to range-check).
 */
function program2(l: Loop2): string {
  const t = l.type;
  const bound = `(${t})(n * ${l.bn} + ${l.bc})`;
  const up = l.test === '<' || l.test === '<=' || l.test === '!=';
  const step = l.test === '!=' ? 1 : l.step;
  const low = up ? l.start : l.start + 3;
  const init = up ? `(${t})${low}` : `${bound} + (${t})${low + 1}`;
  const lim = up ? `${bound} + (${t})${low + 1}` : `(${t})${low}`;
  const inner = l.inner ? `for (${t} j = 0; j < i; j++) x += (int)j * 3 + (int)i;` : '';
  return `int f(int n) { int x = 0, c = 0; ${t} i = ${init};
  do { c += 1; x += ${l.body} + (int)i; ${inner} if (i ${l.cmp2} (${t})(n * ${l.b2n} + ${l.b2c})) break; i ${up ? '+' : '-'}= ${step}; } while (i ${l.test} ${lim});
  return x * 0 + c; }\n`;
}

/** The module with every integer value checked against its ranges; f returns the id of the first value outside them (0: none). */
function instrument(ll: string): { text: string; checked: number } {
  const m = parseModule(ll, 'i.ll');
  runPipeline(m, 'mem2reg,instcombine,loop-simplify');
  const fn = m.getFunction('f')!;
  const se = freshScalarEvolution(fn);
  const rg = scevRanges(se);
  const checks = new Map<string, { lo: bigint; size: bigint; bits: number }[]>();
  for (const b of fn.blocks()) {
    for (let i: Instruction | null = b.first; i !== null; i = i.next) {
      if (!i.type.isInt() || i.op === Opcode.ICmp) continue;
      const s = se.get(i);
      const rs = [rg.unsigned(s), rg.signed(s)].filter((r) => !r.isFull());
      if (rs.length > 0) checks.set(printValue(i), rs.map((r) => ({ lo: r.lower, size: r.size(), bits: s.bits })));
    }
  }
  let id = 0;
  const out: string[] = [];
  let pending: string[] = [];
  for (const line of printModule(m).split('\n')) {
    const def = /^ {2}(%[\w.]+) = (phi )?/.exec(line);
    if (pending.length > 0 && !(def && def[2])) {
      out.push(...pending);
      pending = [];
    }
    const ret = /^ {2}ret i32 /.exec(line);
    if (ret) {
      out.push(`  %__r = load i32, ptr @__viol`, `  ret i32 %__r`);
      continue;
    }
    out.push(line);
    if (def && checks.has(def[1])) {
      for (const c of checks.get(def[1])!) {
        const k = ++id;
        const ty = `i${c.bits}`;
        const code = [`  %__d${k} = sub ${ty} ${def[1]}, ${BigInt.asIntN(c.bits, c.lo)}`, `  %__ok${k} = icmp ult ${ty} %__d${k}, ${c.size}`, `  %__o${k} = load i32, ptr @__viol`, `  %__n${k} = select i1 %__ok${k}, i32 %__o${k}, i32 ${k}`, `  store i32 %__n${k}, ptr @__viol`];
        if (def[2]) pending.push(...code);
        else out.push(...code);
      }
    }
  }
  return { text: `${out.join('\n')}\n@__viol = global i32 0\n`, checked: id };
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('scalar evolution ranges and multi-exit counts against execution', () => {
  it('every integer value of random loops stays inside its unsigned and signed ranges', () => {
    let checked = 0;
    fc.assert(
      fc.property(loop2, (spec) => {
        const src = program2(spec);
        const ll = readFileSync(clangToLL(src, 'O0', [], 'scev-range'), 'utf8');
        const { text, checked: n } = instrument(ll);
        checked += n;
        const m = parseModule(text, 'checked.ll');
        for (let a = 1; a <= 6; a++) {
          const bad = callFunction(m, 'f', [a], { maxSteps: 50_000_000 }).value;
          expect(bad, `${src}\nn = ${a}: value check #${bad} failed\n${text}`).toBe(0);
        }
      }),
      { numRuns: RUNS, seed: 2424 },
    );
    expect(checked).toBeGreaterThan(RUNS * 2);
  }, 300_000);

  it('the exact count of loops with two exits is the iterations run, and the constant maximum bounds it', () => {
    let solved = 0;
    fc.assert(
      fc.property(loop2, (spec) => {
        const src = program2({ ...spec, inner: false });
        const ll = readFileSync(clangToLL(src, 'O0', [], 'scev-exits'), 'utf8');
        const m = parseModule(ll, 'x.ll');
        runPipeline(m, 'mem2reg,instcombine,loop-simplify');
        const fn = m.getFunction('f')!;
        const se = freshScalarEvolution(fn);
        const loop = se.li.loops[0];
        const info = backedgeTakenInfo(se, loop);
        const max = scevRanges(se).constantMaxBTC(loop);
        for (let a = 1; a <= 6; a++) {
          const runs = BigInt(callFunction(m, 'f', [a], { maxSteps: 50_000_000 }).value as number);
          if (max !== null) expect(runs - 1n <= max, `${src}\nn = ${a}: max ${max}`).toBe(true);
          if (info.symbolicMax !== null) {
            const sm = evaluate(info.symbolicMax, [BigInt(a)]);
            if (sm !== null) expect(runs - 1n <= BigInt.asUintN(info.symbolicMax.bits, sm), `${src}\nsymbolic max`).toBe(true);
          }
          if (info.exact === null) return;
          const got = evaluate(info.exact, [BigInt(a)]);
          if (got === null) return;
          expect(BigInt.asUintN(info.exact.bits, got), `${src}\nn = ${a}`).toBe(runs - 1n);
        }
        if (info.exits.length > 1) solved++;
      }),
      { numRuns: RUNS * 2, seed: 2425 },
    );
    expect(solved).toBeGreaterThan(RUNS / 3);
  }, 300_000);
});

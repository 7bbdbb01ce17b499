/**
 * instcombine's casts of whole expression trees (transforms/instcombine/evaluate-in-type.ts)
 * and mask rules (demanded-bits.ts), against independent oracles:
 *  - each rule's case through opt-19 -passes=instcombine: we reach the same instruction
 *    count (names and order differ, the work done must not);
 *  - random straight-line functions over i8..i64 with casts, masks, shifts and selects,
 *    called on random inputs: the output of the instcombined module, in our interpreter and
 *    in lli-19, is lli-19's output of the original;
 *  - Csmith's CRC update (the loop every Csmith program runs): our -O2 executes no more
 *    instructions than opt-19 -O2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction, printModule } from '../../src/text/printer.js';
import { TypeKind } from '../../src/ir/types.js';
import { computeKnownBits } from '../../src/analysis/known-bits.js';
import { clangToLL, hasLlvm, LLVM_AS, OPT, runLli, runTool } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { bodyAfter, bodyLines, optimize, yieldToEventLoop } from './scalar-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'ssakit-narrow-'));

/** The instructions opt-19 -passes=instcombine leaves in the (single) function. */
function llvmBody(fnText: string): string[] {
  const path = join(dir, 'case.ll');
  writeFileSync(path, fnText);
  const r = runTool(OPT, ['-passes=instcombine', '-S', path]);
  expect(r.status, r.stderr).toBe(0);
  const text = r.stdout.toString('utf8');
  const fn = text.slice(text.indexOf('define'), text.indexOf('\n}', text.indexOf('define')) + 2);
  return bodyLines(fn);
}

const CASES: [string, string][] = [
  [
    'and (xor y, zext x), mask(x) is zext (xor (trunc y), x)',
    `define i32 @f(i32 %y, i8 %x) {\n  %z = zext i8 %x to i32\n  %b = xor i32 %y, %z\n  %a = and i32 %b, 255\n  ret i32 %a\n}`,
  ],
  [
    'and (add (zext x), C1), C is zext (and (add x, C1), C)',
    `define i32 @f(i8 %x) {\n  %z = zext i8 %x to i32\n  %b = add i32 %z, 300\n  %a = and i32 %b, 127\n  ret i32 %a\n}`,
  ],
  [
    'zext of a xor of truncs is computed in the wide type (Csmith\'s crc32_byte after inlining)',
    `define i64 @f(i32 %c, i64 %v) {\n  %s = lshr i64 %v, 8\n  %t1 = trunc i32 %c to i8\n  %t2 = trunc i64 %s to i8\n  %x = xor i8 %t1, %t2\n  %z = zext i8 %x to i64\n  ret i64 %z\n}`,
  ],
  [
    'zext through lshr: the bits shifted down are cleared by the final mask',
    `define i64 @f(i64 %v) {\n  %t = trunc i64 %v to i32\n  %s = lshr i32 %t, 4\n  %z = zext i32 %s to i64\n  ret i64 %z\n}`,
  ],
  [
    'trunc of an add of zexts is the narrow add',
    `define i8 @f(i8 %x, i8 %y) {\n  %a = zext i8 %x to i32\n  %b = zext i8 %y to i32\n  %s = add nsw i32 %a, %b\n  %m = mul i32 %s, 3\n  %t = trunc i32 %m to i8\n  ret i8 %t\n}`,
  ],
  [
    'trunc of an lshr is narrow only when the bits shifted in are zero',
    `define i8 @f(i8 %x, i32 %y) {\n  %a = zext i8 %x to i32\n  %s = lshr i32 %a, 2\n  %t = trunc i32 %s to i8\n  %s2 = lshr i32 %y, 2\n  %t2 = trunc i32 %s2 to i8\n  %r = add i8 %t, %t2\n  ret i8 %r\n}`,
  ],
  [
    'an and whose operand has no bit outside the mask goes; an inner and the outer one covers goes',
    `define i32 @f(i32 %x, i32 %y) {\n  %l = lshr i32 %x, 28\n  %a = and i32 %l, 15\n  %i = and i32 %y, 1023\n  %o = or i32 %i, %a\n  %m = and i32 %o, 255\n  ret i32 %m\n}`,
  ],
  [
    'an or operand with no demanded bit set is dropped (a struct of two i32 in one i64)',
    `define i64 @f(i64 %x, i64 %y) {\n  %h = and i64 %x, -4294967296\n  %o = or i64 %h, %y\n  %m = and i64 %o, 4294967295\n  ret i64 %m\n}`,
  ],
  [
    'index wrapping ((x % 8) + 8) % 8 is x & 7 (srem of a non-negative range, then the low bits of an srem by 2^k)',
    `define i32 @f(i32 %x) {\n  %a = srem i32 %x, 8\n  %b = add i32 %a, 8\n  %c = srem i32 %b, 8\n  ret i32 %c\n}`,
  ],
];

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('instcombine narrowing: as many instructions as opt-19 -passes=instcombine leaves', () => {
  for (const [title, text] of CASES) {
    it(title, () => {
      const ours = bodyAfter(text, 'instcombine');
      const theirs = llvmBody(text);
      expect(ours.length, `ours:\n${ours.join('\n')}\nopt-19:\n${theirs.join('\n')}`).toBeLessThanOrEqual(theirs.length);
    });
  }
});

/** A small seeded PRNG (mulberry32), so a failing case can be rebuilt from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WIDTHS = [8, 16, 32, 64];
const MASKS = [1, 15, 127, 255, 65535, 0xffffff, 0x7fffffff];

/**
 * A random function `i64 @f(i64, i32, i16, i8)` of straight-line integer code shaped like
 * what C compilers emit for byte arithmetic: casts between widths, masks, constant shifts,
 * logic and arithmetic, selects. Values may have several uses (the rules must respect that).
 */
function randomFunction(seed: number): string {
  const r = rng(seed);
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const pool: Map<number, string[]> = new Map([
    [64, ['%a']],
    [32, ['%b']],
    [16, ['%c']],
    [8, ['%d']],
  ]);
  const lines: string[] = [];
  let n = 0;
  const fresh = (): string => `%v${n++}`;
  const valueOf = (w: number): string => {
    // recent values are likelier, so trees grow deep
    const vs = pool.get(w)!;
    return r() < 0.6 ? vs[vs.length - 1] : pick(vs);
  };
  const steps = 6 + Math.floor(r() * 14);
  for (let s = 0; s < steps; s++) {
    const w = pick(WIDTHS);
    const v = fresh();
    const k = r();
    if (k < 0.3) {
      const to = pick(WIDTHS.filter((x) => x !== w));
      const op = to < w ? 'trunc' : r() < 0.7 ? 'zext' : 'sext';
      lines.push(`${v} = ${op} i${w} ${valueOf(w)} to i${to}`);
      pool.get(to)!.push(v);
      continue;
    }
    if (k < 0.5) {
      const m = pick(MASKS.filter((x) => x < 2 ** w));
      lines.push(`${v} = and i${w} ${valueOf(w)}, ${m}`);
    } else if (k < 0.65) {
      lines.push(`${v} = ${pick(['shl', 'lshr', 'ashr'])} i${w} ${valueOf(w)}, ${1 + Math.floor(r() * (w - 1))}`);
    } else if (k < 0.92) {
      const b = r() < 0.25 ? String(Math.floor(r() * 1000) - 500) : valueOf(w);
      lines.push(`${v} = ${pick(['add', 'sub', 'mul', 'and', 'or', 'xor', 'xor', 'or'])} i${w} ${valueOf(w)}, ${b}`);
    } else {
      const c = fresh();
      lines.push(`${c} = icmp ${pick(['ult', 'slt', 'eq'])} i${w} ${valueOf(w)}, ${valueOf(w)}`);
      lines.push(`${v} = select i1 ${c}, i${w} ${valueOf(w)}, i${w} ${valueOf(w)}`);
    }
    pool.get(w)!.push(v);
  }
  // the result mixes the last value of every width, widened to i64
  let acc = '%a';
  for (const w of WIDTHS) {
    const last = pool.get(w)![pool.get(w)!.length - 1];
    let x = last;
    if (w < 64) {
      x = fresh();
      lines.push(`${x} = ${r() < 0.7 ? 'zext' : 'sext'} i${w} ${last} to i64`);
    }
    const y = fresh();
    lines.push(`${y} = xor i64 ${acc}, ${x}`);
    acc = y;
  }
  return `define internal i64 @f(i64 %a, i32 %b, i16 %c, i8 %d) {\n  ${lines.join('\n  ')}\n  ret i64 ${acc}\n}\n`;
}

/** A main that prints @f on `inputs` random argument tuples. */
function harness(fn: string, seed: number, inputs: number): string {
  const r = rng(seed ^ 0x5bd1e995);
  const big = (): bigint => (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32));
  const special = [0n, 1n, -1n, 255n, 256n, 0x7fn, 0x80n, 0xffffn, 0x80000000n, -0x8000000000000000n];
  const arg = (w: number): string => {
    const v = r() < 0.3 ? special[Math.floor(r() * special.length)] : big();
    return BigInt.asIntN(w, v).toString();
  };
  const body: string[] = [];
  for (let k = 0; k < inputs; k++) {
    body.push(`%r${k} = call i64 @f(i64 ${arg(64)}, i32 ${arg(32)}, i16 ${arg(16)}, i8 ${arg(8)})`);
    body.push(`%p${k} = call i32 (ptr, ...) @printf(ptr @fmt, i64 %r${k})`);
  }
  return `@fmt = private constant [6 x i8] c"%llx\\0A\\00"\ndeclare i32 @printf(ptr, ...)\n${fn}\ndefine i32 @main() {\n  ${body.join('\n  ')}\n  ret i32 0\n}\n`;
}

function interpret(text: string): string {
  const res = runModule(parseModule(text, 'narrow.ll'), { stdout: 'collect', stderr: 'collect' });
  return res.stdoutBytes!.toString('latin1');
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('instcombine narrowing keeps behaviour on random byte arithmetic (lli-19 is the oracle)', () => {
  // seeds fixed so a failure is repeatable; 36 functions × 24 inputs (120 in the fuzz suite,
  // SSAKIT_FUZZ=1: the normal suite keeps a slice, its time went to loop-vectorize's tests)
  const FIRST = 41_000;
  const COUNT = process.env.SSAKIT_FUZZ ? 120 : 36;
  it(`${COUNT} random functions, instcombine and instcombine,dce`, async () => {
    for (let seed = FIRST; seed < FIRST + COUNT; seed++) {
      await yieldToEventLoop();
      const text = harness(randomFunction(seed), seed, 24);
      const path = join(dir, `r${seed}.ll`);
      writeFileSync(path, text);
      const want = runLli(path);
      expect(want.exitCode, `lli-19 on the original, seed ${seed}: ${want.stderr}`).toBe(0);
      for (const pipeline of ['instcombine', 'instcombine,dce']) {
        const m = parseModule(text, 'narrow.ll');
        runPipeline(m, pipeline, { verifyEach: true, log: () => {} });
        const out = printModule(m);
        const optPath = join(dir, `r${seed}-opt.ll`);
        writeFileSync(optPath, out);
        expect(runTool(LLVM_AS, [optPath, '-o', '/dev/null']).status, `llvm-as-19, seed ${seed}`).toBe(0);
        const got = runLli(optPath);
        expect(got.stdout.toString('latin1'), `lli-19 after ${pipeline}, seed ${seed}:\n${out}`).toBe(want.stdout.toString('latin1'));
        expect(interpret(out), `interpreter after ${pipeline}, seed ${seed}`).toBe(want.stdout.toString('latin1'));
      }
    }
  }, 600_000);
});

describe('the srem-by-2^k mask rules keep every i8 input (exhaustive, against JavaScript arithmetic)', () => {
  it('((x % d) + d) % d and (x % d) & m for d = 2..64, m below d, after instcombine, equal % computed in JS', () => {
    for (const d of [2, 4, 8, 64]) {
      for (const m of [1, d - 1, d >> 1]) {
        const text = `@fmt = private constant [7 x i8] c"%d %d\\0A\\00"\ndeclare i32 @printf(ptr, ...)\n` +
          `define internal void @g(i8 %d) {\n  %x = sext i8 %d to i32\n  %a = srem i32 %x, ${d}\n  %b = add i32 %a, ${d}\n  %c = srem i32 %b, ${d}\n` +
          `  %e = and i32 %a, ${m}\n  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %c, i32 %e)\n  ret void\n}\n` +
          `define i32 @main() {\n  ${Array.from({ length: 256 }, (_, x) => `call void @g(i8 ${x - 128})`).join('\n  ')}\n  ret i32 0\n}\n`;
        const { m: mod } = optimize(text, 'instcombine');
        const g = printFunction(mod.getFunction('g')!);
        expect(g, 'the rules fired').not.toMatch(/srem i32 %b|and i32 %a/);
        const want = Array.from({ length: 256 }, (_, k) => `${(((k - 128) % d) + d) % d} ${((k - 128) % d) & m}\n`).join('');
        expect(runModule(mod, { stdout: 'collect' }).stdoutBytes!.toString('latin1'), `d = ${d}, m = ${m}`).toBe(want);
      }
    }
  });
});

describe('known bits agree with every execution (exhaustive over i8 inputs)', () => {
  // 20 functions in the normal suite, 80 with SSAKIT_FUZZ=1
  const KB = process.env.SSAKIT_FUZZ ? 80 : 20;
  it(`the known zeros and ones of each value of ${KB} random functions hold for all 256 inputs`, async () => {
    for (let seed = 1; seed <= KB; seed++) {
      await yieldToEventLoop();
      // one i8 parameter, every other parameter derived from it: all inputs can be tried
      const f = parseModule(randomFunction(seed), 'kb.ll').getFunction('f')!;
      const lines = printFunction(f).split('\n');
      const checked = [...f].flatMap((bb) => [...bb]).filter((i) => i.type.kind === TypeKind.Int && i.type.bits > 1 && i.name !== '');
      const known = checked.map((i) => computeKnownBits(i));
      for (const k of known) expect(k.zero & k.one).toBe(0n);
      // @g prints every checked value (widened to i64) after the body
      const prints = checked.flatMap((i, k) => [
        i.type.bits < 64 ? `%w${k} = zext ${i.type.toString()} %${i.name} to i64` : `%w${k} = add i64 %${i.name}, 0`,
        `%q${k} = call i32 (ptr, ...) @printf(ptr @fmt, i64 %w${k})`,
      ]);
      const body = lines.slice(1, lines.findIndex((l) => l.trim().startsWith('ret '))).join('\n');
      const g = `define internal void @g(i8 %d) {\n  %a = sext i8 %d to i64\n  %b = zext i8 %d to i32\n  %c = sext i8 %d to i16\n${body}\n  ${prints.join('\n  ')}\n  ret void\n}\n`;
      const calls = Array.from({ length: 256 }, (_, x) => `call void @g(i8 ${x - 128})`).join('\n  ');
      const text = `@fmt = private constant [6 x i8] c"%llx\\0A\\00"\ndeclare i32 @printf(ptr, ...)\n${g}\ndefine i32 @main() {\n  ${calls}\n  ret i32 0\n}\n`;
      const values = interpret(text).trim().split('\n').map((x) => BigInt('0x' + x));
      expect(values.length).toBe(256 * checked.length);
      values.forEach((v, n) => {
        const k = known[n % checked.length];
        const what = `%${checked[n % checked.length].name}, input ${Math.floor(n / checked.length) - 128}, seed ${seed}`;
        expect(v & k.zero, `known zero of ${what}`).toBe(0n);
        expect(v & k.one, `known one of ${what}`).toBe(k.one);
      });
    }
  }, 600_000);
});

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())("Csmith's CRC update: our -O2 against opt-19 -O2", () => {
  it('executes no more instructions than opt-19 -O2 on the checksum of a table of values', () => {
    const src = `#include <stdint.h>
#include <stdio.h>
static uint32_t crc32_tab[256];
static uint32_t crc32_context = 0xFFFFFFFFUL;
static void crc32_gentab (void) {
  uint32_t crc; const uint32_t poly = 0xEDB88320UL; int i, j;
  for (i = 0; i < 256; i++) { crc = i; for (j = 8; j > 0; j--) { if (crc & 1) crc = (crc >> 1) ^ poly; else crc >>= 1; } crc32_tab[i] = crc; }
}
static void crc32_byte (uint8_t b) { crc32_context = ((crc32_context >> 8) & 0x00FFFFFF) ^ crc32_tab[(crc32_context ^ b) & 0xFF]; }
static void crc32_8bytes (uint64_t val) {
  crc32_byte((val>>0) & 0xff); crc32_byte((val>>8) & 0xff); crc32_byte((val>>16) & 0xff); crc32_byte((val>>24) & 0xff);
  crc32_byte((val>>32) & 0xff); crc32_byte((val>>40) & 0xff); crc32_byte((val>>48) & 0xff); crc32_byte((val>>56) & 0xff);
}
static void transparent_crc(uint64_t val, char* vname, int flag) { crc32_8bytes(val); if (flag) printf("...checksum after hashing %s : %lX\\n", vname, crc32_context ^ 0xFFFFFFFFUL); }
static int64_t g[37];
int main(int argc, char **argv) {
  int i; crc32_gentab();
  for (i = 0; i < 37; i++) g[i] = (int64_t)i * 0x9E3779B97F4A7C15LL;
  for (i = 0; i < 37; i++) transparent_crc(g[i], "g[i]", argc > 1);
  printf("checksum = %X\\n", crc32_context ^ 0xFFFFFFFFUL);
  return 0;
}
`;
    const ll = stripNoinline(readFileSync(clangToLL(src, 'O0', [], 'crc'), 'utf8'));
    const llPath = join(dir, 'crc.ll');
    writeFileSync(llPath, ll);
    const want = runLli(llPath).stdout.toString('latin1');
    const m = parseModule(ll, 'crc.ll');
    runPipeline(m, 'default<O2>');
    const ours = runModule(m, { stdout: 'collect', stats: true });
    expect(ours.stdoutBytes!.toString('latin1')).toBe(want);
    const r = runTool(OPT, ['-passes=default<O2>', '-vectorize-loops=false', '-vectorize-slp=false', '-S', llPath]);
    expect(r.status, r.stderr).toBe(0);
    const theirs = runModule(parseModule(r.stdout.toString('utf8'), 'crc-llvm.ll'), { stdout: 'collect', stats: true });
    expect(theirs.stdoutBytes!.toString('latin1')).toBe(want);
    expect(ours.stats!.total).toBeLessThanOrEqual(theirs.stats!.total);
  }, 120_000);
});

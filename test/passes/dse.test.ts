import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateCProgram } from '../../src/fuzz/c-gen.js';
import { inputIR } from '../helpers/differential.js';
import { hasLlvm, listPrograms, llvmAsError } from '../helpers/llvm.js';
import { stripNoinline } from '../helpers/noinline.js';
import { checkPipelines } from './cfg-loop-check.js';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

const HEAD = `
@g = global i32 0
@h = global [4 x i32] zeroinitializer
define void @reads() {
  %v = load i32, ptr @g
  store i32 %v, ptr getelementptr inbounds ([4 x i32], ptr @h, i64 0, i64 3)
  ret void
}
define void @exit_like() {
  ret void
}
`;

/** Runs dse; the function must behave the same (its result, and @g and @h read back by @probe). */
function dse(body: string, fn = 'f', args: unknown[][] = [[1], [0]]): ReturnType<typeof opt> {
  const ir = `${HEAD}\n${body}\ndefine i32 @probe(i32 %a) {\n  call void @${fn}(i32 %a)\n  %g = load i32, ptr @g\n  %p = getelementptr inbounds [4 x i32], ptr @h, i64 0, i64 1\n  %h = load i32, ptr %p\n  %r = add i32 %g, %h\n  ret i32 %r\n}`;
  const r = opt(ir, 'dse');
  sameResults(ir, 'dse', 'probe', args);
  if (hasLlvm()) expect(llvmAsError(r.text)).toBeNull();
  return r;
}

describe('dse', () => {
  it('deletes a store overwritten before any read, in the block and on every path after it', () => {
    const r = dse(`
define void @f(i32 %a) {
  store i32 1, ptr @g
  store i32 2, ptr @g
  store i32 5, ptr @g
  %c = icmp eq i32 %a, 0
  br i1 %c, label %l, label %r
l:
  store i32 3, ptr @g
  ret void
r:
  store i32 4, ptr @g
  ret void
}`);
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(3);
    expect(countOps(r.fnText('f'), 'store')).toBe(2);
  });

  it('keeps a store that some path reads, or that a path leaves the function with', () => {
    const r = dse(`
define void @f(i32 %a) {
  store i32 1, ptr @g
  %c = icmp eq i32 %a, 0
  br i1 %c, label %l, label %r
l:
  call void @reads()
  store i32 3, ptr @g
  ret void
r:
  ret void
}`);
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(0);
  });

  it('sees a wider store overwrite a narrower one, not the other way round', () => {
    const r = dse(`
define void @f(i32 %a) {
  %p = getelementptr inbounds [4 x i32], ptr @h, i64 0, i64 1
  store i32 %a, ptr %p
  store i64 0, ptr @h
  store i64 7, ptr %p
  store i32 9, ptr %p
  ret void
}`);
    // the i32 at offset 4 dies under the i64 at offset 0; the i64 at 4 is only half overwritten
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(1);
  });

  it('deletes a store to a local that dies at ret without being read, even after calls', () => {
    const r = dse(`
declare void @ext()
define void @f(i32 %a) {
  %x = alloca i32
  store i32 %a, ptr %x
  %v = load i32, ptr %x
  store i32 %v, ptr @g
  store i32 7, ptr %x
  call void @reads()
  ret void
}`);
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(1);
    expect(countOps(r.fnText('f'), 'store')).toBe(2);
  });

  it('deletes the store a loop makes each iteration when every way out overwrites it, not when the loop reads it', () => {
    const loop = (extra: string): string => `
define void @f(i32 %n) {
entry:
  br label %h
h:
  %i = phi i32 [ 0, %entry ], [ %i1, %h ]
  store i32 %i, ptr @g
${extra}
  %i1 = add i32 %i, 1
  %t = icmp slt i32 %i1, %n
  br i1 %t, label %h, label %x
x:
  store i32 0, ptr @g
  ret void
}`;
    const r = dse(loop(''), 'f', [[1], [5]]);
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(1);
    expect(countOps(r.fnText('f'), 'store')).toBe(1);
    const r2 = dse(loop('  call void @reads()'), 'f', [[1], [5]]);
    expect(stat(r2, 'dse', 'dead stores deleted')).toBe(0);
  });

  it('deletes a store of the value just loaded from the same place', () => {
    const r = dse(`
define void @f(i32 %a) {
  %v = load i32, ptr @g
  %w = add i32 %v, %a
  store i32 %v, ptr @g
  ret void
}`);
    expect(stat(r, 'dse', 'stores of the loaded value deleted')).toBe(1);
  });

  it('deletes an alloca that is only written (stores, memset), with all its writes, however far apart', () => {
    const r = dse(`
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @f(i32 %a) {
  %arr = alloca [8 x ptr]
  %kept = alloca [2 x i32]
  call void @llvm.memset.p0.i64(ptr %arr, i8 0, i64 64, i1 false)
  %e = getelementptr inbounds [8 x ptr], ptr %arr, i64 0, i64 3
  store ptr @g, ptr %e
  %i = sext i32 %a to i64
  %v = getelementptr inbounds [8 x ptr], ptr %arr, i64 0, i64 %i
  store ptr null, ptr %v
  store i32 %a, ptr %kept
  %k1 = getelementptr inbounds [2 x i32], ptr %kept, i64 0, i64 %i
  %x = load i32, ptr %k1
  store i32 %x, ptr @g
  ret void
}`);
    expect(stat(r, 'dse', 'writes to never-read allocas deleted')).toBe(3);
    expect(countOps(r.fnText('f'), 'alloca')).toBe(1);
  });

  it('keeps volatile stores, and stores read by a memcpy', () => {
    const r = dse(`
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(i32 %a) {
  store volatile i32 1, ptr @g
  store volatile i32 2, ptr @g
  store i32 %a, ptr @h
  call void @llvm.memcpy.p0.p0.i64(ptr @g, ptr @h, i64 4, i1 false)
  store i32 0, ptr @h
  ret void
}`);
    expect(stat(r, 'dse', 'dead stores deleted')).toBe(0);
  });
});

const PIPELINES = ['dse', 'mem2reg,gvn,dse', 'inline,sroa,gvn,dse,instcombine'];
const PROGRAMS = new Set(['structs_byval', 'dp_algos', 'bst', 'arrays_basic', 'dynarray', 'bigint']);

// Reason for runIf: needs clang-19/lli-19/llvm-as-19 (the independent oracles); without them these skip and the report says so.
describe.runIf(hasLlvm())('dse keeps behaviour (lli-19 before and after, llvm-as-19 accepts)', () => {
  for (const p of listPrograms('test/programs').filter((x) => PROGRAMS.has(x.name))) {
    it(p.name, async () => {
      const input = stripNoinline(inputIR(readFileSync(p.path, 'utf8'), p.name, { stdin: p.stdin }));
      await checkPipelines(input, p.name, PIPELINES, p.stdin);
    }, 60_000);
  }
  for (let seed = 11; seed <= 16; seed++) {
    it(`c-gen seed ${seed}`, async () => {
      const src = generateCProgram(seed, { size: 'small' });
      const input = stripNoinline(inputIR(src, `cgen-${seed}`));
      await checkPipelines(input, `cgen-${seed}`, PIPELINES);
    }, 60_000);
  }
});

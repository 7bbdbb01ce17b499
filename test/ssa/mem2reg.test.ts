import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeDominators } from '../../src/analysis/dominators.js';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Function } from '../../src/ir/function.js';
import type { Module } from '../../src/ir/module.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { runPipeline } from '../../src/passes/index.js';
import { promoteMemoryToRegister, traceMem2Reg } from '../../src/transforms/ssa/mem2reg.js';
import { isAllocaPromotable, promotableAllocas } from '../../src/transforms/utils/promote-memory.js';
import { parseModule } from '../../src/text/parser.js';
import { printFunction } from '../../src/text/printer.js';

function run(src: string, pipeline = 'mem2reg'): { m: Module; text: string; stats: Map<string, number> } {
  const m = parseModule(src, 'test.ll');
  expect(verifyModule(m).map((e) => e.message)).toEqual([]);
  const pm = runPipeline(m, pipeline, { verifyEach: true, log: () => {} });
  const stats = new Map<string, number>();
  for (const [, c] of pm.stats) for (const [k, n] of c) stats.set(k, (stats.get(k) ?? 0) + n);
  return { m, text: m.functions.filter((f) => !f.isDeclaration()).map((f) => printFunction(f)).join('\n'), stats };
}

function phis(f: Function): string[] {
  const out: string[] = [];
  for (const b of f) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) out.push(`${b.name}:${i.name}`);
  return out;
}

const fn = (m: Module, name = 'f'): Function => m.functions.find((f) => f.name === name)!;

describe('mem2reg: phi placement', () => {
  const diamond = `
define i32 @f(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %then, label %else
then:
  store i32 1, ptr %x
  br label %join
else:
  store i32 2, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  ret i32 %v
}`;
  for (const pipeline of ['mem2reg', 'mem2reg-braun']) {
    it(`${pipeline}: a diamond gets one phi at the join`, () => {
      const { m, text } = run(diamond, pipeline);
      expect(phis(fn(m))).toHaveLength(1);
      expect(text).toMatch(/join:[^\n]*\n {2}%x\.\d* = phi i32 \[ (1, %then|2, %else) \], \[ (2, %else|1, %then) \]\n {2}ret i32 %x\.\d*/);
      expect(text).not.toMatch(/alloca|load|store/);
    });
  }

  it('a loop counter gets a phi in the header only', () => {
    const { m, text } = run(`
define i32 @f(i32 %n) {
entry:
  %i = alloca i32
  store i32 0, ptr %i
  br label %head
head:
  %iv = load i32, ptr %i
  %c = icmp slt i32 %iv, %n
  br i1 %c, label %body, label %exit
body:
  %iv2 = load i32, ptr %i
  %next = add i32 %iv2, 1
  store i32 %next, ptr %i
  br label %head
exit:
  %r = load i32, ptr %i
  ret i32 %r
}`);
    expect(phis(fn(m))).toEqual(['head:i.0']);
    expect(text).toMatch(/%i\.0 = phi i32 \[ 0, %entry \], \[ %next, %body \]/);
    expect(text).toMatch(/%next = add i32 %i\.0, 1/);
    expect(text).toMatch(/ret i32 %i\.0/);
  });

  it('liveness pruning: a variable dead after the join gets no phi there', () => {
    const src = `
declare void @use(i32)
define void @f(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr %x
  %va = load i32, ptr %x
  call void @use(i32 %va)
  br label %join
b:
  store i32 2, ptr %x
  %vb = load i32, ptr %x
  call void @use(i32 %vb)
  br label %join
join:
  store i32 3, ptr %x
  %vj = load i32, ptr %x
  call void @use(i32 %vj)
  ret void
}`;
    const { m, text } = run(src);
    expect(phis(fn(m))).toEqual([]);
    expect(text).toMatch(/call void @use\(i32 1\)[\s\S]*call void @use\(i32 2\)[\s\S]*call void @use\(i32 3\)/);
    const trace = traceMem2Reg(fn(parseModule(src, 't')));
    expect(trace).toMatch(/IDF of the defining blocks: \{%join\}/);
    expect(trace).toMatch(/pruned \(variable not live-in, the phi would be dead\): \{%join\}/);
    expect(trace).toMatch(/phis placed in: \{\}/);
  });

  it('a read before any store is undef; a never-stored variable reads undef everywhere', () => {
    const { text } = run(`
define i32 @f(i1 %c) {
entry:
  %x = alloca i32
  %y = alloca i32
  br i1 %c, label %a, label %b
a:
  %u = load i32, ptr %y
  br label %b
b:
  %v = load i32, ptr %x
  %w = load i32, ptr %y
  %s = add i32 %v, %w
  ret i32 %s
}`);
    expect(text).toMatch(/%s = add i32 undef, undef/);
  });

  it('a loop whose body reads before it writes: the single-block sweep bails, the header gets a phi', () => {
    const { m, text } = run(`
declare void @use(i32)
define void @f(i32 %n) {
entry:
  %t = alloca i32
  br label %loop
loop:
  %old = load i32, ptr %t
  call void @use(i32 %old)
  %m = add i32 %n, 1
  store i32 %m, ptr %t
  %c = icmp eq i32 %m, 0
  br i1 %c, label %loop, label %exit
exit:
  ret void
}`);
    expect(phis(fn(m))).toEqual(['loop:t.0']);
    expect(text).toMatch(/%t\.0 = phi i32 \[ undef, %entry \], \[ %m, %loop \]/);
  });

  it("LLVM's clean-up: phi(v, undef) becomes v when v's block strictly dominates the phi, not otherwise", () => {
    const src = `
declare void @use(i32)
define void @f(i1 %c, i32 %a) {
entry:
  %x = alloca i32
  %last = alloca i32
  %t = add i32 %a, 7
  br i1 %c, label %then, label %join
then:
  store i32 %t, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  call void @use(i32 %v)
  br label %loop
loop:
  %i = phi i32 [ 0, %join ], [ %i1, %loop ]
  store i32 %i, ptr %last
  %i1 = add i32 %i, 1
  %d = icmp slt i32 %i1, 10
  br i1 %d, label %loop, label %exit
exit:
  %l = load i32, ptr %last
  call void @use(i32 %l)
  ret void
}`;
    const { m, text, stats } = run(src);
    // x: phi [%t, then], [undef, entry] -> %t (entry dominates join)
    expect(text).toMatch(/call void @use\(i32 %t\)/);
    // last: single store of %i (a phi of %loop) does not dominate... it does: single-store path
    expect(text).toMatch(/call void @use\(i32 %i\)/);
    expect(phis(fn(m))).toEqual(['loop:i']);
    expect(stats.get('phis removed as trivial')).toBe(1);
  });

  it('keeps phi(v, undef) when v is another phi of the same block (as LLVM: a phi is not dominated by its block)', () => {
    const { m, text } = run(`
declare void @use(i32)
define void @f() {
entry:
  %i = alloca i32
  %last = alloca i32
  store i32 0, ptr %i
  br label %head
head:
  %iv = load i32, ptr %i
  %c = icmp slt i32 %iv, 10
  br i1 %c, label %body, label %exit
body:
  %iv2 = load i32, ptr %i
  store i32 %iv2, ptr %last
  %n = add i32 %iv2, 1
  store i32 %n, ptr %i
  br label %head
exit:
  %l = load i32, ptr %last
  call void @use(i32 %l)
  ret void
}`);
    expect(phis(fn(m)).sort()).toEqual(['head:i.0', 'head:last.0']);
    expect(text).toMatch(/%last\.0 = phi i32 \[ undef, %entry \], \[ %i\.0, %body \]/);
  });
});

describe('mem2reg: fast paths', () => {
  it('a single store of a constant serves every load, even those it does not dominate', () => {
    const { m, stats } = run(`
define i32 @f(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %then, label %join
then:
  store i32 7, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  ret i32 %v
}`);
    expect(printFunction(fn(m))).toMatch(/ret i32 7/);
    expect(stats.get('allocas promoted with a single store')).toBe(1);
    expect(stats.get('phis inserted') ?? 0).toBe(0);
  });

  it('a single store of an instruction serves only the loads it dominates (others go through phis)', () => {
    const { m, stats } = run(`
declare void @use(i32)
define void @f(i1 %c, i32 %a) {
entry:
  %x = alloca i32
  br i1 %c, label %then, label %join
then:
  %t = mul i32 %a, 3
  store i32 %t, ptr %x
  %in = load i32, ptr %x
  call void @use(i32 %in)
  br label %join
join:
  %v = load i32, ptr %x
  call void @use(i32 %v)
  ret void
}`);
    const text = printFunction(fn(m));
    expect(text).toMatch(/call void @use\(i32 %t\)\n/);
    expect(text).toMatch(/%x\.0 = phi i32 \[ (%t, %then|undef, %entry) \], \[ (undef, %entry|%t, %then) \]/);
    expect(stats.get('phis inserted')).toBe(1);
  });

  it('a poison value stored once does not serve loads it does not dominate (LLVM 19)', () => {
    const { m } = run(`
define i32 @f(i1 %c) {
entry:
  %x = alloca i32
  br i1 %c, label %then, label %join
then:
  store i32 poison, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  ret i32 %v
}`);
    expect(printFunction(fn(m))).toMatch(/ret i32 undef/);
  });

  it('a variable used in one block: each load takes the nearest store above', () => {
    const { m, stats } = run(`
declare void @use(i32)
define void @f(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  store i32 1, ptr %x
  %v1 = load i32, ptr %x
  call void @use(i32 %v1)
  store i32 2, ptr %x
  %v2 = load i32, ptr %x
  call void @use(i32 %v2)
  ret void
}`);
    expect(printFunction(fn(m))).toMatch(/call void @use\(i32 1\)\n {2}call void @use\(i32 2\)/);
    expect(stats.get('allocas promoted within one block')).toBe(1);
  });
});

describe('mem2reg: what is promotable (LLVM isAllocaPromotable)', () => {
  const m = parseModule(`
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
declare void @g(ptr)
define i32 @f(i32 %a) {
entry:
  %ok = alloca i32
  %life = alloca i32
  %vol = alloca i32
  %wide = alloca i64
  %esc = alloca i32
  %esc2 = alloca ptr
  %arg = alloca i32
  %gep = alloca [2 x i32]
  %gep0 = alloca i32
  call void @llvm.lifetime.start.p0(i64 4, ptr %life)
  store i32 %a, ptr %life
  %z = getelementptr i32, ptr %gep0, i64 0
  call void @llvm.lifetime.start.p0(i64 4, ptr %z)
  store i32 1, ptr %gep0
  store i32 %a, ptr %ok
  store volatile i32 %a, ptr %vol
  store i32 %a, ptr %wide
  store ptr %esc, ptr %esc2
  call void @g(ptr %arg)
  %p = getelementptr [2 x i32], ptr %gep, i64 0, i64 1
  store i32 %a, ptr %p
  %r1 = load i32, ptr %ok
  %r2 = load i32, ptr %life
  call void @llvm.lifetime.end.p0(i64 4, ptr %life)
  %r3 = load i32, ptr %gep0
  %s = add i32 %r1, %r2
  %s2 = add i32 %s, %r3
  ret i32 %s2
}`);
  const f = fn(m);
  const byName = (n: string) => f.entry.instructions().find((i) => i.name === n)!;
  it.each([
    ['ok', true],
    ['life', true],
    ['gep0', true],
    ['vol', false],
    ['wide', false],
    ['esc', false],
    ['esc2', true],
    ['arg', false],
    ['gep', false],
  ])('%s: %s', (name, expected) => {
    expect(isAllocaPromotable(byName(name as string))).toBe(expected);
  });

  it('promotes them, removing lifetime markers (and the GEP that feeds one)', () => {
    const stats = promoteMemoryToRegister(f, computeDominators(f));
    expect(verifyModule(m).map((e) => e.message)).toEqual([]);
    const text = printFunction(f);
    expect(text).not.toMatch(/llvm\.lifetime/);
    expect(text).not.toMatch(/%ok|%life|%gep0|%z /);
    expect(text).toMatch(/%vol = alloca/);
    expect(text).toMatch(/%s = add i32 %a, %a/);
    // ok, life, gep0, esc2 (stored, never loaded); then, in the second round, esc (its address
    // was only stored into esc2)
    expect(stats.allocasPromoted).toBe(5);
    expect(text).not.toMatch(/%esc/);
  });

  it('promotes again until none is left: a pointer kept in a promoted slot frees its target', () => {
    const m2 = parseModule(`
define i32 @f(i32 %a) {
entry:
  %x = alloca i32
  %px = alloca ptr
  store ptr %x, ptr %px
  %p = load ptr, ptr %px
  store i32 %a, ptr %p
  %v = load i32, ptr %x
  ret i32 %v
}`);
    const f2 = fn(m2);
    expect(promotableAllocas(f2).map((i) => i.name)).toEqual(['px']);
    promoteMemoryToRegister(f2, computeDominators(f2));
    expect(printFunction(f2)).toMatch(/entry:\n {2}ret i32 %a\n/);
  });

  it('only entry-block allocas are promoted', () => {
    const { text } = run(`
define i32 @f() {
entry:
  br label %b
b:
  %x = alloca i32
  store i32 1, ptr %x
  %v = load i32, ptr %x
  ret i32 %v
}`);
    expect(text).toMatch(/alloca/);
  });
});

describe('mem2reg: unreachable code', () => {
  it('drops accesses in unreachable blocks; reachable phis get poison from unreachable predecessors', () => {
    const { m } = run(`
declare void @use(i32)
define void @f(i1 %c) {
entry:
  %x = alloca i32
  store i32 0, ptr %x
  br i1 %c, label %a, label %join
a:
  store i32 1, ptr %x
  br label %join
dead:
  %d = load i32, ptr %x
  store i32 %d, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  call void @use(i32 %v)
  ret void
}`);
    const text = printFunction(fn(m));
    expect(text).toMatch(/%x\.0 = phi i32 .*\[ poison, %dead \]/);
    expect(text).not.toMatch(/load|store/);
  });
});

describe('ssakit CLI', () => {
  const cli = 'dist/ssakit.js';
  // Reason for runIf: needs the built CLI (dist/ssakit.js, made by `npm test`'s pretest).
  it.runIf(existsSync(cli))('opt -passes=mem2reg --stats and analyze --trace=mem2reg', () => {
    const ll = `define i32 @f(i1 %c) {
entry:
  %x = alloca i32
  store i32 0, ptr %x
  br i1 %c, label %then, label %join
then:
  store i32 1, ptr %x
  br label %join
join:
  %v = load i32, ptr %x
  ret i32 %v
}
`;
    const r = execFileSync('node', [cli, 'opt', '-', '-passes=mem2reg', '-S', '--stats'], { input: ll, stdio: ['pipe', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(r).toMatch(/%x\.0 = phi i32/);
    const err = execFileSync('sh', ['-c', `node ${cli} opt - -passes=mem2reg-braun,redundant-phis -S --stats 2>&1 >/dev/null`], { input: ll, encoding: 'utf8' });
    expect(err).toMatch(/1 mem2reg-braun +- allocas promoted/);
    expect(err).toMatch(/phis inserted/);
    const t = execFileSync('node', [cli, 'analyze', '-', '--trace=mem2reg', '--function', 'f'], { input: ll, encoding: 'utf8' });
    expect(t).toMatch(/defining blocks: \{%entry, %then\}/);
    expect(t).toMatch(/phis placed in: \{%join\}/);

    // -o: the same text in a file; an unwritable path is a clear error with exit code 1
    const dir = mkdtempSync(join(tmpdir(), 'ssakit-opt-'));
    execFileSync('node', [cli, 'opt', '-', '-passes=mem2reg', '-S', '-o', join(dir, 'out.ll')], { input: ll });
    expect(readFileSync(join(dir, 'out.ll'), 'utf8')).toBe(r);
    const bad = spawnSync('node', [cli, 'opt', '-', '-S', '-o', join(dir, 'no', 'such', 'dir.ll')], { input: ll, encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^ssakit: error: cannot write '.*dir\.ll': ENOENT/);
    rmSync(dir, { recursive: true });
  });
});

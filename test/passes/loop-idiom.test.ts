import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evalICmp } from '../../src/analysis/constant-folding.js';
import { inversePred, Pred } from '../../src/ir/opcodes.js';
import { tripCount } from '../../src/analysis/trip-count.js';
import { countOps, opt, sameResults, stat } from './cfg-helpers.js';

/**
 * @f(%k): a one-block loop over %i from START storing STORE (which may read %src) at
 * %dst[i], exit test TEST; then @f returns dst[%k] + 1000 * (the IV's value after the loop).
 */
function fill(opts: { ty?: string; start?: number; test?: string; store?: string; extra?: string; n?: number; branch?: string } = {}): string {
  const ty = opts.ty ?? 'i32';
  const n = opts.n ?? 64;
  const store = opts.store ?? `store ${ty} 0, ptr %d`;
  return `
@dst = global [${n} x ${ty}] zeroinitializer
@src = global [${n} x ${ty}] zeroinitializer
declare void @ext()
define i32 @f(i64 %k) {
entry:
  br label %init
init:
  %j = phi i64 [ 0, %entry ], [ %j1, %init ]
  %jt = trunc i64 %j to ${ty === 'float' ? 'i32' : ty}
  %jv = ${ty === 'float' ? `sitofp i32 %jt to float` : `add ${ty} %jt, 3`}
  %dj = getelementptr [${n} x ${ty}], ptr @dst, i64 0, i64 %j
  store ${ty} %jv, ptr %dj
  %sj = getelementptr [${n} x ${ty}], ptr @src, i64 0, i64 %j
  %jw = ${ty === 'float' ? `fadd float %jv, 1.0` : `mul ${ty} %jv, 7`}
  store ${ty} %jw, ptr %sj
  %j1 = add i64 %j, 1
  %jc = icmp slt i64 %j1, ${n}
  br i1 %jc, label %init, label %pre
pre:
  br label %h
h:
  %i = phi i64 [ ${opts.start ?? 0}, %pre ], [ %i1, %h ]
  %d = getelementptr inbounds [${n} x ${ty}], ptr @dst, i64 0, i64 %i
  ${store.includes('%s') ? `%s = getelementptr inbounds [${n} x ${ty}], ptr @src, i64 0, i64 %i\n  ` : ''}${store}${opts.extra ? '\n  ' + opts.extra : ''}
  %i1 = add nsw i64 %i, 1
  %c = ${opts.test ?? 'icmp slt i64 %i1, 40'}
  ${opts.branch ?? 'br i1 %c, label %h, label %x'}
x:
  %after = phi i64 [ %i1, %h ]
  %rk = getelementptr [${n} x ${ty}], ptr @dst, i64 0, i64 %k
  %r = load ${ty}, ptr %rk
  %ri = ${ty === 'float' ? 'fptosi float %r to i32' : ty === 'i32' ? 'add i32 %r, 0' : `sext ${ty} %r to i32`}
  %a32 = trunc i64 %after to i32
  %am = mul i32 %a32, 1000
  %res = add i32 %ri, %am
  ret i32 %res
}`;
}

const KS = [[0n], [5n], [39n], [40n], [63n]];

describe('loop-idiom', () => {
  it('turns a zero-fill loop into memset, deletes the loop, and gives the IV its last value', () => {
    const ir = fill();
    const r = opt(ir, 'loop-idiom');
    expect(stat(r, 'loop-idiom', 'loops turned into memset')).toBe(1);
    const t = r.fnText('f');
    expect(t).toContain('call void @llvm.memset.p0.i64(ptr %');
    expect(t).toContain('i8 0, i64 160, i1 false)');
    expect(t).not.toMatch(/^h:/m);
    expect(t).toContain('%after = phi i64 [ 40, %pre ]');
    expect(r.text).toContain('declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)');
    expect(sameResults(ir, 'loop-idiom', 'f', KS)).toEqual([40000, 40000, 40000, 40043, 40066]);
  });

  it('turns a copy loop between two globals into memcpy, from the IV start', () => {
    const ir = fill({ start: 3, store: `%v = load i32, ptr %s\n  store i32 %v, ptr %d` });
    const r = opt(ir, 'loop-idiom');
    expect(stat(r, 'loop-idiom', 'loops turned into memcpy')).toBe(1);
    // elements 3 … 39: 37 × 4 bytes
    expect(r.fnText('f')).toMatch(/call void @llvm\.memcpy\.p0\.p0\.i64\(ptr %\S+, ptr %\S+, i64 148, i1 false\)/);
    expect(sameResults(ir, 'loop-idiom', 'f', KS)).toEqual([40003, 40056, 40294, 40043, 40066]);
  });

  it('splat constants of other types: i8, i16 -1, float +0.0', () => {
    for (const [ty, v, byte] of [['i8', '7', 7], ['i16', '-1', 255], ['float', '0.0', 0]] as const) {
      const ir = fill({ ty, store: `store ${ty} ${v}, ptr %d` });
      const r = opt(ir, 'loop-idiom');
      expect(stat(r, 'loop-idiom', 'loops turned into memset'), ty).toBe(1);
      expect(r.fnText('f')).toContain(`i8 ${byte === 255 ? -1 : byte}, i64 ${40 * (ty === 'i8' ? 1 : ty === 'i16' ? 2 : 4)}, i1 false)`);
      sameResults(ir, 'loop-idiom', 'f', KS);
    }
  });

  it('exit tests: ne, sle, ult, eq-exit, on the IV or its increment; and a test that exits at once', () => {
    const tests: [string, string?][] = [
      ['icmp ne i64 %i1, 40'],
      ['icmp sle i64 %i, 38'],
      ['icmp ult i64 %i, 39'],
      ['icmp sgt i64 40, %i1'],
      ['icmp eq i64 %i1, 40', 'br i1 %c, label %x, label %h'],
      // runs once: 0 is not < 0
      ['icmp slt i64 %i1, 0'],
    ];
    for (const [test, branch] of tests) {
      const ir = fill({ test, branch });
      const r = opt(ir, 'loop-idiom');
      expect(stat(r, 'loop-idiom', 'loops turned into memset'), test).toBe(1);
      sameResults(ir, 'loop-idiom', 'f', KS);
    }
  });

  it('leaves loops it cannot prove to be a plain fill or copy', () => {
    const cases: [string, string][] = [
      [fill({ store: 'store i32 5, ptr %d' }), 'not a byte splat'],
      [fill({ store: 'store volatile i32 0, ptr %d' }), 'volatile'],
      [fill({ store: 'store i32 0, ptr %d', extra: 'call void @ext()' }), 'a call in the loop'],
      [fill({ store: 'store i32 0, ptr %d\n  store i32 1, ptr %s' }), 'two stores'],
      [fill({ store: `%i2 = add i64 %i, 1\n  %d2 = getelementptr [64 x i32], ptr @dst, i64 0, i64 %i2\n  %v = load i32, ptr %d2\n  store i32 %v, ptr %d` }), 'copy within one array'],
      [fill({ store: `%q = getelementptr inbounds i32, ptr getelementptr (i8, ptr @dst, i64 4), i64 %i\n  %v = load i32, ptr %q\n  store i32 %v, ptr %d` }), 'overlapping runs of one array'],
      [fill({ store: `%s2 = getelementptr [64 x i32], ptr @src, i64 0, i64 %k\n  %v = load i32, ptr %s2\n  store i32 %v, ptr %d` }), 'a load not of base[i]'],
      [fill({ store: `%v = load i32, ptr %s\n  store i32 %v, ptr %d\n  %w = add i32 %v, 1` }), 'loaded value used elsewhere'],
      [fill({ test: 'icmp slt i64 %i1, %k' }), 'symbolic bound'],
      [fill({ test: 'icmp sgt i64 %i1, 0' }), 'runs until the IV wraps'],
      [fill({ ty: 'i8', store: 'store i8 0, ptr %d', test: 'icmp ne i64 %i1, 40', start: 41 }), 'index wraps'],
    ];
    for (const [ir, why] of cases) {
      const r = opt(ir, 'loop-idiom');
      expect(stat(r, 'loop-idiom', 'loops turned into memset') + stat(r, 'loop-idiom', 'loops turned into memcpy'), why).toBe(0);
      expect(countOps(r.fnText('f'), 'call'), why).toBe(why === 'a call in the loop' ? 1 : 0);
    }
  });

  it('a copy from a pointer argument is left (the distinct objects are not proven)', () => {
    const ir = `
define i32 @g(ptr %p) {
entry:
  %a = alloca [16 x i32]
  br label %h
h:
  %i = phi i64 [ 0, %entry ], [ %i1, %h ]
  %s = getelementptr inbounds i32, ptr %p, i64 %i
  %d = getelementptr inbounds [16 x i32], ptr %a, i64 0, i64 %i
  %v = load i32, ptr %s
  store i32 %v, ptr %d
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, 16
  br i1 %c, label %h, label %x
x:
  %r = getelementptr [16 x i32], ptr %a, i64 0, i64 7
  %l = load i32, ptr %r
  ret i32 %l
}`;
    expect(stat(opt(ir, 'loop-idiom'), 'loop-idiom', 'loops turned into memcpy')).toBe(0);
  });

  it('tripCount agrees with a simulation of the bottom-tested loop (i8)', () => {
    const preds = [Pred.EQ, Pred.NE, Pred.ULT, Pred.ULE, Pred.UGT, Pred.UGE, Pred.SLT, Pred.SLE, Pred.SGT, Pred.SGE];
    fc.assert(
      fc.property(fc.constantFrom(...preds), fc.integer({ min: -128, max: 127 }), fc.integer({ min: -128, max: 127 }), fc.boolean(), (pred, first, k, stay) => {
        let runs: bigint | null = null;
        let v = BigInt(first);
        for (let n = 1n; n <= 300n; n++) {
          if (evalICmp(pred, 8, v, BigInt(k)) !== stay) {
            runs = n;
            break;
          }
          v = BigInt.asIntN(8, v + 1n);
        }
        const t = tripCount(pred, 8, BigInt(first), BigInt(k), stay);
        // a closed form may decline (null), never differ
        if (t !== null) expect(t).toBe(runs);
        // and it declines only tests that never fail, or that fail only after the IV wraps
        // around (the tests that go on while the IV is above k, or at most the largest value)
        const p = stay ? pred : inversePred(pred);
        if (t === null && runs !== null) {
          const atMost = (p === Pred.ULE && k === -1) || (p === Pred.SLE && k === 127);
          expect([Pred.UGT, Pred.UGE, Pred.SGT, Pred.SGE].includes(p) || atMost, `${Pred[p]} ${first} ${k}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { countOps, opt, stat } from './cfg-helpers.js';
import { PRINTF, sameBehaviour } from './ipo-helpers.js';

describe('globalopt', () => {
  it('deletes a global nothing uses', () => {
    const ir = `@dead = internal global i32 3
@kept = global i32 4
define i32 @main() {
  ret i32 0
}`;
    const r = opt(ir, 'globalopt');
    expect(stat(r, 'globalopt', 'globals deleted')).toBe(1);
    expect(r.text).not.toMatch(/@dead/);
    // external linkage: someone else may use it
    expect(r.text).toMatch(/@kept = global i32 4/);
  });

  it('a global that is never read loses its stores (through GEPs and in loops) and goes', () => {
    const ir = `${PRINTF}
@tab = internal global [16 x i32] zeroinitializer
define i32 @main() {
entry:
  br label %l
l:
  %i = phi i64 [ 0, %entry ], [ %j, %l ]
  %p = getelementptr inbounds [16 x i32], ptr @tab, i64 0, i64 %i
  %v = trunc i64 %i to i32
  store i32 %v, ptr %p
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, 16
  br i1 %c, label %l, label %out
out:
  store i32 7, ptr getelementptr inbounds ([16 x i32], ptr @tab, i64 0, i64 3)
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 1)
  ret i32 0
}`;
    const r = opt(ir, 'globalopt');
    expect(stat(r, 'globalopt', 'stores to never-read globals removed')).toBe(2);
    expect(r.text).not.toMatch(/@tab/);
    expect(countOps(r.fnText('main'), 'getelementptr')).toBe(0);
    sameBehaviour(ir, 'globalopt');
  });

  it('a global never written becomes constant, and its loads then fold', () => {
    const ir = `${PRINTF}
@k = internal global [3 x i32] [i32 5, i32 6, i32 7]
define i32 @main() {
  %p = getelementptr inbounds [3 x i32], ptr @k, i64 0, i64 2
  %v = load i32, ptr %p
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}`;
    const r = opt(ir, 'globalopt,instcombine');
    expect(stat(r, 'globalopt', 'globals marked constant')).toBe(1);
    expect(r.text).toMatch(/@k = internal constant/);
    expect(r.fnText('main')).toMatch(/@printf\(ptr @\.fmt, i32 7\)/);
    sameBehaviour(ir, 'globalopt,instcombine');
  });

  it('a scalar global used only by main becomes a local that mem2reg promotes', () => {
    const ir = `${PRINTF}
@n = internal global i32 10
define i32 @main() {
  %c = call i32 @getchar()
  %a = load i32, ptr @n
  %b = add i32 %a, %c
  store i32 %b, ptr @n
  %d = load i32, ptr @n
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %d)
  ret i32 0
}`;
    const r = opt(ir, 'globalopt,mem2reg');
    expect(stat(r, 'globalopt', 'globals made local')).toBe(1);
    expect(r.text).not.toMatch(/@n\b/);
    expect(r.fnText('main')).toMatch(/add i32 10, %c/);
    sameBehaviour(ir, 'globalopt,mem2reg', 'Z');
  });

  it('a global used by a function that may run twice is not made local (it must remember its value)', () => {
    const ir = `${PRINTF}
@count = internal global i32 0
define internal void @tick() norecurse {
  %a = load i32, ptr @count
  %b = add i32 %a, 1
  store i32 %b, ptr @count
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %b)
  ret void
}
define i32 @main() {
  call void @tick()
  call void @tick()
  ret i32 0
}`;
    const r = opt(ir, 'globalopt');
    expect(stat(r, 'globalopt', 'globals made local')).toBe(0);
    sameBehaviour(ir, 'globalopt');
  });

  it('a norecurse function that stores the global before reading it gets a local', () => {
    const ir = `${PRINTF}
@tmp = internal global i32 0
define internal void @show(i32 %x) norecurse {
  store i32 %x, ptr @tmp
  %a = load i32, ptr @tmp
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a)
  ret void
}
define i32 @main() {
  call void @show(i32 1)
  call void @show(i32 2)
  ret i32 0
}`;
    const r = opt(ir, 'globalopt');
    expect(stat(r, 'globalopt', 'globals made local')).toBe(1);
    sameBehaviour(ir, 'globalopt');
  });

  it('leaves globals whose address escapes, external ones and volatile ones', () => {
    const ir = `${PRINTF}
@esc = internal global i32 1
@ext = global i32 2
@vol = internal global i32 3
declare void @use(ptr)
define i32 @main() {
  call void @use(ptr @esc)
  %a = load i32, ptr @ext
  %b = load volatile i32, ptr @vol
  store volatile i32 4, ptr @vol
  %s = add i32 %a, %b
  ret i32 %s
}`;
    const r = opt(ir, 'globalopt');
    expect(r.text).toMatch(/@esc = internal global i32 1/);
    expect(r.text).toMatch(/@ext = global i32 2/);
    expect(r.text).toMatch(/@vol = internal global i32 3/);
  });
});

describe('whole-program folding keeps what the program does', () => {
  const PIPE = 'ipsccp,globalopt,mem2reg,instcombine,sccp,adce,simplifycfg';
  it('output computed from input is not folded away', () => {
    const ir = `${PRINTF}
@acc = internal global i32 0
define internal void @add(i32 %v) {
  %a = load i32, ptr @acc
  %b = add i32 %a, %v
  store i32 %b, ptr @acc
  ret void
}
define i32 @main() {
  %c = call i32 @getchar()
  call void @add(i32 %c)
  call void @add(i32 2)
  %r = load i32, ptr @acc
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %r)
  ret i32 0
}`;
    for (const input of ['a', 'b', '']) sameBehaviour(ir, PIPE, input);
    const t = opt(ir, PIPE).fnText('main');
    expect(t).toMatch(/getchar/);
    expect(t).toMatch(/printf/);
  });
  it('a volatile global keeps its accesses and the output that depends on them', () => {
    const ir = `${PRINTF}
@v = internal global i32 5
define i32 @main() {
  store volatile i32 9, ptr @v
  %a = load volatile i32, ptr @v
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a)
  ret i32 0
}`;
    sameBehaviour(ir, PIPE);
    const t = opt(ir, PIPE).fnText('main');
    expect(countOps(t, 'store volatile i32')).toBe(1);
    expect(t).toMatch(/load volatile i32, ptr @v/);
  });
  it('a program whose output is a constant is folded to printing it', () => {
    const ir = `${PRINTF}
@ctx = internal global i32 -1
@tab = internal global [4 x i32] zeroinitializer
define internal void @gen() {
entry:
  br label %l
l:
  %i = phi i64 [ 0, %entry ], [ %j, %l ]
  %p = getelementptr inbounds [4 x i32], ptr @tab, i64 0, i64 %i
  store i32 1, ptr %p
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, 4
  br i1 %c, label %l, label %out
out:
  ret void
}
define i32 @main() {
  call void @gen()
  %v = load i32, ptr @ctx
  %x = xor i32 %v, -1
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %x)
  ret i32 0
}`;
    const t = sameBehaviour(ir, 'default<O2>');
    expect(t).toMatch(/@printf\(ptr @\.fmt, i32 0\)/);
    expect(t).not.toMatch(/@tab|@ctx/);
  });
});

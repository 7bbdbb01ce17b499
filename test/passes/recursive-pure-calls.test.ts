/**
 * Pure recursive callees (#18, the SysY fft's `multiply`): LLVM's inliner never inlines a
 * function that calls itself into another function (InlineCost's "recursive", cost=never), and
 * its EarlyCSE and GVN merge repeated calls of a `memory(none)` function whether or not it is
 * known to return (a recursive one is not `willreturn`). Oracles: opt-19 on the same input
 * (which calls remain), lli-19 running before and after (same output and exit code), and the
 * verifier after every pass.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPT, hasLlvm, llvmAsError, runLli, runTool } from '../helpers/llvm.js';
import { opt } from './cfg-helpers.js';
import { EVEN_ODD } from './ipo-helpers.js';

// fft0's modular product: recursive, touches no memory, not willreturn
const PURE_REC = `
@.fmt = private constant [4 x i8] c"%d\\0A\\00"
declare i32 @printf(ptr, ...)

define i32 @mul(i32 %a, i32 %b) #0 {
entry:
  %z = icmp eq i32 %b, 0
  br i1 %z, label %zero, label %rec
zero:
  ret i32 0
rec:
  %h = sdiv i32 %b, 2
  %c = call i32 @mul(i32 %a, i32 %h)
  %d = add i32 %c, %c
  %m = srem i32 %d, 1000003
  %odd = srem i32 %b, 2
  %isodd = icmp eq i32 %odd, 1
  %e = add i32 %m, %a
  %f = srem i32 %e, 1000003
  %r = select i1 %isodd, i32 %f, i32 %m
  ret i32 %r
}

define i32 @main() {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %x = call i32 @mul(i32 %i, i32 %i)
  %y = call i32 @mul(i32 %i, i32 %i)
  %s = sub i32 %x, %y
  %acc1 = add i32 %acc, %x
  %acc2 = add i32 %acc1, %s
  %i1 = add i32 %i, 1
  %done = icmp eq i32 %i1, 1000
  br i1 %done, label %exit, label %loop
exit:
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %acc2)
  %rc = srem i32 %acc2, 256
  ret i32 %rc
}

attributes #0 = { nounwind memory(none) }
`;

const count = (text: string, re: RegExp): number => (text.match(re) ?? []).length;
const mainOf = (text: string): string => text.slice(text.indexOf('define i32 @main'));

function runBoth(before: string, after: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-recpure-'));
  writeFileSync(join(dir, 'a.ll'), before);
  writeFileSync(join(dir, 'b.ll'), after);
  expect(llvmAsError(after)).toBeNull();
  const a = runLli(join(dir, 'a.ll'));
  const b = runLli(join(dir, 'b.ll'));
  expect(b.stdout.toString()).toBe(a.stdout.toString());
  expect(b.status).toBe(a.status);
}

function opt19(ir: string, passes: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssakit-recpure-'));
  writeFileSync(join(dir, 'in.ll'), ir);
  const r = runTool(OPT, [`-passes=${passes}`, '-S', join(dir, 'in.ll'), '-o', '-']);
  expect(r.status).toBe(0);
  return r.stdout.toString();
}

describe('calls of a pure recursive function', () => {
  for (const pass of ['early-cse', 'gvn']) {
    it(`${pass} keeps one of two equal calls although the callee is not willreturn`, () => {
      const r = opt(PURE_REC, pass);
      expect(count(mainOf(r.text), /call i32 @mul\(/g)).toBe(1);
    });
  }

  it('a call whose result is unused is still kept (it may not return)', () => {
    const ir = PURE_REC.replace('%s = sub i32 %x, %y', '%s = sub i32 %x, 0').replace('%y = call i32 @mul(i32 %i, i32 %i)', '%y = call i32 @mul(i32 %i, i32 7)');
    const r = opt(ir, 'early-cse,gvn,dce');
    expect(count(mainOf(r.text), /call i32 @mul\(/g)).toBe(2);
  });

  it('the inliner does not inline a self-recursive callee into another function, whatever the threshold', () => {
    const r = opt(PURE_REC, 'inline<threshold=1000>');
    // an inlined copy would bring mul's sdiv into main (and a call of @mul with it)
    expect(count(mainOf(r.text), /sdiv/g)).toBe(0);
    expect(count(mainOf(r.text), /call i32 @mul\(/g)).toBe(2);
    expect(count(r.fnText('mul'), /call i32 @mul\(/g)).toBe(1);
  });

  it('a callee that is only mutually recursive (no direct self-call) is still inlined', () => {
    const ir = `
${EVEN_ODD}
define i32 @main() {
  %a = call i32 @even(i32 7)
  ret i32 %a
}`;
    expect(opt(ir, 'inline').fnText('main')).not.toMatch(/call i32 @even/);
  });

  // Reason for runIf: the oracles are opt-19 and lli-19.
  describe.runIf(hasLlvm())('against LLVM', () => {
    it('opt-19 makes the same decisions (one call left by early-cse and by gvn; inline leaves both)', () => {
      for (const pass of ['early-cse', 'gvn']) expect(count(mainOf(opt19(PURE_REC, pass)), /call i32 @mul\(/g)).toBe(1);
      expect(count(mainOf(opt19(PURE_REC, 'inline')), /sdiv/g)).toBe(0);
    });

    it('lli-19 runs the program the same before and after each pass and after -O2', () => {
      for (const p of ['early-cse', 'gvn', 'inline<threshold=1000>', 'default<O2>']) runBoth(PURE_REC, opt(PURE_REC, p).text);
    });
  });
});

/**
 * instcombine's rotate / funnel-shift rule (transforms/instcombine/funnel-shift.ts), against
 * opt-19 and lli-19: for every width and a spread of constant shift pairs (summing to the
 * width or not, same or different operands, either operand order), opt-19
 * -passes=instcombine makes an `llvm.fshl` exactly when we do, and the instcombined module
 * prints what the original prints, in lli-19 and in our interpreter. (A 16-bit rotate by 8
 * is a byte swap, which opt-19 writes as `llvm.bswap.i16`; that counts as its funnel shift.)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runModule } from '../../src/interp/index.js';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { hasLlvm, LLVM_AS, OPT, runLli, runTool } from '../helpers/llvm.js';

const dir = mkdtempSync(join(tmpdir(), 'ssakit-fshl-'));

/** @f(x, y) = or of shl x, c1 and lshr (same ? x : y), c2; @main hashes f over fixed inputs and prints it. */
function module(w: number, c1: number, c2: number, same: boolean, swap: boolean): string {
  const t = `i${w}`;
  const ops = ['%s', '%r'];
  if (swap) ops.reverse();
  const inputs = [0n, 1n, 0x5an, 0x1234_5678_9abc_def0n, 0xffff_ffff_ffff_ffffn, 0x8000_0000_0000_0001n, 0x0f0f_0f0f_3c3c_3c3cn];
  const mask = (1n << BigInt(w)) - 1n;
  let body = '';
  let h = '0';
  inputs.forEach((a, k) => {
    const b = inputs[(k + 3) % inputs.length];
    body += `  %v${k} = call ${t} @f(${t} ${BigInt.asIntN(w, a & mask)}, ${t} ${BigInt.asIntN(w, b & mask)})\n`;
    body += (w === 64 ? `  %z${k} = or i64 %v${k}, 0\n` : `  %z${k} = zext ${t} %v${k} to i64\n`) + `  %m${k} = mul i64 ${h}, 1000003\n  %h${k} = xor i64 %m${k}, %z${k}\n`;
    h = `%h${k}`;
  });
  return `@fmt = private constant [6 x i8] c"%llx\\0A\\00"
declare i32 @printf(ptr, ...)
define ${t} @f(${t} %x, ${t} %y) {
  %s = shl ${t} %x, ${c1}
  %r = lshr ${t} ${same ? '%x' : '%y'}, ${c2}
  %o = or ${t} ${ops[0]}, ${ops[1]}
  ret ${t} %o
}
define i32 @main() {
${body}  call i32 (ptr, ...) @printf(ptr @fmt, i64 ${h})
  ret i32 0
}
`;
}

// Reason for runIf: LLVM 19's tools (clang-19, opt-19, lli-19, llvm-as-19) are the oracle here; without them these skip and the report says so.
describe.runIf(hasLlvm())('or of opposite constant shifts is a funnel shift (opt-19 and lli-19 are the oracles)', () => {
  it('every width, amounts summing to the width or not', () => {
    let made = 0;
    for (const w of [8, 16, 32, 64]) {
      for (const [c1, c2] of [[1, w - 1], [w / 2, w / 2], [w - 3, 3], [3, w - 4], [2, w - 1]]) {
        for (const same of [true, false]) {
          const swap = (c1 + c2 + (same ? 1 : 0)) % 2 === 0;
          const text = module(w, c1, c2, same, swap);
          const path = join(dir, `f${w}-${c1}-${c2}-${same}.ll`);
          writeFileSync(path, text);
          const llvm = runTool(OPT, ['-passes=instcombine', '-S', path]);
          expect(llvm.status, llvm.stderr).toBe(0);
          const m = parseModule(text, path);
          runPipeline(m, 'instcombine', { verifyEach: true, log: () => {} });
          const out = printModule(m);
          const ours = out.includes('@llvm.fshl.');
          expect(ours, `i${w} shl ${c1} / lshr ${c2} (${same ? 'rotate' : 'funnel'}):\n${out}`).toBe(/@llvm\.(fshl|bswap)\./.test(llvm.stdout.toString('utf8')));
          if (ours) made++;
          const optPath = join(dir, `f${w}-${c1}-${c2}-${same}-opt.ll`);
          writeFileSync(optPath, out);
          expect(runTool(LLVM_AS, [optPath, '-o', '/dev/null']).status).toBe(0);
          const want = runLli(path).stdout.toString('latin1');
          expect(runLli(optPath).stdout.toString('latin1')).toBe(want);
          expect(Buffer.from(runModule(parseModule(out, 'o.ll')).stdout).toString('latin1')).toBe(want);
        }
      }
    }
    expect(made).toBeGreaterThan(10);
  }, 300_000);
});

/**
 * Random functions for SSA construction tests: a random CFG (test/analysis/naive.ts) whose
 * blocks load and store V = 3 entry-block allocas (each store a distinct constant), printed
 * as LLVM IR. Used by phi-placement.test.ts and braun-minimal.test.ts.
 */
import fc from 'fast-check';
import { arbCfg } from '../analysis/naive.js';

export const V = 3;

export interface Program {
  succs: number[][];
  /** Per block: accesses [variable, isStore]. */
  acc: [number, boolean][][];
}

export const arbProgram = (maxN = 12): fc.Arbitrary<Program> => arbCfg(maxN).chain((c) =>
  fc.array(fc.array(fc.tuple(fc.nat(V - 1), fc.boolean()), { maxLength: 3 }), { minLength: c.n, maxLength: c.n }).map((acc): Program => ({ succs: c.succs, acc })),
);

export function text(p: Program): string {
  const lines = ['define void @f(i1 %c, i32 %x) {'];
  let k = 0;
  p.succs.forEach((s, b) => {
    lines.push(`b${b}:`);
    if (b === 0) for (let v = 0; v < V; v++) lines.push(`  %v${v} = alloca i32`);
    for (const [v, st] of p.acc[b]) lines.push(st ? `  store i32 ${++k}, ptr %v${v}` : `  %l${++k} = load i32, ptr %v${v}`);
    if (s.length === 0) lines.push('  ret void');
    else if (s.length === 1) lines.push(`  br label %b${s[0]}`);
    else if (s.length === 2) lines.push(`  br i1 %c, label %b${s[0]}, label %b${s[1]}`);
    else lines.push(`  switch i32 %x, label %b${s[0]} [ ${s.slice(1).map((t, i) => `i32 ${i}, label %b${t}`).join(' ')} ]`);
  });
  lines.push('}');
  return lines.join('\n') + '\n';
}


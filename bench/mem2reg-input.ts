/**
 * A synthetic clang -O0-style function for the mem2reg scale test and benchmark: one
 * function with many allocas (one per variable, all in the entry block) and a long body of
 * straight blocks, if-then-else diamonds and counted loops whose blocks load, combine and
 * store variables. Each region works on a window of nearby variables, which it initialises
 * where it first uses them (as C locals are declared and initialised in their scope), so live
 * ranges are local and the work of phi placement stays linear; most variables are stored
 * several times in several blocks and take the general path (IDF, liveness, renaming).
 *
 * Deterministic in (variables, instructions, seed). The program terminates (loops run 3
 * times) and returns a checksum, so it can also be run.
 */
import { Rng } from '../src/fuzz/rng.js';

export interface ScaleShape {
  variables: number;
  /** Approximate instruction count of the function. */
  instructions: number;
  seed?: number;
}

export function scaleFunctionIR(shape: ScaleShape): string {
  const V = Math.max(64, shape.variables);
  const rng = new Rng(shape.seed ?? 1);
  const lines: string[] = [];
  let n = 0; // instructions emitted
  let t = 0; // value names
  let blk = 0;
  const W = 48; // window of variables per region
  lines.push('define i32 @scale(i32 %arg) {', 'entry:');
  for (let v = 0; v < V; v++) lines.push(`  %v${v} = alloca i32, align 4`);
  n += V;
  let initialised = 0;
  let cur = `b${blk++}`;
  lines.push(`  br label %${cur}`);
  n++;
  let region = 0;
  const estRegions = Math.max(1, Math.floor(shape.instructions / 28));
  const ops = (base: number, k: number): void => {
    for (let j = 0; j < k; j++) {
      const a = base + rng.below(W);
      const b = base + rng.below(W);
      const d = base + rng.below(W);
      const x = t++;
      const y = t++;
      const z = t++;
      lines.push(`  %t${x} = load i32, ptr %v${a}, align 4`);
      lines.push(`  %t${y} = load i32, ptr %v${b}, align 4`);
      lines.push(`  %t${z} = ${rng.chance(0.5) ? 'add' : 'xor'} i32 %t${x}, %t${y}`);
      lines.push(`  store i32 %t${z}, ptr %v${d}, align 4`);
      n += 4;
    }
  };
  const cond = (base: number): string => {
    const x = t++;
    const c = t++;
    lines.push(`  %t${x} = load i32, ptr %v${base + rng.below(W)}, align 4`);
    lines.push(`  %t${c} = icmp slt i32 %t${x}, ${rng.below(200)}`);
    n += 2;
    return `%t${c}`;
  };
  while (n < shape.instructions) {
    // the window slides over the variables once, from the first region to the last
    const base = Math.min(V - W - 1, Math.floor((region * (V - W - 1)) / estRegions));
    region++;
    lines.push(`${cur}:`);
    for (; initialised < Math.min(V, base + W + 1); initialised++) {
      lines.push(`  store i32 ${initialised & 255}, ptr %v${initialised}, align 4`);
      n++;
    }
    const kind = rng.below(3);
    const k = 1 + rng.below(4);
    if (kind === 0) {
      ops(base, k);
      const next = `b${blk++}`;
      lines.push(`  br label %${next}`);
      n++;
      cur = next;
    } else if (kind === 1) {
      const [th, el, join] = [`b${blk++}`, `b${blk++}`, `b${blk++}`];
      ops(base, k);
      lines.push(`  br i1 ${cond(base)}, label %${th}, label %${el}`);
      lines.push(`${th}:`);
      ops(base, k);
      lines.push(`  br label %${join}`);
      lines.push(`${el}:`);
      ops(base, 1 + rng.below(3));
      lines.push(`  br label %${join}`);
      n += 3;
      cur = join;
    } else {
      // for (c = 0; c < 3; c++) { ... } with the counter in the window's first variable
      const ctr = base;
      const [head, body, exit] = [`b${blk++}`, `b${blk++}`, `b${blk++}`];
      lines.push(`  store i32 0, ptr %v${ctr}, align 4`);
      lines.push(`  br label %${head}`);
      lines.push(`${head}:`);
      const i = t++;
      const c = t++;
      lines.push(`  %t${i} = load i32, ptr %v${ctr}, align 4`);
      lines.push(`  %t${c} = icmp slt i32 %t${i}, 3`);
      lines.push(`  br i1 %t${c}, label %${body}, label %${exit}`);
      lines.push(`${body}:`);
      ops(base + 1, k);
      const i2 = t++;
      const i3 = t++;
      lines.push(`  %t${i2} = load i32, ptr %v${ctr}, align 4`);
      lines.push(`  %t${i3} = add i32 %t${i2}, 1`);
      lines.push(`  store i32 %t${i3}, ptr %v${ctr}, align 4`);
      lines.push(`  br label %${head}`);
      n += 10;
      cur = exit;
    }
  }
  lines.push(`${cur}:`);
  let acc = '%arg';
  for (let j = 0; j < 8; j++) {
    const x = t++;
    const s = t++;
    lines.push(`  %t${x} = load i32, ptr %v${rng.below(Math.max(1, initialised))}, align 4`);
    lines.push(`  %t${s} = add i32 ${acc}, %t${x}`);
    acc = `%t${s}`;
  }
  lines.push(`  ret i32 ${acc}`, '}', '');
  lines.push(
    '@fmt = private unnamed_addr constant [4 x i8] c"%d\\0A\\00"',
    'declare i32 @printf(ptr, ...)',
    'define i32 @main() {',
    '  %r = call i32 @scale(i32 1)',
    '  %p = call i32 (ptr, ...) @printf(ptr @fmt, i32 %r)',
    '  ret i32 0',
    '}',
    '',
  );
  return lines.join('\n');
}

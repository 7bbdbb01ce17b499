/**
 * Native oracle for the program generators (src/fuzz/c-gen.ts, src/fuzz/sysy-gen.ts):
 * compile a generated program with clang-19 at -O0 (with -Wall) and -O2, and with the
 * undefined-behaviour sanitizer (optionally also ASan), run all builds, and require the
 * same stdout and exit code everywhere and an empty sanitizer report. Optionally also
 * runs lli-19 on the -O0 IR. SysY programs are compiled as C behind SYSY_C_PRELUDE and
 * linked with sysy_runtime.c from this folder.
 *
 * Used by gen.test.ts (a few dozen seeds) and run-seeds.ts (hundreds, by hand).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SYSY_C_PRELUDE } from '../../src/fuzz/c-gen.js';

export const CLANG = process.env.SSAKIT_CLANG ?? 'clang-19';
export const LLI = process.env.SSAKIT_LLI ?? 'lli-19';
const HERE = dirname(fileURLToPath(import.meta.url));
export const SYSY_RUNTIME_C = join(HERE, 'sysy_runtime.c');

/** Warnings whose presence would mean the generator produced undefined behaviour. */
export const UB_WARNINGS = [
  'uninitialized', 'sometimes-uninitialized', 'shift-count-overflow', 'shift-count-negative',
  'shift-negative-value', 'division-by-zero', 'integer-overflow', 'array-bounds', 'return-type',
  'unsequenced', 'implicit-function-declaration', 'int-conversion', 'incompatible-pointer-types',
  'format', 'format-extra-args', 'format-insufficient-args', 'constant-conversion', 'switch',
];

export interface RunResult { status: number | null; signal: string | null; stdout: string; stderr: string; timedOut: boolean; ms: number }

const RUN_ENV = { ...process.env, ASAN_OPTIONS: 'detect_leaks=0', UBSAN_OPTIONS: 'halt_on_error=1:print_stacktrace=0' };

export function run(cmd: string, args: string[], timeoutMs = 20_000): Promise<RunResult> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: RUN_ENV });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; p.kill('SIGKILL'); }, timeoutMs);
    p.stdout.on('data', (b: Buffer) => out.push(b));
    p.stderr.on('data', (b: Buffer) => err.push(b));
    p.on('error', () => { /* reported through close with a null status */ });
    p.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({
        status, signal, timedOut, ms: Date.now() - t0,
        stdout: Buffer.concat(out).toString('latin1'), stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

export interface CheckOptions {
  /** Sanitizers for the checked build; default 'undefined'. */
  sanitize?: string;
  /** Also run lli-19 on clang's -O0 IR. */
  lli?: boolean;
  /** Directory for the work files (a fresh temporary one by default). */
  dir?: string;
  timeoutMs?: number;
}

export interface CheckResult {
  ok: boolean;
  /** Where it failed: compile-O0, compile-O2, compile-san, run-*, san-report, mismatch-*. */
  stage: string;
  detail: string;
  /** -Wall warning flags seen at -O0 (e.g. 'unused-variable'). */
  warnings: string[];
  ubWarnings: string[];
  exitCode: number | null;
  outputLines: number;
  ms: { o0: number; o2: number; san: number };
}

let rtObject: Promise<string> | null = null;
function sysyRuntimeObject(): Promise<string> {
  if (!rtObject) {
    rtObject = (async () => {
      const d = mkdtempSync(join(tmpdir(), 'ssakit-sysyrt-'));
      const o = join(d, 'sysy_runtime.o');
      const r = await run(CLANG, ['-c', '-O1', SYSY_RUNTIME_C, '-o', o]);
      if (r.status !== 0) throw new Error(`cannot compile ${SYSY_RUNTIME_C}: ${r.stderr}`);
      return o;
    })();
  }
  return rtObject;
}

function warningFlags(stderr: string): string[] {
  const set = new Set<string>();
  for (const m of stderr.matchAll(/warning: .*\[-W([a-z0-9-]+)(?:,[^\]]*)?\]/g)) set.add(m[1]!);
  return [...set].sort();
}

/** Compile and run one generated program; see the file comment for what is checked. */
export async function checkProgram(lang: 'c' | 'sysy', source: string, opts: CheckOptions = {}): Promise<CheckResult> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ssakit-gen-'));
  mkdirSync(dir, { recursive: true });
  const src = join(dir, 'prog.c');
  writeFileSync(src, lang === 'sysy' ? SYSY_C_PRELUDE + source : source);
  const extra = lang === 'sysy' ? [await sysyRuntimeObject()] : [];
  // SysY has no parentheses around conditions, so `a && b || c` is normal there.
  const wflags = lang === 'sysy' ? ['-Wall', '-Wno-logical-op-parentheses', '-Wno-unused-variable'] : ['-Wall'];
  const timeout = opts.timeoutMs ?? 20_000;
  const res: CheckResult = { ok: false, stage: '', detail: '', warnings: [], ubWarnings: [], exitCode: null, outputLines: 0, ms: { o0: 0, o2: 0, san: 0 } };
  const fail = (stage: string, detail: string): CheckResult => ({ ...res, ok: false, stage, detail: detail.slice(0, 2000) });

  const exe0 = join(dir, 'p0'), exe2 = join(dir, 'p2'), exeS = join(dir, 'ps');
  // clang -O2 needs about 1 ms per generated line on an idle machine: allow 10.
  const ctimeout = Math.max(timeout * 3, source.split('\n').length * 10);
  const [c0, c2, cs] = await Promise.all([
    run(CLANG, [...wflags, '-O0', src, ...extra, '-o', exe0], ctimeout),
    run(CLANG, ['-w', '-O2', src, ...extra, '-o', exe2], ctimeout),
    run(CLANG, ['-w', '-O0', '-g', `-fsanitize=${opts.sanitize ?? 'undefined'}`, '-fno-sanitize-recover=all', src, ...extra, '-o', exeS], ctimeout),
  ]);
  res.warnings = warningFlags(c0.stderr);
  res.ubWarnings = res.warnings.filter((w) => UB_WARNINGS.includes(w));
  for (const [name, c] of [['O0', c0], ['O2', c2], ['san', cs]] as const) {
    if (c.status !== 0) return fail(`compile-${name}`, c.timedOut ? `timed out after ${ctimeout} ms` : c.stderr);
  }
  if (res.ubWarnings.length) return fail('ub-warning', c0.stderr);

  const [r0, r2, rs] = await Promise.all([run(exe0, [], timeout), run(exe2, [], timeout), run(exeS, [], timeout * 2)]);
  res.ms = { o0: r0.ms, o2: r2.ms, san: rs.ms };
  res.exitCode = r0.status;
  res.outputLines = r0.stdout.split('\n').length - 1;
  for (const [name, r] of [['O0', r0], ['O2', r2], ['san', rs]] as const) {
    if (r.timedOut) return fail(`run-${name}`, 'timed out');
    if (r.status === null) return fail(`run-${name}`, `killed by ${r.signal}`);
  }
  if (rs.stderr.trim()) return fail('san-report', rs.stderr);
  if (r0.stdout !== r2.stdout || r0.status !== r2.status) return fail('mismatch-O2', `exit ${r0.status} vs ${r2.status}`);
  if (r0.stdout !== rs.stdout || r0.status !== rs.status) return fail('mismatch-san', `exit ${r0.status} vs ${rs.status}`);
  if (r0.status! < 0 || r0.status! > 255) return fail('exit-range', `${r0.status}`);

  if (opts.lli) {
    const ll = join(dir, 'p.ll');
    const cl = await run(CLANG, ['-w', '-O0', '-Xclang', '-disable-O0-optnone', '-S', '-emit-llvm', src, '-o', ll], ctimeout);
    if (cl.status !== 0) return fail('compile-ll', cl.stderr);
    const args = lang === 'sysy' ? [`-extra-object=${extra[0]}`, ll] : [ll];
    const rl = await run(LLI, args, ctimeout); // lli compiles the whole module first
    if (rl.timedOut || rl.status === null) return fail('run-lli', rl.stderr || 'timed out');
    if (rl.stdout !== r0.stdout || rl.status !== r0.status) return fail('mismatch-lli', `exit ${rl.status} vs ${r0.status}`);
  }
  return { ...res, ok: true, stage: 'ok' };
}

/** Run `fn` over `items` with at most `n` in flight. */
export async function pool<T, R>(items: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/**
 * Shared by the SysY IR-generation tests: compile a program in a mode, check the module
 * (verifier, llvm-as-19), run it in our interpreter and natively (clang-19 linking the .ll
 * with runtime/sylib.c, cached by content hash), and format the result as the contest's
 * `.out` files do: stdout, a newline if stdout is non-empty and does not end in one, then
 * the exit code on its own line.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyModule } from '../../src/analysis/verifier.js';
import type { Module } from '../../src/ir/module.js';
import { runModule } from '../../src/interp/index.js';
import { compileSysY, formatDiagnostics, type CompileSysYOptions } from '../../src/frontend/sysy/index.js';
import { printModule } from '../../src/text/printer.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { CACHE_DIR, CLANG, LLVM_AS, hasTool, runTool } from '../helpers/llvm.js';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
export const SYLIB_C = join(ROOT, 'runtime/sylib.c');
export const SYLIB_H = join(ROOT, 'runtime/sylib.h');

export function hasClangAndAs(): boolean {
  return hasTool(CLANG) && hasTool(LLVM_AS);
}
export const TOOLS_MISSING = 'clang-19 / llvm-as-19 not found: skipping native checks of SysY IR. Install with `apt-get install -y clang-19 llvm-19`.';

export interface Variant {
  name: string;
  opts: CompileSysYOptions;
}

export const VARIANTS: Variant[] = [
  { name: 'braun', opts: { ssa: 'braun' } },
  { name: 'braun-nofold', opts: { ssa: 'braun', fold: false } },
  { name: 'alloca', opts: { ssa: 'alloca' } },
  { name: 'alloca+mem2reg', opts: { ssa: 'alloca', mem2reg: true } },
  // every expression through the explicit-stack walk (the path deep programs take)
  { name: 'braun-stackwalk', opts: { ssa: 'braun', recursionLimit: 0 } },
];

/** Compiles or throws with the diagnostics; checks the verifier. */
export function compile(source: string, name: string, opts: CompileSysYOptions): { module: Module; text: string } {
  const r = compileSysY(source, name, opts);
  if (r.module === undefined) throw new Error(formatDiagnostics(r.diagnostics, source));
  const errs = verifyModule(r.module);
  if (errs.length > 0) throw new Error(`${name}: verifier: ${errs.map((e) => e.message).join('\n')}`);
  return { module: r.module, text: printModule(r.module) };
}

/** The `.out` convention. */
export function formatOut(stdout: Buffer | string, code: number | null): string {
  const s = typeof stdout === 'string' ? stdout : stdout.toString('latin1');
  return s + (s.length > 0 && !s.endsWith('\n') ? '\n' : '') + String(code) + '\n';
}

export function interpret(m: Module, stdin?: string, maxSteps?: number): string {
  const r = runModule(m, { stdin: stdin ?? '', stdout: 'collect', stderr: 'collect', maxSteps });
  return formatOut(r.stdoutBytes ?? Buffer.alloc(0), r.exitCode);
}

function hashOf(...parts: (string | Buffer)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex').slice(0, 20);
}

function writeAtomic(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** llvm-as-19's complaint about `text`, or null when it accepts it (acceptance is cached by content). */
export function llvmAsCheck(text: string): string | null {
  mkdirSync(CACHE_DIR, { recursive: true });
  const ok = join(CACHE_DIR, `sysy-as-ok-${hashOf(text)}`);
  if (existsSync(ok)) return null;
  const r = runTool(LLVM_AS, ['-', '-o', '/dev/null'], { input: text });
  if (r.status !== 0) return r.stderr;
  writeAtomic(ok, '');
  return null;
}

/**
 * Builds an executable from IR text + sylib.c with clang-19 (cached by content), runs it
 * with `stdin` (cached too), returns the `.out`-formatted result.
 */
export function nativeRunLL(llText: string, stdin?: string, timeout = 60_000): string {
  return nativeRun(llText, 'll', stdin, timeout);
}

/** Same for a C source (a SysY program with the C prelude). */
export function nativeRunC(cText: string, stdin?: string, timeout = 60_000): string {
  return nativeRun(cText, 'c', stdin, timeout);
}

function nativeRun(text: string, ext: 'll' | 'c', stdin: string | undefined, timeout: number): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const sylib = readFileSync(SYLIB_C);
  const key = hashOf(text, ext, sylib);
  const runKey = hashOf(key, stdin ?? '');
  const cached = join(CACHE_DIR, `sysy-run-${runKey}.out`);
  if (existsSync(cached)) return readFileSync(cached, 'latin1');
  const exe = join(CACHE_DIR, `sysy-exe-${key}`);
  if (!existsSync(exe)) {
    const src = join(CACHE_DIR, `sysy-src-${key}.${ext}`);
    writeAtomic(src, text);
    const tmp = `${exe}.${process.pid}.tmp`;
    const args = ext === 'll' ? ['-O0', '-w', src, SYLIB_C, '-lm', '-o', tmp] : ['-O0', '-w', '-ffp-contract=off', '-x', 'c', src, '-x', 'none', SYLIB_C, '-lm', '-o', tmp];
    const r = runTool(CLANG, args, { timeout: 120_000 });
    if (r.status !== 0) throw new Error(`clang-19 failed:\n${r.stderr}`);
    renameSync(tmp, exe);
  }
  const r = runTool(exe, [], { input: stdin ?? '', timeout });
  if (r.timedOut) throw new Error('native run timed out');
  const out = formatOut(r.stdout, r.status === null ? 128 + 9 : r.status);
  writeAtomic(cached, out);
  return out;
}

/** Number of phis per defined function, by name. */
export function phiCounts(m: Module): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of m.functions) {
    if (f.isDeclaration()) continue;
    let n = 0;
    for (let b = f.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null && i.op === Opcode.Phi; i = i.next) n++;
    out[f.name] = n;
  }
  return out;
}

export interface SyProgram {
  name: string;
  path: string;
  source: string;
  stdin?: string;
  expected: string;
}

export function loadProgram(path: string): SyProgram {
  const base = path.slice(0, -3);
  const inPath = base + '.in';
  return {
    name: path.slice(ROOT.length + 1),
    path,
    source: readFileSync(path, 'utf8'),
    stdin: existsSync(inPath) ? readFileSync(inPath, 'latin1') : undefined,
    expected: readFileSync(base + '.out', 'latin1'),
  };
}

/** Every program of test/sysy and test/sysy/perf. */
export function corpus(): SyProgram[] {
  const out: SyProgram[] = [];
  for (const dir of ['test/sysy', 'test/sysy/perf']) {
    const abs = join(ROOT, dir);
    for (const f of readdirSync(abs).filter((x) => x.endsWith('.sy')).sort()) out.push(loadProgram(join(abs, f)));
  }
  return out;
}

/**
 * Lets the worker's event loop run: vitest's RPC replies are macrotasks, and a file of long
 * synchronous tests would otherwise starve them ('Timeout calling "onTaskUpdate"').
 */
export function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * One random program through every variant: our interpreter's output for Braun mode (with and
 * without folding) and alloca + mem2reg must equal clang-19's native run of the program as C
 * (with SYSY_C_PRELUDE and sylib.c); the Braun-mode .ll, linked natively, too.
 * Returns a description of the first difference, or null.
 */
export function checkRandomProgram(source: string, name: string, cPrelude: string, variants = VARIANTS): string | null {
  const tools = hasClangAndAs();
  const outs: [string, string][] = [];
  let braunText = '';
  for (const v of variants) {
    const { module, text } = compile(source, name, v.opts);
    if (v.name === 'braun') braunText = text;
    outs.push([v.name, interpret(module)]);
  }
  for (let k = 1; k < outs.length; k++) if (outs[k][1] !== outs[0][1]) return `${name}: ${outs[k][0]} prints\n${outs[k][1]}\nbut ${outs[0][0]} prints\n${outs[0][1]}`;
  if (!tools) return null;
  const ref = nativeRunC(cPrelude + source);
  if (outs[0][1] !== ref) return `${name}: ${outs[0][0]} prints\n${outs[0][1]}\nbut clang-19 (as C) prints\n${ref}`;
  if (braunText !== '') {
    const as = llvmAsCheck(braunText);
    if (as !== null) return `${name}: llvm-as-19 rejects the Braun-mode IR: ${as}`;
    const nat = nativeRunLL(braunText);
    if (nat !== ref) return `${name}: the Braun-mode IR natively prints\n${nat}\nbut clang-19 (as C) prints\n${ref}`;
  }
  return null;
}

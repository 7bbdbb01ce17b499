/**
 * Shared test helpers for the LLVM oracle: finding clang-19/opt-19/lli-19/llvm-as-19,
 * compiling C to .ll with a content-hash cache (so the suite stays fast), and running
 * tools with a timeout. Tests that need LLVM call `hasLlvm()` and skip with a clear
 * message when the tools are absent.
 */
import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const CLANG = process.env.SSAKIT_CLANG ?? 'clang-19';
export const OPT = process.env.SSAKIT_OPT ?? 'opt-19';
export const LLI = process.env.SSAKIT_LLI ?? 'lli-19';
export const LLVM_AS = process.env.SSAKIT_LLVM_AS ?? 'llvm-as-19';

const toolCache = new Map<string, boolean>();
export function hasTool(tool: string): boolean {
  let ok = toolCache.get(tool);
  if (ok === undefined) {
    const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    ok = r.status === 0;
    toolCache.set(tool, ok);
  }
  return ok;
}

/** True when clang-19, opt-19, lli-19 and llvm-as-19 are all on PATH. */
export function hasLlvm(): boolean {
  return hasTool(CLANG) && hasTool(OPT) && hasTool(LLI) && hasTool(LLVM_AS);
}

export const LLVM_MISSING = 'LLVM 19 tools (clang-19, opt-19, lli-19, llvm-as-19) not found: skipping LLVM-oracle tests. Install with `apt-get install -y clang-19 llvm-19`.';

export const CACHE_DIR = join(tmpdir(), 'ssakit-test-cache');

export interface ToolResult {
  status: number | null;
  stdout: Buffer;
  stderr: string;
  timedOut: boolean;
}

export function runTool(cmd: string, args: string[], opts: { input?: string | Buffer; timeout?: number; cwd?: string } = {}): ToolResult {
  const r: SpawnSyncReturns<Buffer> = spawnSync(cmd, args, {
    input: opts.input,
    timeout: opts.timeout ?? 60_000,
    maxBuffer: 1 << 30,
    cwd: opts.cwd,
  });
  return {
    status: r.status,
    stdout: r.stdout ?? Buffer.alloc(0),
    stderr: r.stderr?.toString('utf8') ?? '',
    timedOut: (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT',
  };
}

function hashOf(...parts: (string | Buffer)[]): string {
  const h = createHash('sha1');
  for (const p of parts) h.update(p);
  return h.digest('hex').slice(0, 16);
}

/** Writes atomically so parallel test workers never read half a file. */
function writeAtomic(path: string, data: string | Buffer): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export type OptLevel = 'O0' | 'O2';

export const CLANG_FLAGS: Record<OptLevel, string[]> = {
  O0: ['-O0', '-Xclang', '-disable-O0-optnone'],
  O2: ['-O2', '-fno-vectorize', '-fno-slp-vectorize'],
};

/**
 * Compiles C source to LLVM IR text with clang-19 (cached by content and flags).
 * Returns the path of the .ll file. Throws with clang's message on failure.
 */
export function clangToLL(source: string, level: OptLevel, extraFlags: string[] = [], name = 'prog'): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const flags = [...CLANG_FLAGS[level], ...extraFlags];
  const key = hashOf(source, '\0', flags.join(' '));
  const out = join(CACHE_DIR, `${basename(name).replace(/\.[a-z]+$/, '')}-${level}-${key}.ll`);
  if (existsSync(out)) return out;
  const src = join(CACHE_DIR, `${key}.c`);
  writeAtomic(src, source);
  const tmpOut = `${out}.${process.pid}.tmp`;
  const r = runTool(CLANG, [...flags, '-w', '-S', '-emit-llvm', src, '-o', tmpOut], { timeout: 120_000 });
  if (r.status !== 0) throw new Error(`clang-19 failed on ${name}:\n${r.stderr}`);
  renameSync(tmpOut, out);
  return out;
}

export function clangFileToLL(cFile: string, level: OptLevel, extraFlags: string[] = []): string {
  return clangToLL(readFileSync(cFile, 'utf8'), level, extraFlags, cFile);
}

export interface RunResult {
  stdout: Buffer;
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
}

/** Runs a .ll file with lli-19 (cached by content and input). */
export function runLli(llFile: string, stdin?: string | Buffer, extraArgs: string[] = [], timeout = 60_000): RunResult {
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = hashOf(readFileSync(llFile), '\0', stdin ?? '', '\0', extraArgs.join(' '));
  const cached = join(CACHE_DIR, `lli-${key}.json`);
  if (existsSync(cached)) {
    const j = JSON.parse(readFileSync(cached, 'utf8'));
    return { stdout: Buffer.from(j.stdout, 'base64'), exitCode: j.exitCode, stderr: j.stderr, timedOut: false };
  }
  const r = runTool(LLI, [...extraArgs, llFile], { input: stdin ?? '', timeout });
  const res = { stdout: r.stdout, exitCode: r.status, stderr: r.stderr, timedOut: r.timedOut };
  if (!r.timedOut) writeAtomic(cached, JSON.stringify({ stdout: r.stdout.toString('base64'), exitCode: r.status, stderr: r.stderr }));
  return res;
}

/** Checks text with llvm-as-19; returns null when accepted, else the error text. */
export function llvmAsError(text: string): string | null {
  const r = runTool(LLVM_AS, ['-', '-o', '/dev/null'], { input: text });
  return r.status === 0 ? null : r.stderr;
}

/** The test programs in a folder with their optional stdin (`NAME.in`). */
export function listPrograms(dir: string, ext = '.c'): { name: string; path: string; stdin?: string }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      const inPath = path.slice(0, -ext.length) + '.in';
      return { name: f.slice(0, -ext.length), path, stdin: existsSync(inPath) ? readFileSync(inPath, 'utf8') : undefined };
    });
}

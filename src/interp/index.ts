/**
 * The interpreter: runs an IR module from `main`, as `lli` would, with checked memory.
 *
 * API
 *
 *   runModule(module, {
 *     stdin?:  string | Uint8Array | 'inherit',   // program input (default: empty)
 *     stdout?: 'collect' | 'inherit' | (chunk: Buffer) => void,   // default 'collect'
 *     stderr?: 'collect' | 'inherit' | (chunk: Buffer) => void,   // default 'inherit'
 *     maxSteps?: number,     // stop with a RuntimeError after this many instructions
 *     stats?: boolean,       // also return the dynamic instruction counts
 *     args?: string[],       // argv[1..] (argv[0] is "prog")
 *   }) => {
 *     exitCode: number,                 // main's result & 255, exit(n) & 255, 134 for abort()
 *     stdout?: string, stdoutBytes?: Buffer,   // when collected (string decoded as UTF-8)
 *     stderr?: string, stderrBytes?: Buffer,
 *     stats?: { total: number, byOpcode: Record<string, number> },
 *   }
 *   (also: externals?: Record<string, ExternalFn> to add or replace library functions)
 *
 *   callFunction(module, name, args, opts) => RunResult & { value }   // call any function
 *   new Interpreter(module, opts)  .run() once, or .call(name, args) many times
 *   formatStats(stats)             // the `--stats` text: "instructions executed: N\n  op: n\n…"
 *
 * Values passed to and returned from callFunction are interpreter values (see below).
 * Step limit: with maxSteps, the run stops with `step limit of N instructions exceeded in
 * @f` (checked at block granularity, so at most N instructions ran); without it, there is
 * no limit. Stack depth is limited to 2,000,000 frames and 1 GiB of allocas.
 *
 * It is synchronous: stdin is read fully on first use, output is buffered in 64 KiB chunks
 * of raw bytes and flushed before returning. A runtime error in the program (bad memory
 * access, division by zero, unreachable, unknown external, step limit) throws an
 * InterpError (a RuntimeError) whose message names the function, block and instruction,
 * e.g. `load of 4 bytes out of bounds of a 40-byte alloca (offset 40) in @main, block %5:
 * %12 = load i32, ptr %11, align 4`; the CLI prints it as `ssakit: runtime error: …` and
 * exits with 1. The error carries the output collected so far and the stats.
 *
 * Design (see the files for details):
 *  - codegen.ts compiles each function, on first call, to JavaScript source (`new Function`):
 *    SSA values are JS locals, blocks are cases of a `switch` in a loop;
 *  - machine.ts runs an explicit stack of frames: a call to an IR function returns to the
 *    driver loop, so recursion depth is bounded by memory, not by the JS stack;
 *  - values: integers ≤ 32 bits are JS numbers in signed form (i1 as 0/1); wider ones are
 *    numbers while they are safe integers and bigints otherwise (wide.ts); floats are numbers
 *    rounded with Math.fround; pointers are numbers `allocationId·2^30 + offset` (8M
 *    live allocations of ≤ 1 GiB; null is 0, a function's address is a 0-byte allocation);
 *    vectors, arrays and structs are JS arrays;
 *  - memory.ts checks every access against its allocation's bounds and liveness;
 *  - libc.ts / printf.ts / scanf.ts implement the C library subset and the SysY runtime with
 *    glibc's exact output.
 *  - stats: every segment (block, or block part after a call) counts its executions, so the
 *    per-opcode counts are exact and cost one increment per segment.
 */
import { decodeUtf8, encodeUtf8 } from '../platform/index.js';
import type { Module } from '../ir/module.js';
import type { Function } from '../ir/function.js';
import type { ConstantAggregate, ConstantInt } from '../ir/constants.js';
import { ValueKind } from '../ir/value.js';
import { TypeKind } from '../ir/types.js';
import { locate } from './describe.js';
import { ExitSignal, Fault, InterpError } from './errors.js';
import { InStream, OutStream, type OutSink } from './io.js';
import { DEFAULT_EXTERNALS, LoadedModule } from './loader.js';
import { Machine, type ExternalFn } from './machine.js';
import { AK, ID_UNIT, TWO32 } from './memory.js';

export { InterpError } from './errors.js';
export type { ExternalFn } from './machine.js';

export interface RunOptions {
  stdin?: string | Uint8Array | 'inherit';
  stdout?: OutSink;
  stderr?: OutSink;
  maxSteps?: number;
  stats?: boolean;
  args?: string[];
  /** Extra or replacement external functions, by name. */
  externals?: Record<string, ExternalFn>;
}

export interface RunStats {
  total: number;
  byOpcode: Record<string, number>;
}

export interface RunResult {
  exitCode: number;
  stdout?: string;
  stdoutBytes?: Buffer;
  stderr?: string;
  stderrBytes?: Buffer;
  stats?: RunStats;
}

/** Runs `module` from main. See the file comment for the contract. */
export function runModule(module: Module, opts: RunOptions = {}): RunResult {
  return new Interpreter(module, opts).run();
}

/**
 * Calls function `name` of `module` with interpreter values (integers ≤ 32 bits as signed
 * numbers, i1 as 0/1, wider ones as numbers or bigints, floats as numbers, pointers as
 * numbers) and returns its result in `value`. For unit tests and tools.
 */
export function callFunction(module: Module, name: string, args: unknown[], opts: RunOptions = {}): RunResult & { value: unknown } {
  const it = new Interpreter(module, opts);
  const value = it.call(name, args);
  return { ...it.finish(0), value };
}

/**
 * A loaded module with its memory and streams: `run()` runs main once; `call()` calls any
 * function, any number of times (globals keep their state between calls).
 */
export class Interpreter {
  private readonly S: Machine;
  private readonly lm: LoadedModule;
  private readonly out: OutStream;
  private readonly err: OutStream;

  constructor(
    readonly module: Module,
    private readonly opts: RunOptions = {},
  ) {
    this.out = new OutStream(opts.stdout ?? 'collect', 1);
    this.err = new OutStream(opts.stderr ?? 'inherit', 2);
    const inp = new InStream(opts.stdin === undefined ? undefined : opts.stdin);
    const S = (this.S = new Machine(this.out, this.err, inp));
    const limited = opts.maxSteps !== undefined && Number.isFinite(opts.maxSteps);
    if (limited) {
      S.maxSteps = opts.maxSteps!;
      S.budget = opts.maxSteps!;
    }
    const externals = opts.externals ? { ...DEFAULT_EXTERNALS, ...opts.externals } : DEFAULT_EXTERNALS;
    this.lm = new LoadedModule(S, module, limited, externals);
  }

  /** Runs main (with argc/argv when it takes them) and the exit handlers. */
  run(): RunResult {
    const main = this.module.getFunction('main');
    if (main === undefined || main.isDeclaration()) throw new InterpError('the module has no definition of @main');
    const S = this.S;
    let exitCode = 0;
    this.guard(() => {
      try {
        for (const f of this.structors('llvm.global_ctors')) S.call(this.lm.fnIndex(f), []);
        const args = mainArgs(S, main.fnType.params.length, this.opts.args ?? []);
        const rv = S.call(this.lm.fnIndex(main), args);
        exitCode = mainResult(rv, main.returnType.kind === TypeKind.Int);
      } catch (e) {
        if (!(e instanceof ExitSignal)) throw e;
        exitCode = e.code;
        this.noteStop(S.site);
      }
      this.unwind();
      try {
        runAtExit(S);
        for (const f of this.structors('llvm.global_dtors')) S.call(this.lm.fnIndex(f), []);
      } catch (e) {
        if (!(e instanceof ExitSignal)) throw e;
        exitCode = e.code;
        this.unwind();
      }
    });
    return this.finish(exitCode);
  }

  /** The functions of @llvm.global_ctors / @llvm.global_dtors, by priority (as lli runs them). */
  private structors(name: string): Function[] {
    const g = this.module.getGlobal(name);
    const init = g?.initializer;
    if (init === undefined || init === null || init.kind !== ValueKind.ConstantArray) return [];
    const list: [number, number, Function][] = [];
    (init as ConstantAggregate).elements.forEach((e, k) => {
      if (e.kind !== ValueKind.ConstantStruct) return;
      const [prio, fn] = (e as ConstantAggregate).elements;
      if (fn === undefined || fn.kind !== ValueKind.Function) return;
      list.push([prio.kind === ValueKind.ConstantInt ? Number((prio as ConstantInt).value) : 65535, k, fn as unknown as Function]);
    });
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return list.map((x) => x[2]);
  }

  /** Calls a function; exit() inside it throws an InterpError naming the exit code. */
  call(name: string, args: unknown[]): unknown {
    const f = this.module.getFunction(name);
    if (f === undefined) throw new InterpError(`the module has no function @${name}`);
    let value: unknown;
    this.guard(() => {
      try {
        value = this.S.call(this.lm.fnIndex(f), args);
      } catch (e) {
        if (!(e instanceof ExitSignal)) throw e;
        this.unwind();
        throw new Fault(`exit(${e.code}) called`, -1);
      }
    });
    return value;
  }

  private stopFn = -1;
  private stopSite = -1;

  private noteStop(site: number): void {
    const S = this.S;
    if (S.depth > 0 && site >= 0) {
      this.stopFn = S.frames[S.depth].info!.index;
      this.stopSite = site;
    }
  }

  /** Pops every frame (after an exit or a fault). */
  private unwind(): void {
    const S = this.S;
    S.depth = 0;
    S.mem.popAllocas(0, 0, 0);
  }

  /** Runs `body`, turning faults into located InterpErrors (with output and stats). */
  private guard(body: () => void): void {
    const S = this.S;
    let fault: Fault | null = null;
    try {
      body();
    } catch (e) {
      if (e instanceof Fault) fault = e;
      else if (e instanceof RangeError && /call stack|Maximum call/i.test(e.message)) fault = new Fault('JS stack exhausted (deeply nested callbacks?)', -1);
      else throw e;
    }
    if (fault === null) return;
    let where = '';
    const site = fault.site >= 0 ? fault.site : S.site;
    if (S.depth > 0) {
      const info = S.frames[S.depth].info!;
      where = ' ' + locate(info.fn, fault.fnOnly || site < 0 ? null : info.insts[site] ?? null);
      if (!fault.fnOnly) this.noteStop(site);
    }
    this.unwind();
    const ie = new InterpError(fault.message + where);
    const r = this.finish(1);
    ie.stdout = r.stdout;
    ie.stdoutBytes = r.stdoutBytes;
    ie.stderr = r.stderr;
    ie.stderrBytes = r.stderrBytes;
    ie.stats = computeStats(S, this.stopFn, this.stopSite);
    throw ie;
  }

  /** Flushes the streams and assembles the result. */
  finish(exitCode: number): RunResult {
    const r: RunResult = { exitCode };
    this.out.flush();
    this.err.flush();
    if ((this.opts.stdout ?? 'collect') === 'collect') {
      r.stdoutBytes = this.out.collected();
      r.stdout = decodeUtf8(r.stdoutBytes);
    }
    if (this.opts.stderr === 'collect') {
      r.stderrBytes = this.err.collected();
      r.stderr = decodeUtf8(r.stderrBytes);
    }
    if (this.opts.stats) r.stats = computeStats(this.S, this.stopFn, this.stopSite);
    return r;
  }
}

function mainResult(rv: unknown, isInt: boolean): number {
  if (!isInt) return 0;
  if (typeof rv === 'number') return rv & 255;
  if (typeof rv === 'bigint') return Number(BigInt.asUintN(8, rv));
  return 0;
}

function runAtExit(S: Machine): void {
  const fns = (S.lib.atexit as number[] | undefined) ?? [];
  S.lib.atexit = [];
  for (let k = fns.length - 1; k >= 0; k--) S.call(fns[k], []);
  for (const f of S.atExit) f();
}

/** argc/argv (and envp) for main: argv = {"prog", args..., NULL}. */
function mainArgs(S: Machine, nParams: number, args: string[]): unknown[] {
  if (nParams === 0) return [];
  const M = S.mem;
  const strs = ['prog', ...args];
  const argvId = M.allocOwned(8 * (strs.length + 1), AK.Global, 'argv');
  strs.forEach((s, k) => {
    const bytes = encodeUtf8(s + '\0');
    const id = M.allocOwned(bytes.length, AK.Global, `argv[${k}]`);
    M.u8[id].set(bytes);
    const p = id * ID_UNIT;
    M.dv[argvId].setUint32(8 * k, p >>> 0, true);
    M.dv[argvId].setUint32(8 * k + 4, Math.floor(p / TWO32), true);
  });
  const out: unknown[] = [strs.length, argvId * ID_UNIT];
  if (nParams >= 3) out.push(M.allocOwned(8, AK.Global, 'envp') * ID_UNIT);
  return out;
}

function computeStats(S: Machine, stopFn: number, stopSite: number): RunStats {
  const counts = new Float64Array(S.opNames.length);
  for (const info of S.fns) {
    const c = info.counts;
    for (let s = 0; s < c.length; s++) {
      const n = c[s];
      if (n === 0) continue;
      const ops = info.segOps[s];
      for (let k = 0; k < ops.length; k += 2) counts[ops[k]] += n * ops[k + 1];
    }
  }
  // the segment where the run stopped was counted whole: take back what did not run
  if (stopFn >= 0 && stopSite >= 0) {
    const info = S.fns[stopFn];
    const insts = info.insts;
    const nAfter = info.after[stopSite] ?? 0;
    for (let k = 1; k <= nAfter; k++) {
      const key = S.opNames.indexOf(insts[stopSite + k].opcodeName);
      if (key >= 0) counts[key]--;
    }
  }
  const byOpcode: Record<string, number> = {};
  let total = 0;
  const order = S.opNames.map((n, k) => [n, counts[k]] as [string, number]).filter(([, n]) => n > 0);
  order.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [n, c] of order) {
    byOpcode[n] = c;
    total += c;
  }
  return { total, byOpcode };
}

/** The `--stats` report: a total line, then one line per opcode by decreasing count. */
export function formatStats(stats: RunStats): string {
  let s = `instructions executed: ${stats.total}\n`;
  for (const [op, n] of Object.entries(stats.byOpcode)) s += `  ${op}: ${n}\n`;
  return s;
}

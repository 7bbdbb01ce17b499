/**
 * The machine: memory, streams, the explicit call stack, and the driver loop.
 *
 * Calls between IR functions never recurse in JS: compiled code for a function runs one
 * activation until it calls an IR function or returns. A call saves the values live across
 * it into the frame (`sv`), sets the frame's resume point (`pc`), pushes the callee's frame
 * and returns to `drive`, which then runs the top frame. A return pops the frame, leaves
 * the result in `rv`, and the caller's code resumes at its `pc`. Frames are pooled per
 * depth, so a call allocates nothing; 100,000-deep recursion is just a long `frames` array.
 */
import type { Function } from '../ir/function.js';
import type { Instruction } from '../ir/instruction.js';
import { ExitSignal, Fault } from './errors.js';
import type { InStream, OutStream } from './io.js';
import { Memory, ID_UNIT, AK } from './memory.js';

export type Code = (S: Machine, fr: Frame) => void;
/** An external (libc, SysY runtime) function: receives the machine and the argument values. */
export type ExternalFn = (S: Machine, args: unknown[]) => unknown;

/** Per-function compiled form and the static data the driver and the stats need. */
export class FnInfo {
  code: Code | null = null;
  /** Executions of each segment (a block, split after each call to an IR function). */
  counts: Float64Array = new Float64Array(0);
  /** Per segment: flat pairs [opcodeKey, n, opcodeKey, n, …] (keys index Machine.opNames). */
  segOps: Int32Array[] = [];
  /** Instructions by site number (for messages). */
  insts: Instruction[] = [];
  /** For each site: how many instructions of its segment come after it (stats on early exit). */
  after: Int32Array = new Int32Array(0);
  /** For each site: its segment. */
  instSeg: Int32Array = new Int32Array(0);
  /** Address of the function (its function-pointer value). */
  addr = 0;
  /** For declarations: the implementation (or a stub raising "unknown external"). */
  external: ExternalFn | null = null;
  constructor(
    readonly fn: Function,
    readonly index: number,
  ) {}
}

export class Frame {
  code: Code = noCode;
  info: FnInfo | null = null;
  pc = 0;
  /** Arguments (fixed then variadic). */
  a: unknown[] = [];
  /** Type codes of the variadic arguments (for va_start), or null. */
  va: Int8Array | null = null;
  /** Values live across the pending call. */
  sv: unknown[] = [];
  /** SSA values of a huge function (see MAX_JS_LOCALS in codegen.ts), per activation. */
  x: unknown[] | undefined = undefined;
  allocaMark = 0;
  sc = 0;
  sp = 0;
}

function noCode(): void {
  throw new Error('frame without code');
}

const MAX_DEPTH = 2_000_000;

export class Machine {
  readonly mem = new Memory();
  readonly frames: Frame[] = [new Frame()];
  depth = 0;
  /** The value the last returning function produced. */
  rv: unknown = undefined;
  /** Site of the external call in progress (locates faults raised by libc). */
  site = -1;
  /** Instructions left before the step limit (checked at each segment entry when a limit is set). */
  budget = Infinity;
  maxSteps = Infinity;
  fns: FnInfo[] = [];
  /** Compiles a function on first call. */
  compile: (info: FnInfo) => void = () => {
    throw new Error('no compiler');
  };
  /** Opcode names by key for stats ('call' for calls, etc.). */
  opNames: string[] = [];
  /** Values attached by the runtime library (rand state, SysY timers, FILE ids, …). */
  readonly lib: Record<string, unknown> = {};
  /** Called at exit (flushes, SysY timer report). */
  readonly atExit: (() => void)[] = [];
  /** Relocations recorded in constant tables: address of an i32 slot → full pointer difference (llvm.load.relative). */
  readonly relocs = new Map<number, number>();

  constructor(
    readonly out: OutStream,
    readonly err: OutStream,
    readonly inp: InStream,
  ) {}

  /** Pushes a frame for function `fi` (arguments are filled in by the caller). */
  push(fi: number): Frame {
    const d = ++this.depth;
    if (d >= MAX_DEPTH) {
      this.depth--;
      throw new Fault(`stack overflow: call depth exceeds ${MAX_DEPTH}`, -1);
    }
    let fr = this.frames[d];
    if (fr === undefined) {
      fr = new Frame();
      this.frames.push(fr);
    }
    const info = this.fns[fi];
    if (info.code === null) this.compile(info);
    fr.code = info.code!;
    fr.info = info;
    fr.pc = 0;
    fr.va = null;
    fr.x = undefined;
    const m = this.mem;
    fr.allocaMark = m.allocaTop;
    fr.sc = m.sc;
    fr.sp = m.sp;
    return fr;
  }

  /** Returns from the top frame with value v. */
  ret(v: unknown): void {
    this.rv = v;
    const fr = this.frames[this.depth];
    const m = this.mem;
    if (m.allocaTop !== fr.allocaMark || m.sp !== fr.sp || m.sc !== fr.sc) m.popAllocas(fr.allocaMark, fr.sc, fr.sp);
    this.depth--;
  }

  /** Runs the frames above `base` until they have all returned. */
  drive(base: number): void {
    const frames = this.frames;
    while (this.depth > base) {
      const fr = frames[this.depth];
      fr.code(this, fr);
    }
  }

  /**
   * Calls function `fi` with `args` and runs it to completion (nested driver loop: used for
   * main and for callbacks from the runtime library such as qsort's comparator).
   */
  call(fi: number, args: unknown[], va: Int8Array | null = null): unknown {
    const base = this.depth;
    const info = this.fns[fi];
    if (info.external !== null) return info.external(this, args);
    const fr = this.push(fi);
    const a = fr.a;
    for (let i = 0; i < args.length; i++) a[i] = args[i];
    fr.va = va;
    this.drive(base);
    return this.rv;
  }

  /** The function index a function pointer designates, or a fault. */
  fnIndexOf(p: number, site: number): number {
    const id = Math.floor(p / ID_UNIT);
    const m = this.mem;
    if (p - id * ID_UNIT === 0 && id > 0 && id < m.next && m.kind[id] === AK.Function) return m.fnIndex[id];
    throw new Fault(`call through ${p === 0 ? 'a null function pointer' : `a pointer that is not a function (${describePtr(m, p)})`}`, site);
  }

  /**
   * An indirect call from compiled code: pushes the callee's frame (IR function) or runs the
   * external function and leaves its result in rv. Either way the caller returns to the driver.
   */
  callPtr(p: number, args: unknown[], va: Int8Array | null, site: number): void {
    const fi = this.fnIndexOf(p, site);
    const info = this.fns[fi];
    if (info.external !== null) {
      this.site = site;
      this.rv = info.external(this, args);
      return;
    }
    const fr = this.push(fi);
    const a = fr.a;
    for (let i = 0; i < args.length; i++) a[i] = args[i];
    fr.va = va;
  }

  /** llvm.stacksave: a token encoding the alloca stack position (allocaTop, chunk, offset). */
  stackSave(): number {
    const m = this.mem;
    return (m.allocaTop * 1024 + m.sc) * 2097152 + m.sp;
  }
  /** llvm.stackrestore: frees the allocas made since the matching stacksave. */
  stackRestore(tok: number): void {
    const sp = tok % 2097152;
    const rest = (tok - sp) / 2097152;
    const sc = rest % 1024;
    const top = (rest - sc) / 1024;
    const m = this.mem;
    if (top <= m.allocaTop && top >= this.frames[this.depth].allocaMark) m.popAllocas(top, sc, sp);
  }

  divz(site: number): never {
    throw new Fault('integer division by zero', site);
  }
  trap(msg: string, site: number): never {
    throw new Fault(msg, site);
  }
  outOfSteps(site: number): never {
    throw new Fault(`step limit of ${this.maxSteps} instructions exceeded`, site, true);
  }
  exit(code: number): never {
    throw new ExitSignal(code & 255);
  }
}

function describePtr(m: Memory, p: number): string {
  const id = Math.floor(p / ID_UNIT);
  if (id <= 0 || id >= m.next) return `invalid pointer 0x${p.toString(16)}`;
  return `pointer into ${m.describe(id)}`;
}

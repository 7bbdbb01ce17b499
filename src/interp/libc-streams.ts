/**
 * The stdio plumbing of the interpreter's libc (split from libc.ts): which output stream a
 * FILE* designates, stdin as a scanf source, printf's arguments from an argument array or
 * from an x86-64 va_list (its gp/fp register save areas, then the overflow area), and
 * reading and writing C strings.
 *
 * Invariants: a va_list is read in the register class of each conversion, which is why a
 * format is pre-scanned (conversionKinds) before vprintf reads any argument; strings are
 * read through the checked accessors, so a bad pointer faults at SITE.
 */
import { ExitSignal, Fault } from './errors.js';
import type { Machine } from './machine.js';
import { formatPrintf, type PrintfEnv } from './printf.js';
import { type ScanSource } from './scanf.js';
import type { OutStream } from './io.js';
import { SITE, num } from './libc-args.js';

// ---- streams ------------------------------------------------------------------------------

export interface FileIds {
  stdin: number;
  stdout: number;
  stderr: number;
}

export function files(S: Machine): FileIds {
  return S.lib.files as FileIds;
}

/** The output stream a FILE* designates. */
export function outFor(S: Machine, f: unknown): OutStream {
  const fp = num(f);
  const fs = files(S);
  if (fp === fs.stdout) return S.out;
  if (fp === fs.stderr) {
    S.out.flush();
    return S.err;
  }
  throw new Fault(fp === 0 ? 'write to a NULL FILE*' : 'write to a FILE* other than stdout/stderr (files are not supported)', SITE);
}
export function checkIn(S: Machine, f: unknown): void {
  const fp = num(f);
  if (fp !== files(S).stdin) throw new Fault(fp === 0 ? 'read from a NULL FILE*' : 'read from a FILE* other than stdin (files are not supported)', SITE);
}

export class StdinSource implements ScanSource {
  private start: number;
  constructor(private readonly S: Machine) {
    this.start = S.inp.pos;
  }
  peek(): number {
    return this.S.inp.peek();
  }
  get(): number {
    return this.S.inp.getc();
  }
  get consumed(): number {
    return this.S.inp.pos - this.start;
  }
}

/** printf arguments from an argument array (direct variadic call). */
export class ArrayArgs implements PrintfEnv {
  constructor(
    private readonly S: Machine,
    private readonly args: unknown[],
    private k: number,
  ) {}
  arg(): unknown {
    return this.k < this.args.length ? this.args[this.k++] : 0;
  }
  str(p: number, max: number): string {
    return cstr(this.S, p, max);
  }
}

/** printf arguments from an x86-64 va_list (vprintf and friends). */
export class VaListArgs implements PrintfEnv {
  constructor(
    private readonly S: Machine,
    private readonly ap: number,
  ) {}
  arg(kind?: string): unknown {
    const M = this.S.mem;
    const ap = this.ap;
    if (kind === 'd') {
      const fo = M.ld32(ap + 4, SITE);
      if (fo < 176) {
        const v = M.ldf64(M.ldp(ap + 16, SITE) + fo, SITE);
        M.st32(ap + 4, fo + 16, SITE);
        return v;
      }
      const area = M.ldp(ap + 8, SITE);
      M.stp(ap + 8, area + 8, SITE);
      return M.ldf64(area, SITE);
    }
    const go = M.ld32(ap, SITE);
    let p: number;
    if (go < 48) {
      p = M.ldp(ap + 16, SITE) + go;
      M.st32(ap, go + 8, SITE);
    } else {
      p = M.ldp(ap + 8, SITE);
      M.stp(ap + 8, p + 8, SITE);
    }
    return M.ld64(p, SITE);
  }
  str(p: number, max: number): string {
    return cstr(this.S, p, max);
  }
}

/** A string argument, bounded by max bytes when max ≥ 0 (no NUL needed within them). */
export function cstr(S: Machine, p: number, max: number): string {
  if (max < 0) return S.mem.cstring(p, SITE, 'printf %s reading');
  const M = S.mem;
  const avail = M.readableFrom(p);
  if (avail < 0) M.fault(p, 1, 'printf %s reading', SITE);
  const o = M.check(p, Math.min(avail, max), false, 'printf %s reading', SITE);
  const u = M.ru8;
  let s = '';
  for (let k = 0; k < max; k++) {
    if (k >= avail) M.fault(p, avail + 1, 'printf %s reading', SITE);
    const c = u[o + k];
    if (c === 0) break;
    s += String.fromCharCode(c);
  }
  return s;
}

export function vaFormat(S: Machine, fmtP: unknown, env: PrintfEnv): string {
  const fmt = S.mem.cstring(num(fmtP), SITE, 'printf reading the format');
  try {
    return formatPrintf(fmt, env);
  } catch (e) {
    if (e instanceof Fault || e instanceof ExitSignal) throw e;
    throw new Fault((e as Error).message, SITE);
  }
}

/** printf over a va_list: the format is pre-scanned so each argument is read from its register class. */
export function vformat(S: Machine, fmtP: unknown, ap: unknown): string {
  const fmt = S.mem.cstring(num(fmtP), SITE, 'printf reading the format');
  const va = new VaListArgs(S, num(ap));
  const kinds = conversionKinds(fmt);
  let k = 0;
  const typed: PrintfEnv = {
    arg: () => va.arg(kinds[k++] ?? 'i'),
    str: (p, m) => va.str(p, m),
  };
  try {
    return formatPrintf(fmt, typed);
  } catch (e) {
    if (e instanceof Fault) throw e;
    throw new Fault((e as Error).message, SITE);
  }
}

/** The argument classes a printf format consumes, in order ('d' double, 'i' integer/pointer). */
export function conversionKinds(fmt: string): string[] {
  const out: string[] = [];
  const re = /%([-+ #0'I]*)(\*|\d+)?(?:\.(\*|\d+)?)?(hh|h|ll|l|L|j|z|t|q)?([a-zA-Z%])/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(fmt)) !== null) {
    if (m[5] === '%') continue;
    if (m[2] === '*') out.push('i');
    if (m[3] === '*') out.push('i');
    out.push('fFeEgGaA'.includes(m[5]) ? 'd' : 'i');
  }
  return out;
}

export function writeStr(S: Machine, dst: number, s: string, limit: number): void {
  // limit: bytes available including the NUL (−1: unlimited)
  let t = s;
  if (limit === 0) return;
  if (limit > 0 && t.length >= limit) t = t.slice(0, limit - 1);
  const bytes = new Uint8Array(t.length + 1);
  for (let k = 0; k < t.length; k++) bytes[k] = t.charCodeAt(k);
  S.mem.writeBytes(dst, bytes, SITE, 'sprintf writing');
}

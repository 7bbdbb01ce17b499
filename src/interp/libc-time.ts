/**
 * time.h and sys/time.h for the interpreter, on a deterministic clock, so that a program's
 * output does not depend on when or how fast it runs (benchmarks print their timings; the
 * differential tests need the same bytes every run).
 *
 * The clock: the run starts at 2000-01-01 00:00:00 UTC (946684800 s since the epoch) with
 * zero CPU time used, and every query of any clock (time, clock, gettimeofday,
 * clock_gettime, times) advances it by exactly one millisecond before reading it. So
 * successive readings are strictly increasing (a loop waiting for time to pass ends) and
 * the wall clock and the CPU clock move together. The time zone is UTC: localtime is
 * gmtime, `%Z` prints "UTC" (a sandbox sees no TZ and no /etc/localtime).
 *
 * Layouts are glibc's on x86-64: time_t, clock_t, suseconds_t and long are 8 bytes;
 * struct timeval and struct timespec are two 8-byte fields; struct tms four clock_t;
 * struct tm is nine ints, then long tm_gmtoff and const char *tm_zone (56 bytes).
 * CLOCKS_PER_SEC is 1000000, sysconf(_SC_CLK_TCK) 100.
 */
import { Fault } from './errors.js';
import type { ExternalFn, Machine } from './machine.js';
import { AK, ID_UNIT } from './memory.js';

const SITE = -1;
/** 2000-01-01 00:00:00 UTC. */
export const CLOCK_START_SECONDS = 946684800;
/** Microseconds each clock query advances the clock by. */
export const CLOCK_TICK_US = 1000;

function num(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : 0;
}
function i32(v: unknown): number {
  return typeof v === 'number' ? v | 0 : typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : 0;
}

/** Advances the virtual clock by one tick; returns the microseconds elapsed since the start. */
function tick(S: Machine): number {
  const us = ((S.lib.clockUs as number | undefined) ?? 0) + CLOCK_TICK_US;
  S.lib.clockUs = us;
  return us;
}

/** A static buffer of `n` bytes owned by the library (localtime's struct tm, …), made once per run. */
function staticBuffer(S: Machine, key: string, n: number): number {
  let p = S.lib[key] as number | undefined;
  if (p === undefined) S.lib[key] = p = S.mem.allocOwned(n, AK.Global, key) * ID_UNIT;
  return p;
}

function staticString(S: Machine, key: string, s: string): number {
  let p = S.lib[key] as number | undefined;
  if (p === undefined) {
    S.lib[key] = p = S.mem.allocOwned(s.length + 1, AK.Global, key) * ID_UNIT;
    const b = new Uint8Array(s.length + 1);
    for (let k = 0; k < s.length; k++) b[k] = s.charCodeAt(k);
    S.mem.writeBytes(p, b, SITE);
  }
  return p;
}

// ---- broken-down time ----------------------------------------------------------------------

interface Tm {
  sec: number;
  min: number;
  hour: number;
  mday: number;
  mon: number;
  year: number; // since 1900
  wday: number;
  yday: number;
  isdst: number;
}

const DAY = 86400;

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days from 1970-01-01 to y-m-d (proleptic Gregorian; m 1..12), Howard Hinnant's days_from_civil. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** gmtime: seconds since the epoch to broken-down UTC time; null when the year does not fit an int. */
function breakDown(t: number): Tm | null {
  const days = Math.floor(t / DAY);
  const rem = t - days * DAY;
  // civil_from_days
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  let y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) y++;
  if (y - 1900 > 2147483647 || y - 1900 < -2147483648) return null;
  const yday = days - daysFromCivil(y, 1, 1);
  return {
    sec: rem % 60,
    min: Math.floor(rem / 60) % 60,
    hour: Math.floor(rem / 3600),
    mday: d,
    mon: m - 1,
    year: y - 1900,
    wday: (((days + 4) % 7) + 7) % 7,
    yday,
    isdst: 0,
  };
}

function readTm(S: Machine, p: number): Tm {
  const M = S.mem;
  return {
    sec: M.ld32(p, SITE),
    min: M.ld32(p + 4, SITE),
    hour: M.ld32(p + 8, SITE),
    mday: M.ld32(p + 12, SITE),
    mon: M.ld32(p + 16, SITE),
    year: M.ld32(p + 20, SITE),
    wday: M.ld32(p + 24, SITE),
    yday: M.ld32(p + 28, SITE),
    isdst: M.ld32(p + 32, SITE),
  };
}

function writeTm(S: Machine, p: number, tm: Tm): number {
  const M = S.mem;
  M.st32(p, tm.sec, SITE);
  M.st32(p + 4, tm.min, SITE);
  M.st32(p + 8, tm.hour, SITE);
  M.st32(p + 12, tm.mday, SITE);
  M.st32(p + 16, tm.mon, SITE);
  M.st32(p + 20, tm.year, SITE);
  M.st32(p + 24, tm.wday, SITE);
  M.st32(p + 28, tm.yday, SITE);
  M.st32(p + 32, tm.isdst, SITE);
  M.st32(p + 36, 0, SITE); // padding
  M.st64(p + 40, 0, SITE); // tm_gmtoff: UTC
  M.stp(p + 48, staticString(S, 'tzname.UTC', 'UTC'), SITE);
  return p;
}

function timeArg(S: Machine, p: unknown): number {
  return num(S.mem.ld64(num(p), SITE));
}

/** gmtime_r / localtime_r into `out`; NULL (0) when the year overflows, as glibc (EOVERFLOW). */
function toTm(S: Machine, tp: unknown, out: number): number {
  const tm = breakDown(timeArg(S, tp));
  return tm === null ? 0 : writeTm(S, out, tm);
}

/** mktime: normalizes the fields (as glibc: seconds into minutes, … months into years), fills wday/yday. */
function mktimeImpl(S: Machine, p: number): number {
  const tm = readTm(S, p);
  // month normalization first (days depend on it), then everything as seconds
  const y = 1900 + tm.year + Math.floor(tm.mon / 12);
  const mon = ((tm.mon % 12) + 12) % 12;
  const t = (daysFromCivil(y, mon + 1, 1) + tm.mday - 1) * DAY + tm.hour * 3600 + tm.min * 60 + tm.sec;
  const b = breakDown(t);
  if (b === null) return -1;
  writeTm(S, p, b);
  return t;
}

// ---- strftime ------------------------------------------------------------------------------

const WDAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pad(n: number, w: number, c = '0'): string {
  const neg = n < 0;
  let s = String(Math.abs(n));
  while (s.length < w) s = c + s;
  return neg ? '-' + s : s;
}

/** ISO 8601 week-based year and week number (%G, %V). */
function isoWeek(tm: Tm): { year: number; week: number } {
  const y = tm.year + 1900;
  const wdayMon = (tm.wday + 6) % 7; // Monday = 0
  let week = Math.floor((tm.yday - wdayMon + 10) / 7);
  if (week < 1) {
    const py = y - 1;
    const pyDays = isLeap(py) ? 366 : 365;
    return { year: py, week: Math.floor((tm.yday + pyDays - wdayMon + 10) / 7) };
  }
  const days = isLeap(y) ? 366 : 365;
  if (week === 53 && tm.yday - wdayMon + 3 >= days) return { year: y + 1, week: 1 };
  return { year: y, week };
}

function strftimeText(fmt: string, tm: Tm): string {
  let out = '';
  const name = (arr: string[], k: number, n: number): string => (k >= 0 && k < arr.length ? arr[k]!.slice(0, n) : '?');
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i]!;
    if (ch !== '%') {
      out += ch;
      continue;
    }
    let c = fmt[++i];
    // the E and O modifiers select alternative representations: the C locale has none
    if (c === 'E' || c === 'O') c = fmt[++i];
    const y = tm.year + 1900;
    const h12 = tm.hour % 12 === 0 ? 12 : tm.hour % 12;
    switch (c) {
      case 'a': out += name(WDAY, tm.wday, 3); break;
      case 'A': out += name(WDAY, tm.wday, 99); break;
      case 'b': case 'h': out += name(MONTH, tm.mon, 3); break;
      case 'B': out += name(MONTH, tm.mon, 99); break;
      case 'c': out += `${name(WDAY, tm.wday, 3)} ${name(MONTH, tm.mon, 3)} ${pad(tm.mday, 2, ' ')} ${pad(tm.hour, 2)}:${pad(tm.min, 2)}:${pad(tm.sec, 2)} ${y}`; break;
      case 'C': out += String(Math.floor(y / 100)); break; // glibc pads the year fields only on request
      case 'd': out += pad(tm.mday, 2); break;
      case 'D': out += `${pad(tm.mon + 1, 2)}/${pad(tm.mday, 2)}/${pad(((y % 100) + 100) % 100, 2)}`; break;
      case 'e': out += pad(tm.mday, 2, ' '); break;
      case 'F': out += `${y}-${pad(tm.mon + 1, 2)}-${pad(tm.mday, 2)}`; break;
      case 'g': out += pad(((isoWeek(tm).year % 100) + 100) % 100, 2); break;
      case 'G': out += String(isoWeek(tm).year); break;
      case 'H': out += pad(tm.hour, 2); break;
      case 'I': out += pad(h12, 2); break;
      case 'j': out += pad(tm.yday + 1, 3); break;
      case 'k': out += pad(tm.hour, 2, ' '); break;
      case 'l': out += pad(h12, 2, ' '); break;
      case 'm': out += pad(tm.mon + 1, 2); break;
      case 'M': out += pad(tm.min, 2); break;
      case 'n': out += '\n'; break;
      case 'p': out += tm.hour >= 12 ? 'PM' : 'AM'; break;
      case 'P': out += tm.hour >= 12 ? 'pm' : 'am'; break;
      case 'r': out += `${pad(h12, 2)}:${pad(tm.min, 2)}:${pad(tm.sec, 2)} ${tm.hour >= 12 ? 'PM' : 'AM'}`; break;
      case 'R': out += `${pad(tm.hour, 2)}:${pad(tm.min, 2)}`; break;
      case 's': out += String((daysFromCivil(y, tm.mon + 1, 1) + tm.mday - 1) * DAY + tm.hour * 3600 + tm.min * 60 + tm.sec); break;
      case 'S': out += pad(tm.sec, 2); break;
      case 't': out += '\t'; break;
      case 'T': out += `${pad(tm.hour, 2)}:${pad(tm.min, 2)}:${pad(tm.sec, 2)}`; break;
      case 'u': out += String(tm.wday === 0 ? 7 : tm.wday); break;
      case 'U': out += pad(Math.floor((tm.yday + 7 - tm.wday) / 7), 2); break;
      case 'V': out += pad(isoWeek(tm).week, 2); break;
      case 'w': out += String(tm.wday); break;
      case 'W': out += pad(Math.floor((tm.yday + 7 - ((tm.wday + 6) % 7)) / 7), 2); break;
      case 'x': out += `${pad(tm.mon + 1, 2)}/${pad(tm.mday, 2)}/${pad(((y % 100) + 100) % 100, 2)}`; break;
      case 'X': out += `${pad(tm.hour, 2)}:${pad(tm.min, 2)}:${pad(tm.sec, 2)}`; break;
      case 'y': out += pad(((y % 100) + 100) % 100, 2); break;
      case 'Y': out += String(y); break;
      case 'z': out += '+0000'; break;
      case 'Z': out += 'UTC'; break;
      case '%': out += '%'; break;
      case undefined: out += '%'; break;
      default:
        throw new Fault(`strftime: the conversion %${c} is not supported by ssakit's interpreter`, SITE);
    }
  }
  return out;
}

function asctimeText(tm: Tm): string {
  return `${WDAY[tm.wday]?.slice(0, 3) ?? '???'} ${MONTH[tm.mon]?.slice(0, 3) ?? '???'} ${pad(tm.mday, 2, ' ')} ${pad(tm.hour, 2)}:${pad(tm.min, 2)}:${pad(tm.sec, 2)} ${tm.year + 1900}\n`;
}

function putString(S: Machine, p: number, s: string): number {
  const b = new Uint8Array(s.length + 1);
  for (let k = 0; k < s.length; k++) b[k] = s.charCodeAt(k) & 255;
  S.mem.writeBytes(p, b, SITE, 'writing a time string');
  return p;
}

// ---- the functions ---------------------------------------------------------------------------

export const LIBC_TIME: Record<string, ExternalFn> = {
  time: (S, a) => {
    const t = CLOCK_START_SECONDS + Math.floor(tick(S) / 1e6);
    if (num(a[0]) !== 0) S.mem.st64(num(a[0]), t, SITE);
    return t;
  },
  clock: (S) => tick(S),
  gettimeofday: (S, a) => {
    const us = tick(S);
    const tv = num(a[0]);
    if (tv !== 0) {
      S.mem.st64(tv, CLOCK_START_SECONDS + Math.floor(us / 1e6), SITE);
      S.mem.st64(tv + 8, us % 1e6, SITE);
    }
    // the obsolete struct timezone: UTC, no daylight saving time
    const tz = num(a[1]);
    if (tz !== 0) {
      S.mem.st32(tz, 0, SITE);
      S.mem.st32(tz + 4, 0, SITE);
    }
    return 0;
  },
  clock_gettime: (S, a) => {
    const id = i32(a[0]);
    const us = tick(S);
    // CLOCK_REALTIME (0) and its coarse/TAI variants count from the epoch; the monotonic,
    // boot-time and CPU-time clocks from the start of the run
    const epoch = id === 0 || id === 5 || id === 11 ? CLOCK_START_SECONDS : 0;
    const ts = num(a[1]);
    S.mem.st64(ts, epoch + Math.floor(us / 1e6), SITE);
    S.mem.st64(ts + 8, (us % 1e6) * 1000, SITE);
    return 0;
  },
  clock_getres: (S, a) => {
    const ts = num(a[1]);
    if (ts !== 0) {
      S.mem.st64(ts, 0, SITE);
      S.mem.st64(ts + 8, 1, SITE);
    }
    return 0;
  },
  times: (S, a) => {
    const ticks = Math.floor(tick(S) / 10000); // 100 Hz
    const p = num(a[0]);
    if (p !== 0) {
      S.mem.st64(p, ticks, SITE); // tms_utime: all the CPU time is user time
      S.mem.st64(p + 8, 0, SITE);
      S.mem.st64(p + 16, 0, SITE);
      S.mem.st64(p + 24, 0, SITE);
    }
    return ticks;
  },
  sysconf: (S, a) => {
    const name = i32(a[0]);
    if (name === 2) return 100; // _SC_CLK_TCK
    if (name === 30) return 4096; // _SC_PAGESIZE
    if (name === 84 || name === 83) return 1; // _SC_NPROCESSORS_ONLN / _CONF
    return -1;
  },
  difftime: (S, a) => num(a[0]) - num(a[1]),
  gmtime: (S, a) => toTm(S, a[0], staticBuffer(S, 'tm', 56)),
  localtime: (S, a) => toTm(S, a[0], staticBuffer(S, 'tm', 56)),
  gmtime_r: (S, a) => toTm(S, a[0], num(a[1])),
  localtime_r: (S, a) => toTm(S, a[0], num(a[1])),
  mktime: (S, a) => mktimeImpl(S, num(a[0])),
  timegm: (S, a) => mktimeImpl(S, num(a[0])),
  strftime: (S, a) => {
    const dst = num(a[0]);
    const max = num(a[1]);
    const fmt = S.mem.cstring(num(a[2]), SITE, 'strftime reading the format');
    const s = strftimeText(fmt, readTm(S, num(a[3])));
    // glibc: 0 (and unspecified contents) when the result with its NUL does not fit
    if (s.length + 1 > max) return 0;
    putString(S, dst, s);
    return s.length;
  },
  asctime: (S, a) => putString(S, staticBuffer(S, 'asctime', 64), asctimeText(readTm(S, num(a[0])))),
  ctime: (S, a) => {
    const tm = breakDown(timeArg(S, a[0]));
    return tm === null ? 0 : putString(S, staticBuffer(S, 'asctime', 64), asctimeText(tm));
  },
  tzset: () => undefined,
};

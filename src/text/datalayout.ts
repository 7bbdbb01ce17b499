/**
 * Validation of a `target datalayout` string, after LLVM's DataLayout::parseSpecifier
 * (lib/IR/DataLayout.cpp): `-`-separated specifications, each a letter LLVM knows and
 * numbers that fit (bit widths below 2^24). ssakit computes layouts for its own fixed target
 * (ir/layout.ts); this only refuses what llvm-as refuses, with its messages.
 *
 * Invariants: returns the first problem (LLVM's message) or null; never throws.
 */
export function dataLayoutProblem(s: string): string | null {
  if (s === '') return null;
  for (const spec of s.split('-')) {
    if (spec === '') return 'Expected token before separator in datalayout string';
    const c = spec[0];
    const rest = spec.slice(1);
    const nums = (t: string): string | null => {
      for (const part of t.split(':')) {
        if (part === '') continue;
        if (!/^[0-9]+$/.test(part)) return 'not a number, or does not fit in an unsigned int';
        if (Number(part) >= 1 << 24) return 'Invalid bit width, must be a 24-bit integer';
      }
      return null;
    };
    switch (c) {
      case 'e':
      case 'E':
        if (rest !== '') return 'Unknown specifier in datalayout string';
        break;
      case 'm':
        if (!/^:[emoxlwa]$/.test(rest)) return 'Unknown mangling in datalayout string';
        break;
      case 'p':
      case 'i':
      case 'f':
      case 'v':
      case 'a':
      case 'n':
      case 'S':
      case 'A':
      case 'P':
      case 'G': {
        if (c === 'n' && rest.startsWith('i')) {
          // ni:N:M non-integral address spaces
          const e = nums(rest.slice(1));
          if (e !== null) return e;
          break;
        }
        const e = nums(rest);
        if (e !== null) return e;
        if ((c === 'i' || c === 'f' || c === 'v') && !/^[0-9]+:/.test(rest)) return 'Missing alignment specification in datalayout string';
        if (c === 'i' || c === 'f' || c === 'v' || c === 'a' || c === 'p') {
          // the alignments after the size (and, for p, the size too) are bits of whole bytes, powers of two
          const parts = rest.split(':').slice(1);
          for (let k = 0; k < parts.length; k++) {
            const v = Number(parts[k]);
            if (parts[k] === '' || (c === 'p' && (k === 0 || k === 3))) continue;
            if (v % 8 !== 0) return 'number of bits must be a byte width multiple';
            const bytes = v / 8;
            if ((bytes & (bytes - 1)) !== 0) return 'Invalid ABI alignment, must be a power of 2';
          }
        }
        if (c === 'S' && Number(rest) % 8 !== 0) return 'number of bits must be a byte width multiple';
        break;
      }
      case 'F':
        if (!/^[in][0-9]+$/.test(rest)) return 'Unknown function pointer alignment type in datalayout string';
        break;
      default:
        return 'Unknown specifier in datalayout string';
    }
  }
  return null;
}

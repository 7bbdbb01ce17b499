/**
 * The line diff of a step's IR before and after (worker side), as a flat list of chunks the
 * page draws side by side (diff-view.ts).
 *
 * Lines are compared with their value numbers blanked (%12, an unnamed block's `12:`, !3,
 * #0): a pass that deletes one instruction renumbers every unnamed value after it, and a
 * plain line diff then showed a whole function replaced (PRE on a generated program: 79 of
 * 842 lines equal, 0.9 s of Myers in the worker and 0.6 s of drawing). The alignment is the
 * `diff` library's Myers diff (Myers 1986, "An O(ND) Difference Algorithm"; the library of
 * the CLI's --print-changed=diff, so the worker bundle has it already) of the blanked lines.
 * Two aligned lines are then equal only if their numbers correspond: each number before is
 * paired with the number after it meets most often in aligned lines (and the reverse), and a
 * line using any other pairing is a changed line (`%5 = add i32 %3, 1` against
 * `%6 = add i32 %3, 1` where %3 became %4 elsewhere is an operand that changed).
 *
 * Invariants: chunks come in triples [equal, deleted, inserted] in order; equal lines are
 * equal up to a one-to-one renumbering consistent over the whole text; the sums of
 * equal+deleted and equal+inserted are the line counts of before and after. When more than
 * MAX_EDITS lines would change, the middle (after the common head and tail) is one
 * deleted-and-inserted chunk rather than a slow diff.
 */
import { diffArrays } from 'diff';

/** Above this many changed lines the diff gives up on alignment (Myers is O(N·D)). */
const MAX_EDITS = 1000;

/** The lines of an IR text, as the view shows them (a final newline ends the last line). */
export function irLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Value numbers: %12, an unnamed block's label `12:`, metadata !3, attribute groups #0. */
export const NUMBERED = /%\d+\b|^\d+(?=:)|!\d+\b|#\d+\b/g;

const HAS_NUMBER = /%\d|^\d+:|!\d|#\d/;

/** A line with its value numbers blanked (a block label `12:` becomes `#:`). */
export function blankNumbers(line: string): string {
  return line.replace(/([%!#])\d+\b|^\d+(?=:)/g, '$1#');
}

/** The numbers of a line, a block label `12:` written as the value %12. */
export function numbersOf(line: string): string[] {
  const out: string[] = line.match(NUMBERED) ?? [];
  // only the first can be a label
  if (out.length > 0 && /^\d/.test(out[0])) out[0] = `%${out[0]}`;
  return out;
}

/** Collects chunk triples, merging an equal run into a changeless triple and adjacent changes into one. */
class Chunks {
  readonly out: number[] = [];
  push(e: number, d: number, i: number): void {
    const out = this.out;
    if (e > 0) {
      const n = out.length;
      if (n > 0 && out[n - 2] === 0 && out[n - 1] === 0) out[n - 3] += e;
      else out.push(e, 0, 0);
    }
    if (d > 0 || i > 0) {
      if (out.length === 0) out.push(0, 0, 0);
      out[out.length - 2] += d;
      out[out.length - 1] += i;
    }
  }
}

/** The alignment of two line lists by `key`: [equal, deleted, inserted, ...] (equal means equal keys). */
export function alignLines(a: string[], b: string[], key: (line: string) => string = (l) => l): number[] {
  const ka = a.map(key);
  const kb = b.map(key);
  // the common head and tail first: most steps change a few lines of a long function
  let head = 0;
  while (head < ka.length && head < kb.length && ka[head] === kb[head]) head++;
  let tail = 0;
  while (tail < ka.length - head && tail < kb.length - head && ka[ka.length - 1 - tail] === kb[kb.length - 1 - tail]) tail++;
  const c = new Chunks();
  c.push(head, 0, 0);
  const midA = ka.slice(head, ka.length - tail);
  const midB = kb.slice(head, kb.length - tail);
  const changes = midA.length === 0 || midB.length === 0 ? undefined : diffArrays(midA, midB, { maxEditLength: MAX_EDITS });
  if (changes === undefined) c.push(0, midA.length, midB.length);
  else for (const ch of changes) c.push(ch.added || ch.removed ? 0 : ch.count, ch.removed ? ch.count : 0, ch.added ? ch.count : 0);
  c.push(tail, 0, 0);
  return c.out;
}

/** [equal, deleted, inserted, ...] turning `before`'s lines into `after`'s, renumbering aside (see the header). */
export function lineChunks(before: string, after: string): number[] {
  const a = irLines(before);
  const b = irLines(after);
  const aligned = alignLines(a, b, blankNumbers);
  // the pairs of numbers the aligned lines make, and how often, both ways
  const fwd = new Map<string, Map<string, number>>();
  const bwd = new Map<string, Map<string, number>>();
  const count = (pairs: Map<string, Map<string, number>>, x: string, y: string): void => {
    let m = pairs.get(x);
    if (m === undefined) pairs.set(x, (m = new Map()));
    m.set(y, (m.get(y) ?? 0) + 1);
  };
  /** The numbers of the aligned equal lines that have any, by line of `a`. */
  const nums = new Map<number, [string[], string[]]>();
  let i = 0;
  let j = 0;
  for (let c = 0; c < aligned.length; c += 3) {
    for (let k = 0; k < aligned[c]; k++) {
      const x = a[i + k];
      if (!HAS_NUMBER.test(x)) continue;
      const na = numbersOf(x);
      const nb = x === b[j + k] ? na : numbersOf(b[j + k]);
      nums.set(i + k, [na, nb]);
      for (let t = 0; t < na.length; t++) {
        count(fwd, na[t], nb[t]);
        count(bwd, nb[t], na[t]);
      }
    }
    i += aligned[c] + aligned[c + 1];
    j += aligned[c] + aligned[c + 2];
  }
  const best = (pairs: Map<string, Map<string, number>>): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [x, m] of pairs) {
      let top = '';
      let n = 0;
      for (const [y, k] of m) if (k > n || (k === n && y < top)) [top, n] = [y, k];
      out.set(x, top);
    }
    return out;
  };
  const to = best(fwd);
  const from = best(bwd);
  // equal lines stay equal when every number pairs as most lines pair it, both ways
  const out = new Chunks();
  i = 0;
  j = 0;
  for (let c = 0; c < aligned.length; c += 3) {
    for (let k = 0; k < aligned[c]; k++) {
      // (a line of the same text is changed too when its numbers no longer mean the same values)
      const n = nums.get(i + k);
      if (n === undefined || n[0].every((v, t) => to.get(v) === n[1][t] && from.get(n[1][t]) === v)) out.push(1, 0, 0);
      else out.push(0, 1, 1);
    }
    i += aligned[c];
    j += aligned[c];
    out.push(0, aligned[c + 1], aligned[c + 2]);
    i += aligned[c + 1];
    j += aligned[c + 2];
  }
  return out.out;
}

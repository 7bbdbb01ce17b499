/**
 * Sequentializing a parallel copy, after Boissinot, Darte, Rastello, Dupont de Dinechin and
 * Guillon, "Revisiting Out-of-SSA Translation for Correctness, Code Quality, and
 * Efficiency" (CGO 2009), Algorithm 1.
 *
 * A parallel copy (b1, …, bk) ← (a1, …, ak) reads every source before writing any
 * destination. Emitted one copy after the other it may read a location another copy has
 * already overwritten (the "swap problem": a ← b; b ← a loses a). The algorithm emits first
 * every copy whose destination no pending copy still reads (a "ready" location), which may
 * free its source; when no location is ready, the pending copies form disjoint cycles, and
 * one value per cycle is saved in a temporary, which frees a location. So a temporary is
 * used only for cycles, one per cycle.
 *
 * Locations are numbers (0, 1, …). A source is a location (>= 0) or an immutable outside
 * value (encoded -1 - k: never a destination, so never clobbered). Destinations are distinct.
 *
 * Invariants: `where[x]` is where the original value of location x is now (x itself, or a
 * temporary); a location is overwritten only when no pending copy reads it (`readers` 0).
 */

export interface ParallelCopy {
  dst: number;
  /** A location (>= 0) or outside value k (as -1 - k). */
  src: number;
}

/**
 * One step: `copy` dst ← src (src a location, read now, or an outside value), `save`
 * temp ← location, `restore` dst ← temp.
 */
export type CopyStep = { op: 'copy'; dst: number; src: number } | { op: 'save'; temp: number; src: number } | { op: 'restore'; dst: number; temp: number };

/** Told each emitted step and why (the trace of out-of-SSA); null: no cost. */
export type CopyStepHook = (step: CopyStep, why: 'ready' | 'cycle') => void;

export function sequentializeParallelCopy(copies: readonly ParallelCopy[], onStep: CopyStepHook | null = null): CopyStep[] {
  const out: CopyStep[] = [];
  // dense scratch indexed by location number
  let maxLoc = -1;
  for (const c of copies) {
    if (c.dst > maxLoc) maxLoc = c.dst;
    if (c.src > maxLoc) maxLoc = c.src;
  }
  const L = maxLoc + 1;
  const srcOf = new Int32Array(L).fill(-2147483648); // pending copy into x: its source
  const pending = new Uint8Array(L);
  const readers = new Int32Array(L);
  const where = new Int32Array(L); // >= 0: a location; < 0: temporary -1 - t
  for (let x = 0; x < L; x++) where[x] = x;
  let nPending = 0;
  for (const c of copies) {
    if (c.dst < 0) throw new Error('parallel copy: a destination must be a location');
    if (pending[c.dst]) throw new Error(`parallel copy: location ${c.dst} is written twice`);
    if (c.src === c.dst) continue; // a no-op
    pending[c.dst] = 1;
    srcOf[c.dst] = c.src;
    nPending++;
    if (c.src >= 0) readers[c.src]++;
  }
  // a queue (the paper uses a stack; first-in first-out keeps independent copies in order)
  const ready: number[] = [];
  let head = 0;
  for (const c of copies) if (pending[c.dst] && readers[c.dst] === 0) ready.push(c.dst);
  let temps = 0;
  const pendingList = copies.map((c) => c.dst);
  let scan = 0;
  while (nPending > 0) {
    while (head < ready.length) {
      const b = ready[head++];
      const a = srcOf[b];
      if (a < 0) out.push({ op: 'copy', dst: b, src: a });
      else {
        const w = where[a];
        if (w >= 0) out.push({ op: 'copy', dst: b, src: w });
        else out.push({ op: 'restore', dst: b, temp: -1 - w });
      }
      if (onStep !== null) onStep(out[out.length - 1], 'ready');
      pending[b] = 0;
      nPending--;
      if (a >= 0 && --readers[a] === 0 && pending[a]) ready.push(a);
    }
    if (nPending === 0) break;
    // only cycles are left: save one member, which makes it ready
    while (!pending[pendingList[scan]]) scan++;
    const b = pendingList[scan];
    const t = temps++;
    out.push({ op: 'save', temp: t, src: b });
    if (onStep !== null) onStep(out[out.length - 1], 'cycle');
    where[b] = -1 - t;
    readers[b] = 0;
    ready.push(b);
  }
  return out;
}

/** The naive order (each copy in turn, reading sources as they are then): wrong for cycles. */
export function sequentializeNaively(copies: readonly ParallelCopy[]): CopyStep[] {
  const out: CopyStep[] = [];
  for (const c of copies) if (c.src !== c.dst) out.push({ op: 'copy', dst: c.dst, src: c.src });
  return out;
}

/** Runs steps on an array of location contents (outside value k reads `outside[k]`); for tests. */
export function runCopySteps<T>(steps: readonly CopyStep[], locations: T[], outside: readonly T[]): T[] {
  const mem = locations.slice();
  const temps: T[] = [];
  for (const s of steps) {
    if (s.op === 'copy') mem[s.dst] = s.src >= 0 ? mem[s.src] : outside[-1 - s.src];
    else if (s.op === 'save') temps[s.temp] = mem[s.src];
    else mem[s.dst] = temps[s.temp];
  }
  return mem;
}

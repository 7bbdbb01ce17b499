/**
 * Bit vectors for data-flow analysis: one `Uint32Array` holds a row of `words` 32-bit words
 * per block id, so a whole problem's sets live in a few flat arrays.
 */

export class BitMatrix {
  readonly words: number;
  readonly data: Uint32Array;

  constructor(
    readonly rows: number,
    readonly bits: number,
  ) {
    this.words = (bits + 31) >>> 5;
    this.data = new Uint32Array(rows * this.words);
  }

  get(row: number, bit: number): boolean {
    return (this.data[row * this.words + (bit >>> 5)] & (1 << (bit & 31))) !== 0;
  }

  set(row: number, bit: number): void {
    this.data[row * this.words + (bit >>> 5)] |= 1 << (bit & 31);
  }

  clear(row: number, bit: number): void {
    this.data[row * this.words + (bit >>> 5)] &= ~(1 << (bit & 31));
  }

  /** Sets bits [from, to) of a row. */
  setRange(row: number, from: number, to: number): void {
    for (let b = from; b < to; b++) this.set(row, b);
  }

  /** Fills a row with ones (only the `bits` valid bits). */
  fillRow(row: number): void {
    const w = this.words;
    const base = row * w;
    for (let k = 0; k < w; k++) this.data[base + k] = 0xffffffff;
    const extra = w * 32 - this.bits;
    if (extra > 0) this.data[base + w - 1] >>>= extra;
  }

  row(row: number): Uint32Array {
    return this.data.subarray(row * this.words, (row + 1) * this.words);
  }

  /** The set bits of a row, in increasing order. */
  members(row: number): number[] {
    const out: number[] = [];
    const w = this.words;
    const base = row * w;
    for (let k = 0; k < w; k++) {
      let x = this.data[base + k];
      while (x !== 0) {
        const low = x & -x;
        out.push(k * 32 + (31 - Math.clz32(low)));
        x ^= low;
      }
    }
    return out;
  }

  count(row: number): number {
    let c = 0;
    const w = this.words;
    const base = row * w;
    for (let k = 0; k < w; k++) {
      let x = this.data[base + k];
      x = x - ((x >>> 1) & 0x55555555);
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      c += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return c;
  }
}

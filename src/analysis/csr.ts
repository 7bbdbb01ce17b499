/**
 * Building per-node sets as CSR arrays from (owner, member) pairs in linear time.
 */

/** Per-node sets: `list.subarray(off[v], off[v+1])`, each sorted by member id. */
export class NodeSets {
  constructor(
    readonly n: number,
    readonly off: Int32Array,
    readonly list: Int32Array,
  ) {}

  /** Members of node v's set, in increasing id. */
  get(v: number): Int32Array {
    return this.list.subarray(this.off[v], this.off[v + 1]);
  }

  size(v: number): number {
    return this.off[v + 1] - this.off[v];
  }

  has(v: number, x: number): boolean {
    const l = this.list;
    // binary search: sets are sorted
    let lo = this.off[v];
    let hi = this.off[v + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const y = l[mid];
      if (y === x) return true;
      if (y < x) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * Groups `m` pairs (owner[i], member[i]) by owner, members sorted by id (two stable
   * counting-sort passes). Pairs must be distinct.
   */
  static fromPairs(n: number, owner: Int32Array, member: Int32Array, m: number): NodeSets {
    // pass 1: order pair indices by member
    const cnt = new Int32Array(n + 1);
    for (let i = 0; i < m; i++) cnt[member[i] + 1]++;
    for (let v = 0; v < n; v++) cnt[v + 1] += cnt[v];
    const byMember = new Int32Array(m);
    for (let i = 0; i < m; i++) byMember[cnt[member[i]]++] = i;
    // pass 2: stable by owner
    const off = new Int32Array(n + 1);
    for (let i = 0; i < m; i++) off[owner[i] + 1]++;
    for (let v = 0; v < n; v++) off[v + 1] += off[v];
    const fill = off.slice(0, n);
    const list = new Int32Array(m);
    for (let k = 0; k < m; k++) {
      const i = byMember[k];
      list[fill[owner[i]]++] = member[i];
    }
    return new NodeSets(n, off, list);
  }
}

/** A growable pair buffer. */
export class PairBuffer {
  owner: Int32Array;
  member: Int32Array;
  length = 0;
  constructor(capacity = 64) {
    this.owner = new Int32Array(capacity);
    this.member = new Int32Array(capacity);
  }
  push(o: number, x: number): void {
    if (this.length === this.owner.length) {
      const o2 = new Int32Array(this.length * 2);
      o2.set(this.owner);
      this.owner = o2;
      const m2 = new Int32Array(this.length * 2);
      m2.set(this.member);
      this.member = m2;
    }
    this.owner[this.length] = o;
    this.member[this.length++] = x;
  }
  toSets(n: number): NodeSets {
    return NodeSets.fromPairs(n, this.owner, this.member, this.length);
  }
}

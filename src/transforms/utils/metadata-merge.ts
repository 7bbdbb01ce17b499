/**
 * Metadata of two instructions that become one, after LLVM 19's Local.cpp (combineMetadata,
 * combineMetadataForCSE), Metadata.cpp (MDNode::intersect, getMostGenericRange,
 * getMostGenericAliasScope, getMostGenericFPMath, getMostGenericAlignmentOrDereferenceable),
 * TypeBasedAliasAnalysis.cpp (getMostGenericTBAA through matchAccessTags) and
 * DebugInfoMetadata.cpp (DILocation::getMergedLocation).
 *
 * When K replaces J (CSE, GVN, load forwarding) K's attachments must be true of both: each
 * known kind is replaced by what holds for both (the TBAA tag of the least common type, the
 * union of the ranges, !nonnull only if both …), every other kind is dropped. `doesKMove`
 * says K now executes where only J did (hoisting): then the kinds whose violation is
 * immediate UB (!noundef, !invariant.load, !dereferenceable) need both; when K stays put,
 * K's own facts keep holding where K is, so they are kept unless !noundef makes the merged
 * facts UB. !dbg is not touched here: CSE keeps K's location, code motion merges with
 * `mergedLocation`.
 *
 * Invariant: nothing here recurses over the metadata graph (TBAA paths are walked with a
 * guard against cycles, as LLVM reports a cycle as an error).
 */
import { type ConstantFP, ConstantInt } from '../../ir/constants.js';
import type { Instruction } from '../../ir/instruction.js';
import { fieldNumber, getAttachment, getDILocation, isNode, type MDAttachment, MDKind, MDNode, type MDOperand, sortAttachments, ValueAsMetadata } from '../../ir/metadata.js';
import { Opcode } from '../../ir/opcodes.js';
import { i64 } from '../../ir/types.js';
import { ValueKind } from '../../ir/value.js';

// ---- operands -------------------------------------------------------------------------------

/** Whether two metadata operands are the same (a wrapped value is the value: LLVM uniques ConstantAsMetadata). */
function sameOp(a: MDOperand | undefined, b: MDOperand | undefined): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined || typeof a === 'string' || typeof b === 'string') return false;
  return a.mdKind === MDKind.Value && b.mdKind === MDKind.Value && (a as ValueAsMetadata).value === (b as ValueAsMetadata).value;
}

function constOp(n: MDNode, k: number): ConstantInt | null {
  const o = n.ops[k];
  if (o === null || o === undefined || typeof o === 'string' || o.mdKind !== MDKind.Value) return null;
  const v = (o as ValueAsMetadata).value;
  return v.kind === ValueKind.ConstantInt ? (v as ConstantInt) : null;
}

/** LLVM's getOrSelfReference: the tuple of `ops` (a self-referencing node with those ops is itself). */
function tupleOrSelf(ops: MDOperand[]): MDNode {
  const first = ops[0];
  if (isNode(first) && first.ops.length === ops.length && first.ops[0] === first) {
    let same = true;
    for (let k = 1; k < ops.length; k++) if (!sameOp(first.ops[k], ops[k])) same = false;
    if (same) return first;
  }
  return new MDNode('', ops, null);
}

// ---- the generic forms of each kind ------------------------------------------------------------

/** MDNode::intersect: the operands in both (order of `a`). */
export function intersectNodes(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const out: MDOperand[] = [];
  for (const o of a.ops) if (b.ops.some((p) => sameOp(o, p)) && !out.some((p) => sameOp(o, p))) out.push(o);
  return tupleOrSelf(out);
}

/** The domain of an alias scope `!{!id, !domain, …}`. */
function scopeDomain(s: MDOperand): MDNode | null {
  if (!isNode(s) || s.ops.length < 2) return null;
  const d = s.ops[1];
  return isNode(d) ? d : null;
}

/** MDNode::getMostGenericAliasScope: the domains both name, and within them the scopes of either. */
export function mostGenericAliasScope(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  const aDomains = new Set<MDNode>();
  for (const o of a.ops) {
    const d = scopeDomain(o);
    if (d !== null) aDomains.add(d);
  }
  const both = new Set<MDNode>();
  const out: MDOperand[] = [];
  const add = (o: MDOperand): void => {
    if (!out.some((p) => sameOp(p, o))) out.push(o);
  };
  for (const o of b.ops) {
    const d = scopeDomain(o);
    if (d !== null && aDomains.has(d)) {
      both.add(d);
      add(o);
    }
  }
  for (const o of a.ops) {
    const d = scopeDomain(o);
    if (d !== null && both.has(d)) add(o);
  }
  return out.length === 0 ? null : tupleOrSelf(out);
}

/** A half-open range [lo, hi) of `bits`-wide integers, read unsigned (hi === lo: full set). */
interface Interval {
  lo: bigint;
  hi: bigint;
}

/** ConstantRange::unionWith of two intervals that overlap or touch: the shorter arc covering both ({0,0}: full). */
function unionOf(x: Interval, y: Interval, bits: number): Interval {
  const mod = 1n << BigInt(bits);
  const len = (r: Interval): bigint => (r.hi === r.lo ? mod : (r.hi - r.lo + mod) % mod);
  let best: Interval | null = null;
  let bestLen = 0n;
  for (const [p, q] of [[x, y], [y, x]] as const) {
    const d = (q.lo - p.lo + mod) % mod;
    if (d > len(p)) continue; // q does not start inside p (or right after it)
    const l = d + len(q) > len(p) ? d + len(q) : len(p);
    if (l >= mod) return { lo: 0n, hi: 0n };
    if (best === null || l < bestLen) {
      best = { lo: p.lo, hi: (p.lo + l) % mod };
      bestLen = l;
    }
  }
  return best ?? { lo: 0n, hi: 0n };
}

/** Whether two intervals intersect or are contiguous (LLVM's canBeMerged). */
function canMerge(x: Interval, y: Interval, bits: number): boolean {
  if (x.hi === y.lo || x.lo === y.hi) return true;
  void bits;
  const inside = (r: Interval, v: bigint): boolean => (r.hi === r.lo ? true : r.lo < r.hi ? v >= r.lo && v < r.hi : v >= r.lo || v < r.hi);
  return inside(x, y.lo) || inside(y, x.lo);
}

/** MDNode::getMostGenericRange: the union of two `!range` lists, merged where they touch; null when full. */
export function mostGenericRange(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const first = constOp(a, 0);
  if (first === null) return null;
  const type = first.type;
  const bits = type.bits;
  const read = (n: MDNode): { lo: ConstantInt; hi: ConstantInt }[] | null => {
    const out: { lo: ConstantInt; hi: ConstantInt }[] = [];
    for (let k = 0; k + 1 < n.ops.length; k += 2) {
      const lo = constOp(n, k);
      const hi = constOp(n, k + 1);
      if (lo === null || hi === null || lo.type !== type || hi.type !== type) return null;
      out.push({ lo, hi });
    }
    return out;
  };
  const ra = read(a);
  const rb = read(b);
  if (ra === null || rb === null) return null;
  const ends: Interval[] = [];
  const add = (lo: ConstantInt, hi: ConstantInt): void => {
    const iv = { lo: lo.zext(), hi: hi.zext() };
    const last = ends[ends.length - 1];
    if (last !== undefined && canMerge(iv, last, bits)) ends[ends.length - 1] = unionOf(last, iv, bits);
    else ends.push(iv);
  };
  let i = 0;
  let j = 0;
  // in order of the (signed) lower bounds, as LLVM walks them
  while (i < ra.length && j < rb.length) {
    if (ra[i].lo.value < rb[j].lo.value) add(ra[i].lo, ra[i++].hi);
    else add(rb[j].lo, rb[j++].hi);
  }
  while (i < ra.length) add(ra[i].lo, ra[i++].hi);
  while (j < rb.length) add(rb[j].lo, rb[j++].hi);
  // the last range may wrap around into the first
  if (ends.length > 1 && canMerge(ends[0], ends[ends.length - 1], bits)) {
    ends[ends.length - 1] = unionOf(ends[ends.length - 1], ends[0], bits);
    ends.shift();
  }
  if (ends.length === 1 && ends[0].lo === ends[0].hi) return null;
  const ops: MDOperand[] = [];
  for (const e of ends) ops.push(ValueAsMetadata.get(ConstantInt.get(type, e.lo)), ValueAsMetadata.get(ConstantInt.get(type, e.hi)));
  return new MDNode('', ops, null);
}

/** getMostGenericAlignmentOrDereferenceable: the smaller of the two. */
function smallerOf(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  const x = constOp(a, 0);
  const y = constOp(b, 0);
  if (x === null || y === null) return null;
  return x.zext() < y.zext() ? a : b;
}

/** getMostGenericFPMath: the larger allowed error. */
function largerFPMath(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  const num = (n: MDNode): number => {
    const o = n.ops[0];
    if (o === null || o === undefined || typeof o === 'string' || o.mdKind !== MDKind.Value) return NaN;
    const v = (o as ValueAsMetadata).value;
    return v.kind === ValueKind.ConstantFP ? (v as ConstantFP).value : NaN;
  };
  return num(a) < num(b) ? b : a;
}

// ---- TBAA ----------------------------------------------------------------------------------------

/** A scalar or struct type node's parent (old format: operand 1; new format: operand 0). */
function tbaaParent(n: MDNode): MDNode | null {
  if (isNewFormatType(n)) return isNode(n.ops[0]) ? (n.ops[0] as MDNode) : null;
  if (n.ops.length < 2) return null;
  const p = n.ops[1];
  return isNode(p) ? p : null;
}

function isNewFormatType(n: MDNode): boolean {
  // new-format type nodes: !{!parent, i64 size, !"name", …}
  return n.ops.length >= 3 && isNode(n.ops[0]) && constOp(n, 1) !== null && n.ops[2] !== null && typeof n.ops[2] !== 'string' && n.ops[2].mdKind === MDKind.String;
}

/** getLeastCommonType: the deepest common ancestor of two type nodes. */
function leastCommonType(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const path = (n: MDNode): MDNode[] | null => {
    const out: MDNode[] = [];
    for (let t: MDNode | null = n; t !== null; t = tbaaParent(t)) {
      if (out.includes(t)) return null; // LLVM: "Cycle found in TBAA metadata."
      out.push(t);
    }
    return out;
  };
  const pa = path(a);
  const pb = path(b);
  if (pa === null || pb === null) return null;
  let ret: MDNode | null = null;
  for (let ia = pa.length - 1, ib = pb.length - 1; ia >= 0 && ib >= 0 && pa[ia] === pb[ib]; ia--, ib--) ret = pa[ia];
  return ret;
}

/** An access tag `!{!base, !access, i64 offset}`: its parts. */
function tagParts(t: MDNode): { base: MDNode | null; access: MDNode | null; offset: bigint } {
  const base = isNode(t.ops[0]) ? (t.ops[0] as MDNode) : null;
  const access = isNode(t.ops[1]) ? (t.ops[1] as MDNode) : null;
  const off = constOp(t, 2);
  return { base, access, offset: off === null ? 0n : off.zext() };
}

/** createAccessTag: `!{!T, !T, i64 0}` of a type that is not the root, else none. */
function accessTag(type: MDNode | null): MDNode | null {
  if (type === null || type.ops.length < 2) return null;
  const ops: MDOperand[] = [type, type, ValueAsMetadata.get(ConstantInt.get(i64, 0))];
  if (isNewFormatType(type)) ops.push(ValueAsMetadata.get(ConstantInt.get(i64, -1)));
  return new MDNode('', ops, null);
}

/** An old-format struct type node's field at `offset` (TBAAStructTypeNode::getField), with the offset made relative to it. */
function fieldAt(t: MDNode, offset: bigint): { node: MDNode | null; offset: bigint } {
  const n = t.ops.length;
  if (n < 2) return { node: null, offset };
  if (n <= 3) {
    const cur = n === 2 ? 0n : (constOp(t, 2)?.zext() ?? 0n);
    const p = t.ops[1];
    return { node: isNode(p) ? p : null, offset: offset - cur };
  }
  // the last field starting at or before the offset (offsets are in order)
  let idx = 1;
  let at = -1;
  for (; idx < n; idx += 2) {
    if ((constOp(t, idx + 1)?.zext() ?? 0n) > offset) {
      at = idx - 2;
      break;
    }
  }
  if (at < 0) at = idx === 1 ? 1 : idx >= n ? idx - 2 : 1;
  idx = at < 1 ? 1 : at;
  const cur = constOp(t, idx + 1)?.zext() ?? 0n;
  const p = t.ops[idx];
  return { node: isNode(p) ? p : null, offset: offset - cur };
}

/** mayBeAccessToSubobjectOf (old format): the generic tag when one access may be to a part of the other, else undefined. */
function subobjectTag(base: MDNode, sub: MDNode, common: MDNode): MDNode | null | undefined {
  const bt = tagParts(base);
  const st = tagParts(sub);
  if (bt.access === bt.base && bt.access === common) return accessTag(common);
  let type = bt.base;
  let offset = bt.offset;
  for (let guard = 0; type !== null && guard < 10_000; guard++) {
    if (type === st.base) {
      const mayAlias = offset === st.offset || type === bt.access || st.base === st.access;
      return mayAlias ? sub : accessTag(common);
    }
    const f = fieldAt(type, offset);
    type = f.node;
    offset = f.offset;
  }
  return undefined;
}

/** MDNode::getMostGenericTBAA: the tag that describes both accesses (matchAccessTags), or null. */
export function mostGenericTBAA(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  if (a.ops.length < 3 || b.ops.length < 3) return null; // scalar (pre-struct-path) tags: LLVM upgrades them; we give up
  const common = leastCommonType(tagParts(a).access, tagParts(b).access);
  if (common === null) return null;
  const x = subobjectTag(a, b, common);
  if (x !== undefined) return x;
  const y = subobjectTag(b, a, common);
  if (y !== undefined) return y;
  return accessTag(common);
}

// ---- combining -----------------------------------------------------------------------------------

/** The kinds combineMetadataForCSE knows (others are dropped from K). */
const CSE_KINDS = new Set([
  'tbaa', 'alias.scope', 'noalias', 'range', 'fpmath', 'invariant.load', 'nonnull', 'invariant.group', 'align', 'dereferenceable',
  'dereferenceable_or_null', 'llvm.access.group', 'llvm.preserve.access.index', 'prof', 'nontemporal', 'noundef', 'mmra',
  'noalias.addrspace',
]);

/** Debug kinds no combining touches. */
const DEBUG_KINDS = new Set(['dbg', 'DIAssignID']);

/**
 * LLVM's combineMetadata: K takes over J; its metadata of `known` kinds becomes what holds
 * for both, and every other non-debug kind is dropped. `doesKMove`: K now runs where J ran.
 */
export function combineMetadata(k: Instruction, j: Instruction, known: ReadonlySet<string>, doesKMove: boolean): void {
  const jInvGroup = getAttachment(j.md, 'invariant.group');
  if (k.md === null) {
    if (jInvGroup !== null && isLoadOrStore(k)) k.md = [{ kind: 'invariant.group', node: jInvGroup }];
    return;
  }
  const kNoundef = getAttachment(k.md, 'noundef') !== null;
  const out: MDAttachment[] = [];
  for (const a of k.md) {
    if (DEBUG_KINDS.has(a.kind)) {
      out.push(a);
      continue;
    }
    if (!known.has(a.kind)) continue;
    const jmd = getAttachment(j.md, a.kind);
    const kmd = a.node;
    let r: MDNode | null = kmd;
    switch (a.kind) {
      case 'tbaa':
        r = mostGenericTBAA(jmd, kmd);
        break;
      case 'alias.scope':
        r = mostGenericAliasScope(jmd, kmd);
        break;
      case 'noalias':
      case 'llvm.mem.parallel_loop_access':
        r = intersectNodes(jmd, kmd);
        break;
      case 'llvm.access.group':
        r = jmd === kmd ? kmd : null;
        break;
      case 'range':
        if (doesKMove || !kNoundef) r = mostGenericRange(jmd, kmd);
        break;
      case 'fpmath':
        r = largerFPMath(jmd, kmd);
        break;
      case 'invariant.load':
        if (doesKMove) r = jmd;
        break;
      case 'nonnull':
        if (doesKMove || !kNoundef) r = jmd;
        break;
      case 'invariant.group':
      case 'mmra':
      case 'llvm.preserve.access.index':
        break;
      case 'align':
        if (doesKMove || !kNoundef) r = smallerOf(jmd, kmd);
        break;
      case 'dereferenceable':
      case 'dereferenceable_or_null':
        if (doesKMove) r = smallerOf(jmd, kmd);
        break;
      case 'noundef':
        if (doesKMove) r = jmd;
        break;
      case 'nontemporal':
        r = jmd;
        break;
      case 'prof':
        // LLVM merges branch weights of moved calls (getMergedProfMetadata); we drop them then
        if (doesKMove) r = null;
        break;
      default:
        r = null;
    }
    if (r !== null) out.push({ kind: a.kind, node: r });
  }
  if (jInvGroup !== null && isLoadOrStore(k)) {
    const at = out.findIndex((a) => a.kind === 'invariant.group');
    if (at >= 0) out[at] = { kind: 'invariant.group', node: jInvGroup };
    else out.push({ kind: 'invariant.group', node: jInvGroup });
  }
  k.md = out.length === 0 ? null : sortAttachments(out);
}

function isLoadOrStore(i: Instruction): boolean {
  return i.op === Opcode.Load || i.op === Opcode.Store;
}

/** LLVM's combineMetadataForCSE: K replaces J (CSE, GVN, load forwarding). */
export function combineMetadataForCSE(k: Instruction, j: Instruction, doesKMove: boolean): void {
  if (k.md === null && j.md === null) return;
  combineMetadata(k, j, CSE_KINDS, doesKMove);
}

/** AAMDNodes::merge: the TBAA, scope and noalias attachments that hold for both lists. */
export function mergeAAMetadata(a: MDAttachment[] | null, b: MDAttachment[] | null): MDAttachment[] {
  const out: MDAttachment[] = [];
  const t = mostGenericTBAA(getAttachment(a, 'tbaa'), getAttachment(b, 'tbaa'));
  if (t !== null) out.push({ kind: 'tbaa', node: t });
  const s = mostGenericAliasScope(getAttachment(a, 'alias.scope'), getAttachment(b, 'alias.scope'));
  if (s !== null) out.push({ kind: 'alias.scope', node: s });
  const n = intersectNodes(getAttachment(a, 'noalias'), getAttachment(b, 'noalias'));
  if (n !== null) out.push({ kind: 'noalias', node: n });
  return out;
}

// ---- locations -----------------------------------------------------------------------------------

/** The DISubprogram a scope belongs to (walking lexical blocks), or null. */
function subprogramOf(scope: MDOperand | undefined): MDNode | null {
  for (let s = scope, guard = 0; isNode(s) && guard < 100_000; guard++) {
    if (s.name === 'DISubprogram') return s;
    s = s.field('scope');
  }
  return null;
}

function inlinedAt(l: MDNode): MDNode | null {
  const ia = l.field('inlinedAt');
  return isNode(ia) ? ia : null;
}

/** The nearest scope enclosing both, within one subprogram. */
function nearestCommonScope(s1: MDNode, s2: MDNode): MDNode | null {
  const seen = new Set<MDNode>();
  for (let s: MDOperand | undefined = s1, g = 0; isNode(s) && g < 100_000; g++) {
    seen.add(s);
    if (s.name === 'DISubprogram') break;
    s = s.field('scope');
  }
  for (let s: MDOperand | undefined = s2, g = 0; isNode(s) && g < 100_000; g++) {
    if (seen.has(s)) return s;
    if (s.name === 'DISubprogram') break;
    s = s.field('scope');
  }
  return null;
}

/**
 * DILocation::getMergedLocation: the location of an instruction standing for two. The
 * inlinedAt chains are matched from the first (subprogram, inlinedAt) pair they share, then
 * merged outward: same line keeps the line, same line and column keep both, else line 0 in
 * the nearest common scope; locations with nothing in common give line 0 in A's scope.
 */
export function mergedLocation(a: MDNode | null, b: MDNode | null): MDNode | null {
  if (a === null || b === null) return null;
  if (a === b) return a;
  const aLocs: MDNode[] = [];
  const lookup = new Map<MDNode | null, Map<MDNode | null, number>>();
  for (let l: MDNode | null = a, i = 0; l !== null && i < 100_000; l = inlinedAt(l), i++) {
    aLocs.push(l);
    const sp = subprogramOf(l.field('scope'));
    let m = lookup.get(sp);
    if (m === undefined) lookup.set(sp, (m = new Map()));
    if (!m.has(inlinedAt(l))) m.set(inlinedAt(l), i);
  }
  const bLocs: MDNode[] = [];
  let ai = -1;
  let bi = -1;
  for (let l: MDNode | null = b, i = 0; l !== null && i < 100_000; l = inlinedAt(l), i++) {
    bLocs.push(l);
    const hit = lookup.get(subprogramOf(l.field('scope')))?.get(inlinedAt(l));
    if (hit !== undefined) {
      ai = hit;
      bi = i;
      break;
    }
  }
  let result: MDNode | null = ai >= 0 ? inlinedAt(aLocs[ai]) : null;
  for (; ai >= 0 && bi >= 0; ai--, bi--) {
    const l1 = aLocs[ai];
    const l2 = bLocs[bi];
    let tmp: MDNode | null;
    const s1 = l1.field('scope') as MDNode;
    if (l1 === l2) tmp = getDILocation(fieldNumber(l1, 'line'), fieldNumber(l1, 'column'), s1, result);
    else if (subprogramOf(s1) !== subprogramOf(l2.field('scope'))) tmp = null;
    else {
      const scope = nearestCommonScope(s1, l2.field('scope') as MDNode);
      if (scope === null) tmp = null;
      else {
        const sameLine = fieldNumber(l1, 'line') === fieldNumber(l2, 'line');
        const sameCol = fieldNumber(l1, 'column') === fieldNumber(l2, 'column');
        tmp = getDILocation(sameLine ? fieldNumber(l1, 'line') : 0, sameLine && sameCol ? fieldNumber(l1, 'column') : 0, scope, result);
      }
    }
    if (tmp === null) break;
    result = tmp;
  }
  if (result !== null) return result;
  return getDILocation(0, 0, a.field('scope') as MDNode, null);
}

/** Instruction::applyMergedLocation: `k` stands for itself and `j` now. */
export function applyMergedLocation(k: Instruction, j: Instruction): void {
  const m = mergedLocation(getAttachment(k.md, 'dbg'), getAttachment(j.md, 'dbg'));
  const rest = k.md === null ? [] : k.md.filter((x) => x.kind !== 'dbg');
  if (m !== null) rest.push({ kind: 'dbg', node: m });
  k.md = rest.length === 0 ? null : sortAttachments(rest);
}

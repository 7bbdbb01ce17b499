/**
 * Metadata, after LLVM's `Metadata` hierarchy: strings (`!"s"`), nodes (generic tuples
 * `!{…}` and specialized `!DILocation(…)`-style nodes, uniqued or `distinct`), values
 * wrapped as metadata (`i32 7`, `ptr @g`, and in debug records `ptr %x`), named metadata
 * (`!llvm.dbg.cu = !{…}`), attachments (`!dbg`, `!tbaa`, …) on instructions, functions
 * and globals, and debug records (`#dbg_value`, `#dbg_declare`, `#dbg_assign`, `#dbg_label`).
 *
 * A specialized node keeps its fields in the order read, each a metadata operand (a node,
 * a string, null) or literal text (`12`, `DW_TAG_member`, `DIFlagPrototyped | DIFlagNoReturn`,
 * `"name"`): what opt prints is what clang printed, and a pass only has to know the fields
 * it rewrites. Numbers (`!N`) are not part of a node: the printer numbers the nodes it
 * reaches, in LLVM's order (see text/metadata-printer.ts), so nodes nothing refers to any
 * more disappear as they do in LLVM and no reference ever dangles.
 *
 * Values in metadata are not uses (LLVM: metadata never keeps a value alive, and a value
 * used only by debug info is dead). `ValueAsMetadata` of an instruction or argument is
 * tracked instead: `replaceAllUsesWith` moves it to the new value and erasing the value
 * turns it into `poison` (LLVM's kill location), through the hooks in value.ts.
 *
 * Invariant: no recursion over the graph anywhere (debug info graphs are deep and cyclic);
 * walks use explicit stacks.
 */
import { PoisonValue } from './constants.js';
import { appendOpsToArg, expressionOps, locationOperandCount, MAX_DEBUG_ARGS, MAX_EXPRESSION_SIZE, salvageOps } from './debug-salvage.js';
import type { Instruction } from './instruction.js';
import { metadataHooks, type Value, ValueKind } from './value.js';

export const enum MDKind {
  String,
  Node,
  Value,
}

export abstract class Metadata {
  constructor(readonly mdKind: MDKind) {}
}

/** `!"text"`; `raw` is the text between the quotes, as LLVM prints it (escapes kept). */
export class MDString extends Metadata {
  constructor(readonly raw: string) {
    super(MDKind.String);
  }
  private static cache = new Map<string, MDString>();
  static get(raw: string): MDString {
    let s = MDString.cache.get(raw);
    if (s === undefined) {
      s = new MDString(raw);
      if (MDString.cache.size < 100_000) MDString.cache.set(raw, s);
    }
    return s;
  }
}

/** A field or operand of a node: metadata, `null`, or (in specialized nodes) literal text. */
export type MDOperand = Metadata | null | string;

/**
 * A node. `name` is '' for a generic tuple `!{…}`, else the specialized kind
 * (`DILocation`, `DIExpression`…). `keys` names the fields of a specialized node
 * (parallel to `ops`); null for tuples.
 */
export class MDNode extends Metadata {
  /** The `!N` this node had in the text it was read from (-1 if made here). */
  inputId = -1;
  constructor(
    public name: string,
    public ops: MDOperand[],
    public keys: string[] | null,
    public distinct = false,
  ) {
    super(MDKind.Node);
  }

  /** A field of a specialized node, or undefined when absent. */
  field(key: string): MDOperand | undefined {
    const k = this.keys;
    if (k === null) return undefined;
    const i = k.indexOf(key);
    return i < 0 ? undefined : this.ops[i];
  }

  /** Sets (or adds) a field of a specialized node. */
  setField(key: string, v: MDOperand): void {
    const k = this.keys!;
    const i = k.indexOf(key);
    if (i >= 0) this.ops[i] = v;
    else {
      k.push(key);
      this.ops.push(v);
    }
  }

  /** Whether the node is printed inline wherever it is used (LLVM numbers neither). */
  get isInline(): boolean {
    return this.name === 'DIExpression' || this.name === 'DIArgList';
  }
}

/** A value as metadata: `i32 7`, `ptr @g`, `ptr %x` (function-local, in debug records). */
export class ValueAsMetadata extends Metadata {
  /** The debug record whose location this is (directly or in its `!DIArgList`), for salvage. */
  owner: DbgRecord | null = null;
  constructor(public value: Value) {
    super(MDKind.Value);
  }

  /** Wraps `v`; function-local values are tracked through RAUW and erasure. */
  static get(v: Value): ValueAsMetadata {
    const m = new ValueAsMetadata(v);
    if (isTracked(v)) track(v, m);
    return m;
  }
}

export function isNode(m: MDOperand | undefined): m is MDNode {
  return m !== null && m !== undefined && typeof m !== 'string' && m.mdKind === MDKind.Node;
}

// ---- tracking of function-local values ------------------------------------------------

const tracked = new WeakMap<Value, ValueAsMetadata[]>();

/**
 * The values metadata follows through replacement and deletion: function-local ones, and
 * globals (a `#dbg_declare` can come to name a constant global that replaced an alloca,
 * and the global can be deleted later; LLVM's ValueAsMetadata::handleDeletion).
 */
function isTracked(v: Value): boolean {
  const k = v.kind;
  return k === ValueKind.Instruction || k === ValueKind.Argument || k === ValueKind.GlobalVariable || k === ValueKind.Function || k === ValueKind.GlobalAlias;
}

function track(v: Value, m: ValueAsMetadata): void {
  let list = tracked.get(v);
  if (list === undefined) tracked.set(v, (list = []));
  list.push(m);
  metadataHooks.active = true;
}

metadataHooks.replaced = (from: Value, to: Value): void => {
  // An instruction a pass made to replace another takes its location, as the IRBuilder of
  // LLVM's InstCombine (and most passes) gives what it builds the location of the
  // instruction being replaced. Instructions read from the text keep their own.
  if (from.kind === ValueKind.Instruction && to.kind === ValueKind.Instruction) {
    const f = from as unknown as { md: MDAttachment[] | null };
    const t = to as unknown as { md: MDAttachment[] | null; srcOffset: number };
    if (f.md !== null && t.srcOffset < 0) {
      const dl = getAttachment(f.md, 'dbg');
      if (dl !== null && getAttachment(t.md, 'dbg') === null) t.md = withAttachment(t.md, 'dbg', dl);
    }
  }
  const list = tracked.get(from);
  if (list === undefined) return;
  tracked.delete(from);
  for (const m of list) m.value = to;
  if (isTracked(to)) {
    const l2 = tracked.get(to);
    if (l2 === undefined) tracked.set(to, list);
    else l2.push(...list);
  }
};

metadataHooks.erased = (v: Value): void => salvageDebugInfo(v);

/**
 * LLVM's salvageDebugInfo, for `v` about to be deleted with its operands still in place:
 * the records describing it are rewritten in terms of its operands or killed, and every
 * other metadata use of it turns poison. Erasing an instruction does this by itself; a
 * pass that drops operands before deleting (ADCE) calls it first.
 */
export function salvageDebugInfo(v: Value): void {
  if (!metadataHooks.active) return;
  const list = tracked.get(v);
  if (list === undefined) return;
  tracked.delete(v);
  const p = PoisonValue.get(v.type);
  // records whose location is v are salvaged (debug-salvage.ts); any other use turns poison
  const records: DbgRecord[] = [];
  for (const m of list) {
    const r = m.owner;
    if (r !== null && m.value === v && r.locationOps().includes(m)) {
      if (!records.includes(r)) records.push(r);
    } else if (m.value === v) m.value = p;
  }
  if (records.length > 0) salvageRecords(v, records);
}

/** salvageDebugInfoForDbgValues: each record describing `v` rewritten without it, or killed. */
function salvageRecords(v: Value, records: DbgRecord[]): void {
  let failed = v.kind !== ValueKind.Instruction;
  for (const r of records) {
    if (failed) {
      r.kill();
      continue;
    }
    const exprNode = r.ops[2];
    const locs = r.locationOps();
    const locNo = locs.findIndex((m) => m.value === v);
    if (!isNode(exprNode) || exprNode.name !== 'DIExpression' || r.kind === 'label' || locNo < 0) {
      r.kill();
      continue;
    }
    const expr = expressionOps(exprNode.ops[0] as string);
    const s = salvageOps(v as unknown as Instruction, locationOperandCount(expr));
    const gone = (x: Value): boolean => x.kind === ValueKind.Instruction && (x as unknown as { parent: unknown }).parent === null;
    if (s === null || gone(s.op0) || s.extra.some(gone)) {
      failed = true;
      r.kill();
      continue;
    }
    const toks = appendOpsToArg(expr, s.ops, locNo, r.kind !== 'declare');
    const vals = locs.map((m) => (m.value === v ? s.op0 : m.value));
    const valid = toks.length <= MAX_EXPRESSION_SIZE;
    if (s.extra.length === 0 && valid) r.setLocation(vals, r.ops[0] !== null && isNode(r.ops[0] as MDOperand));
    else if (r.kind !== 'declare' && valid && vals.length + s.extra.length <= MAX_DEBUG_ARGS) r.setLocation([...vals, ...s.extra], true);
    else {
      r.kill();
      continue;
    }
    r.ops[2] = new MDNode('DIExpression', [toks.join(', ')], null);
  }
}

// ---- attachments --------------------------------------------------------------------------

/** One attachment `!kind !node`. */
export interface MDAttachment {
  kind: string;
  node: MDNode;
}

/** LLVM's fixed metadata kind ids (FixedMetadataKinds.def): attachments print in this order. */
const FIXED_KINDS = [
  'dbg', 'tbaa', 'prof', 'fpmath', 'range', 'tbaa.struct', 'invariant.load', 'alias.scope', 'noalias',
  'nontemporal', 'llvm.mem.parallel_loop_access', 'nonnull', 'dereferenceable', 'dereferenceable_or_null',
  'make.implicit', 'unpredictable', 'invariant.group', 'align', 'llvm.loop', 'type', 'section_prefix',
  'absolute_symbol', 'associated', 'callees', 'irr_loop', 'llvm.access.group', 'callback',
  'llvm.preserve.access.index', 'vcall_visibility', 'noundef', 'annotation', 'nosanitize', 'func_sanitize',
  'exclude', 'memprof', 'callsite', 'kcfi_type', 'pcsections', 'DIAssignID', 'coro.outside.frame', 'mmra',
  'noalias.addrspace',
];
const kindIds = new Map<string, number>(FIXED_KINDS.map((k, i) => [k, i]));

/** The kind id of `kind`, registering a custom kind in order of first sight, as LLVMContext does. */
export function mdKindId(kind: string): number {
  let id = kindIds.get(kind);
  if (id === undefined) kindIds.set(kind, (id = kindIds.size));
  return id;
}

/** Attachments in LLVM's order: by kind id, stable. */
export function sortAttachments(a: MDAttachment[]): MDAttachment[] {
  if (a.length < 2) return a;
  const ids = a.map((x) => mdKindId(x.kind));
  let sorted = true;
  for (let i = 1; i < ids.length; i++) if (ids[i] < ids[i - 1]) sorted = false;
  if (sorted) return a;
  return a
    .map((x, i) => ({ x, id: ids[i], i }))
    .sort((p, q) => p.id - q.id || p.i - q.i)
    .map((p) => p.x);
}

/** The attachment of `kind` in a list, or null. */
export function getAttachment(list: MDAttachment[] | null, kind: string): MDNode | null {
  if (list === null) return null;
  for (const a of list) if (a.kind === kind) return a.node;
  return null;
}

/** A copy of `list` with `kind` set to `node` (removed when node is null); null when empty. */
export function withAttachment(list: MDAttachment[] | null, kind: string, node: MDNode | null): MDAttachment[] | null {
  const out = list === null ? [] : list.filter((a) => a.kind !== kind);
  if (node !== null) out.push({ kind, node });
  return out.length === 0 ? null : sortAttachments(out);
}

// ---- debug records --------------------------------------------------------------------------

export type DbgRecordKind = 'value' | 'declare' | 'assign' | 'label';

/**
 * A debug record printed before an instruction: `#dbg_value(loc, !var, !DIExpression(), !dbgloc)`.
 * `ops` are the operands before the debug location: value/declare: [location, variable,
 * expression]; assign: [location, variable, expression, assign id, address, address
 * expression]; label: [label].
 */
export class DbgRecord {
  constructor(
    public kind: DbgRecordKind,
    public ops: MDOperand[],
    public loc: MDNode,
  ) {
    this.adopt();
  }

  /** Marks the values of the location as this record's (after its operands change). */
  adopt(): void {
    for (const m of this.locationOps()) m.owner = this;
  }

  /** The values of the location: operand 0 itself, or the entries of its `!DIArgList`. */
  locationOps(): ValueAsMetadata[] {
    if (this.kind === 'label') return [];
    const o = this.ops[0];
    if (o === null || o === undefined || typeof o === 'string') return [];
    if (o.mdKind === MDKind.Value) return [o as ValueAsMetadata];
    if (o.mdKind === MDKind.Node && (o as MDNode).name === 'DIArgList') {
      const out: ValueAsMetadata[] = [];
      for (const a of (o as MDNode).ops) if (a !== null && typeof a !== 'string' && a.mdKind === MDKind.Value) out.push(a as ValueAsMetadata);
      return out;
    }
    return [];
  }

  /** Sets the location to `vals` (a `!DIArgList` when `list`, else the single value). */
  setLocation(vals: Value[], list: boolean): void {
    this.ops[0] = list ? new MDNode('DIArgList', vals.map((x) => ValueAsMetadata.get(x)), null) : ValueAsMetadata.get(vals[0]);
    this.adopt();
  }

  /** LLVM's setKillLocation: every location value becomes poison. */
  kill(): void {
    for (const m of this.locationOps()) m.value = PoisonValue.get(m.value.type);
  }

  /** The value a value/declare/assign record describes, when it is a single value. */
  get value(): Value | null {
    const o = this.ops[0];
    return o !== null && typeof o !== 'string' && o.mdKind === MDKind.Value ? (o as ValueAsMetadata).value : null;
  }

  clone(): DbgRecord {
    const ops = this.ops.map((o) => {
      if (o === null || typeof o === 'string') return o;
      if (o.mdKind === MDKind.Value) return ValueAsMetadata.get((o as ValueAsMetadata).value);
      // a !DIArgList belongs to one record: the copy gets its own
      if (o.mdKind === MDKind.Node && (o as MDNode).name === 'DIArgList') return new MDNode('DIArgList', (o as MDNode).ops.map((a) => (a !== null && typeof a !== 'string' && a.mdKind === MDKind.Value ? ValueAsMetadata.get((a as ValueAsMetadata).value) : a)), null);
      return o;
    });
    return new DbgRecord(this.kind, ops, this.loc);
  }
}

/** Named metadata `!name = !{!0, !1}`. */
export interface NamedMetadata {
  name: string;
  ops: MDNode[];
}

/** A uniqued `!DILocation(line: L, column: C, scope: S[, inlinedAt: I])`, made by passes. */
export function makeDILocation(line: number, column: number, scope: MDNode, inlinedAt: MDNode | null = null): MDNode {
  const keys = ['line', 'column', 'scope'];
  const ops: MDOperand[] = [String(line), String(column), scope];
  if (column === 0) {
    keys.splice(1, 1);
    ops.splice(1, 1);
  }
  if (inlinedAt !== null) {
    keys.push('inlinedAt');
    ops.push(inlinedAt);
  }
  return new MDNode('DILocation', ops, keys);
}

// ---- uniqued DILocations ---------------------------------------------------------------------

const nodeIds = new WeakMap<MDNode, number>();
let nextNodeId = 1;
function nodeId(n: MDNode | null): number {
  if (n === null) return 0;
  let id = nodeIds.get(n);
  if (id === undefined) nodeIds.set(n, (id = nextNodeId++));
  return id;
}
const locations = new WeakMap<MDNode, Map<string, MDNode>>();

/** The text of a literal field as a number (0 when absent). */
export function fieldNumber(n: MDNode, key: string): number {
  const v = n.field(key);
  return typeof v === 'string' ? Number(v) : 0;
}

/**
 * Registers a uniqued `!DILocation` read from text (so that locations made later with the
 * same fields are the same node, as LLVM's uniquing makes them), or returns the one already
 * registered with those fields.
 */
export function uniqueLocation(n: MDNode): MDNode {
  if (n.distinct || n.name !== 'DILocation') return n;
  const scope = n.field('scope');
  if (!isNode(scope)) return n;
  const ia = n.field('inlinedAt');
  const key = `${fieldNumber(n, 'line')}:${fieldNumber(n, 'column')}:${nodeId(isNode(ia) ? ia : null)}:${n.field('isImplicitCode') ?? ''}`;
  let m = locations.get(scope);
  if (m === undefined) locations.set(scope, (m = new Map()));
  const have = m.get(key);
  if (have !== undefined) return have;
  m.set(key, n);
  return n;
}

/** `!DILocation(line, column, scope, inlinedAt)`, uniqued. */
export function getDILocation(line: number, column: number, scope: MDNode, inlinedAt: MDNode | null = null): MDNode {
  return uniqueLocation(makeDILocation(line, column, scope, inlinedAt));
}

/** A `distinct` copy of a location (LLVM's unique call site for an inlined call). */
export function distinctLocation(loc: MDNode): MDNode {
  const c = new MDNode(loc.name, loc.ops.slice(), loc.keys === null ? null : loc.keys.slice(), true);
  return c;
}

/**
 * The location of an instruction inlined at a call whose (distinct) location is `callSite`:
 * LLVM's inlineDebugLoc, appending `callSite` to the end of the inlinedAt chain.
 */
export function inlinedLocation(loc: MDNode, callSite: MDNode, cache: Map<MDNode, MDNode>): MDNode {
  const done = cache.get(loc);
  if (done !== undefined) return done;
  // the chain loc → inlinedAt → … (iterative), rebuilt from its end
  const chain: MDNode[] = [];
  for (let l: MDNode | null = loc; l !== null; ) {
    chain.push(l);
    const ia = l.field('inlinedAt');
    l = isNode(ia) ? ia : null;
  }
  let tail: MDNode = callSite;
  for (let k = chain.length - 1; k >= 0; k--) {
    const l = chain[k];
    const scope = l.field('scope') as MDNode;
    const line = fieldNumber(l, 'line');
    const col = fieldNumber(l, 'column');
    // the links of the chain other than the first are distinct call sites, as in LLVM
    tail = k === 0 ? getDILocation(line, col, scope, tail) : distinctLocation(makeDILocation(line, col, scope, tail));
  }
  cache.set(loc, tail);
  return tail;
}

/** Points a record's values at their images in `map` (cloned code); a value without one stays. */
export function remapRecord(r: DbgRecord, map: Map<Value, Value>): void {
  for (let k = 0; k < r.ops.length; k++) {
    const o = r.ops[k];
    if (o === null || typeof o === 'string') continue;
    if (o.mdKind === MDKind.Value) {
      const v = map.get((o as ValueAsMetadata).value);
      if (v !== undefined) r.ops[k] = ValueAsMetadata.get(v);
    } else if (o.mdKind === MDKind.Node && (o as MDNode).name === 'DIArgList') {
      const n = o as MDNode;
      r.ops[k] = new MDNode('DIArgList', n.ops.map((a) => {
        const v = a !== null && typeof a !== 'string' && a.mdKind === MDKind.Value ? map.get((a as ValueAsMetadata).value) : undefined;
        return v !== undefined ? ValueAsMetadata.get(v) : a;
      }), null);
    }
  }
  r.adopt();
}

/**
 * LLVM's dropUBImplyingAttrsAndMetadata, for an instruction now executed where it was not
 * (speculated, hoisted): keeps only what cannot make its execution undefined — !dbg,
 * !annotation and the poison-producing !range, !nonnull, !align.
 */
export function dropUBImplyingMetadata(inst: { md: MDAttachment[] | null }): void {
  if (inst.md === null) return;
  const kept = inst.md.filter((a) => a.kind === 'dbg' || a.kind === 'annotation' || a.kind === 'range' || a.kind === 'nonnull' || a.kind === 'align');
  inst.md = kept.length === 0 ? null : kept;
}

/**
 * LLVM's Instruction::dropLocation, for a hoisted instruction: no location (the previous
 * one carries over), except calls, which get line 0 of the function's subprogram `sp`.
 */
export function dropLocation(inst: { md: MDAttachment[] | null }, isCall: boolean, sp: MDNode | null): void {
  if (getAttachment(inst.md, 'dbg') === null) return;
  inst.md = withAttachment(inst.md, 'dbg', isCall && sp !== null ? getDILocation(0, 0, sp) : null);
}

/** The text of a quoted literal field (`"a.c"` → a.c), or '' when absent. */
function fieldString(n: MDNode, key: string): string {
  const v = n.field(key);
  if (typeof v !== 'string') return v !== null && v !== undefined && v.mdKind === MDKind.String ? (v as MDString).raw : '';
  return v.startsWith('"') ? v.slice(1, -1) : v;
}

/**
 * `file:line:col` of a `!DILocation` (the file of its scope, found by walking the scope
 * chain without recursion), or null when it says nothing (line 0, no file).
 */
export function sourceLocation(loc: MDNode | null): string | null {
  if (loc === null || loc.name !== 'DILocation') return null;
  const line = fieldNumber(loc, 'line');
  if (line === 0) return null;
  const col = fieldNumber(loc, 'column');
  let file = '';
  for (let s = loc.field('scope'), guard = 0; isNode(s) && guard < 10_000; guard++) {
    const f = s.name === 'DIFile' ? s : s.field('file');
    if (isNode(f) && f.name === 'DIFile') {
      file = fieldString(f, 'filename');
      break;
    }
    s = s.field('scope');
  }
  return `${file || '<unknown>'}:${line}${col > 0 ? ':' + col : ''}`;
}

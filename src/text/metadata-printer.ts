/**
 * Printing metadata as LLVM's AsmWriter does, and numbering it as its SlotTracker does:
 * a node gets the next number the first time it is reached, then its node operands are
 * numbered depth first in LLVM's operand order (`CreateMetadataSlot`), where the module is
 * walked as it is printed: global variables' attachments, then named metadata, then each
 * function (its attachments, then per instruction its debug records, the metadata
 * arguments of intrinsic calls and its attachments). `!DIExpression` and `!DIArgList` are
 * printed inline and never numbered. Since the walk follows printing order, numbering is
 * done lazily as references are printed (after numbering the named metadata before the
 * first function); nodes nobody reaches are not printed, as in LLVM.
 *
 * In streaming mode (`inputIds`), functions are printed before the module's metadata has
 * been read: references print as the `!N` the text gave, and the nodes each function
 * reached are recorded, so that the module printer can check afterwards that LLVM's
 * numbering gives the same numbers (else streaming is redone the whole-module way).
 *
 * Invariant: iterative (explicit stack): debug info graphs are deep and cyclic.
 */
import { type DbgRecord, type MDAttachment, MDKind, MDNode, type MDOperand, MDString, type Metadata, sortAttachments, type ValueAsMetadata } from '../ir/metadata.js';
import type { Value } from '../ir/value.js';

/**
 * LLVM's operand order of the node-valued fields of each kind (DebugInfoMetadata.h), which
 * decides the numbering; fields not listed follow in printed order.
 */
const OPERAND_ORDER: Record<string, string[]> = {
  DILocation: ['scope', 'inlinedAt'],
  DIDerivedType: ['file', 'scope', 'name', 'baseType', 'extraData', 'annotations'],
  DICompositeType: ['file', 'scope', 'name', 'baseType', 'elements', 'vtableHolder', 'templateParams', 'identifier', 'discriminator', 'dataLocation', 'associated', 'allocated', 'rank', 'annotations'],
  DISubroutineType: ['types'],
  DICompileUnit: ['file', 'producer', 'flags', 'splitDebugFilename', 'enums', 'retainedTypes', 'globals', 'imports', 'macros', 'sysroot', 'sdk'],
  DISubprogram: ['file', 'scope', 'name', 'linkageName', 'type', 'unit', 'declaration', 'retainedNodes', 'containingType', 'templateParams', 'thrownTypes', 'annotations', 'targetFuncName'],
  DILexicalBlock: ['file', 'scope'],
  DILexicalBlockFile: ['file', 'scope'],
  DINamespace: ['scope', 'name'],
  DIModule: ['file', 'scope', 'name', 'configMacros', 'includePath', 'apinotes'],
  DITemplateTypeParameter: ['name', 'type'],
  DITemplateValueParameter: ['name', 'type', 'value'],
  DIGlobalVariable: ['scope', 'name', 'file', 'type', 'linkageName', 'declaration', 'templateParams', 'annotations'],
  DILocalVariable: ['scope', 'name', 'file', 'type', 'annotations'],
  DILabel: ['scope', 'name', 'file'],
  DIGlobalVariableExpression: ['var', 'expr'],
  DIImportedEntity: ['scope', 'entity', 'name', 'file', 'elements'],
  DISubrange: ['count', 'lowerBound', 'upperBound', 'stride'],
  DIGenericSubrange: ['count', 'lowerBound', 'upperBound', 'stride'],
  DIStringType: ['name', 'stringLength', 'stringLengthExpression', 'stringLocationExpression'],
  DIMacroFile: ['file', 'nodes'],
  DICommonBlock: ['scope', 'declaration', 'name', 'file'],
  DIObjCProperty: ['name', 'file', 'getter', 'setter', 'type'],
};

function isNodeOp(o: MDOperand | undefined): o is MDNode {
  return o !== null && o !== undefined && typeof o !== 'string' && o.mdKind === MDKind.Node;
}

/** The node operands of `n` in LLVM's operand order. */
function nodeOperands(n: MDNode): MDNode[] {
  const out: MDNode[] = [];
  const keys = n.keys;
  if (keys === null) {
    for (const o of n.ops) if (isNodeOp(o)) out.push(o);
    return out;
  }
  const order = OPERAND_ORDER[n.name];
  if (order === undefined) {
    for (const o of n.ops) if (isNodeOp(o)) out.push(o);
    return out;
  }
  const seen = new Array<boolean>(keys.length).fill(false);
  for (const k of order) {
    const i = keys.indexOf(k);
    if (i >= 0) {
      seen[i] = true;
      const o = n.ops[i];
      if (isNodeOp(o)) out.push(o);
    }
  }
  for (let i = 0; i < keys.length; i++) {
    const o = n.ops[i];
    if (!seen[i] && isNodeOp(o)) out.push(o);
  }
  return out;
}

/** Thrown when streamed functions were printed with numbers LLVM's numbering does not give. */
export class MetadataNumberingMismatch extends Error {}

export class MetadataSlots {
  readonly slots = new Map<MDNode, number>();
  readonly list: MDNode[] = [];
  /** Streaming: print `!N` as read, and record the nodes reached (by input id) in `roots`. */
  inputIds = false;
  roots: number[] | null = null;

  /** Per generic tuple, the first tuple printed with the same operands (see `canon`). */
  private readonly canonOf = new Map<MDNode, MDNode>();
  private readonly byKey = new Map<string, MDNode>();
  private readonly ids = new Map<MDNode, number>();

  /**
   * The node printed for `n`: LLVM uniques every non-distinct node by its operands, so two
   * tuples a pass made with equal operands (two `!{!"llvm.loop.unroll.disable"}`, a TBAA tag
   * equal to one read) are one node, printed once. Generic tuples only (the specialized nodes
   * passes make, DILocations, are uniqued when made); a tuple in a cycle of tuples is left as is.
   */
  canon(n: MDNode): MDNode {
    if (n.distinct || n.keys !== null || n.name !== '' || this.inputIds) return n;
    const have = this.canonOf.get(n);
    if (have !== undefined) return have;
    const isTuple = (o: MDOperand): o is MDNode => isNodeOp(o) && !o.distinct && o.keys === null && o.name === '';
    const open = new Set<MDNode>();
    const stack: MDNode[] = [n];
    while (stack.length > 0) {
      const x = stack[stack.length - 1];
      if (this.canonOf.has(x)) {
        stack.pop();
        continue;
      }
      if (!open.has(x)) {
        open.add(x);
        for (const o of x.ops) if (isTuple(o) && !this.canonOf.has(o) && !open.has(o)) stack.push(o);
        continue;
      }
      stack.pop();
      let key = '';
      for (const o of x.ops) {
        if (o === null) key += 'n,';
        else if (typeof o === 'string') key += 'l' + o.length + ':' + o + ',';
        else if (o.mdKind === MDKind.String) key += 's' + (o as MDString).raw.length + ':' + (o as MDString).raw + ',';
        else if (o.mdKind === MDKind.Node) {
          const c = isTuple(o) ? this.canonOf.get(o) : (o as MDNode);
          if (c === undefined) {
            key = ''; // an operand still open: a cycle, not uniqued
            break;
          }
          let id = this.ids.get(c);
          if (id === undefined) this.ids.set(c, (id = this.ids.size));
          key += 'N' + id + ',';
        } else key += 'v' + (o as ValueAsMetadata).value.uid + ',';
      }
      if (key === '' && x.ops.length > 0) {
        this.canonOf.set(x, x);
        continue;
      }
      const first = this.byKey.get(key);
      if (first === undefined) this.byKey.set(key, x);
      this.canonOf.set(x, first ?? x);
    }
    return this.canonOf.get(n)!;
  }

  /** Numbers `root` and what it reaches (LLVM's CreateMetadataSlot); its number. */
  number(root: MDNode): number {
    root = this.canon(root);
    const have = this.slots.get(root);
    if (have !== undefined) return have;
    if (root.isInline) {
      // inline nodes are not numbered, but what they hold is (a DIArgList holds only values)
      for (const o of nodeOperands(root)) this.number(o);
      return -1;
    }
    const stack: MDNode[] = [root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.isInline || this.slots.has(n)) continue;
      this.slots.set(n, this.list.length);
      this.list.push(n);
      const ops = nodeOperands(n);
      for (let i = ops.length - 1; i >= 0; i--) {
        const o = this.canon(ops[i]);
        if (!o.isInline && !this.slots.has(o)) stack.push(o);
      }
    }
    return this.slots.get(root)!;
  }

  /** `!N` for a reference to `n` (inline nodes print whole), numbering it when new. */
  ref(n: MDNode, p: MetadataPrinter): string {
    if (n.isInline) return p.inline(n);
    n = this.canon(n);
    if (this.inputIds) {
      if (n.inputId < 0) throw new MetadataNumberingMismatch('a node made by a pass has no number yet');
      this.roots?.push(n.inputId);
      return '!' + n.inputId;
    }
    return '!' + this.number(n);
  }
}

/** Prints metadata; `typed(v)` prints a value with its type (`i32 %x`), from the IR printer. */
export class MetadataPrinter {
  constructor(
    readonly slots: MetadataSlots,
    private readonly typed: (v: Value) => string,
  ) {}

  /** A metadata operand as it appears inside a node or as a call argument. */
  operand(m: Metadata | null): string {
    if (m === null) return 'null';
    switch (m.mdKind) {
      case MDKind.String:
        return '!"' + (m as MDString).raw + '"';
      case MDKind.Node:
        return this.slots.ref(m as MDNode, this);
      default:
        return this.typed((m as ValueAsMetadata).value);
    }
  }

  /** An inline node: `!DIExpression(…)`, `!DIArgList(…)`. */
  inline(n: MDNode): string {
    if (n.name === 'DIExpression') return '!DIExpression(' + (n.ops[0] as string) + ')';
    return '!' + n.name + '(' + n.ops.map((o) => this.operand(o as Metadata | null)).join(', ') + ')';
  }

  /** The definition's right-hand side: `distinct !{…}` or `!DIKind(…)`. */
  body(n: MDNode): string {
    let s = n.distinct ? 'distinct ' : '';
    if (n.keys === null) {
      if (n.name === '') return s + '!{' + n.ops.map((o) => this.operand(o as Metadata | null)).join(', ') + '}';
      return s + this.inline(n);
    }
    s += '!' + n.name + '(';
    for (let i = 0; i < n.keys.length; i++) {
      if (i > 0) s += ', ';
      const o = n.ops[i];
      s += n.keys[i] + ': ';
      if (typeof o === 'string') s += o;
      else if (o !== null && o.mdKind === MDKind.String) s += '"' + (o as MDString).raw + '"';
      else s += this.operand(o);
    }
    return s + ')';
  }

  /** ` !kind !N` each, in LLVM's order, with `sep` before each (", " after instructions). */
  attachments(list: MDAttachment[], sep: string): string {
    let s = '';
    for (const a of sortAttachments(list)) s += sep + '!' + a.kind + ' ' + this.slots.ref(a.node, this);
    return s;
  }

  /** `#dbg_value(i32 %x, !12, !DIExpression(), !13)`. */
  record(r: DbgRecord): string {
    let s = '#dbg_' + r.kind + '(';
    for (const o of r.ops) s += this.operand(o as Metadata | null) + ', ';
    return s + this.slots.ref(r.loc, this) + ')';
  }
}

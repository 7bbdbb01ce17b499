/**
 * Reading metadata, after LLParser's parseMetadata / parseSpecializedMDNode: numbered
 * definitions (`!N = [distinct] !{…}` or `!DIKind(field: value, …)`), named metadata,
 * inline nodes, strings, values (`i32 7`, `ptr @g`, `ptr %x`), `!DIExpression(…)`,
 * `!DIArgList(…)`, attachments and debug records.
 *
 * A reference `!N` before its definition gets the node object that the definition later
 * fills in place, so no reference is ever patched. Every `!N` used must be defined (checked
 * at the end of the module, at the first use); specialized nodes accept exactly the fields
 * LLParser accepts for their kind, and the required ones must be there.
 *
 * Invariant: iteration only, except for inline nodes nested in the text (`!{!{!{…}}}`),
 * whose depth is the text's own nesting, not the size of the graph.
 */
import {
  DbgRecord,
  type DbgRecordKind,
  type MDAttachment,
  MDNode,
  type MDOperand,
  MDString,
  type Metadata,
  ValueAsMetadata,
  uniqueLocation,
} from '../ir/metadata.js';
import { metadataHooks, type Value } from '../ir/value.js';
import { type Lexer, Tok } from './lexer.js';

/** What the metadata reader needs from the IR parser. */
export interface MetadataHost {
  /** `type value`; locals only inside a function body and when `allowLocal`. */
  parseTypedValue(allowLocal: boolean): Value;
  error(msg: string, loc?: number): never;
  describe(): string;
}

/**
 * Fields of each specialized node kind LLVM 19 reads, with `!` marking required ones.
 * A kind missing here is an error, as in LLParser ("expected metadata type").
 */
const FIELDS: Record<string, string> = {
  DILocation: 'line column scope! inlinedAt isImplicitCode',
  DIFile: 'filename! directory! checksumkind checksum source',
  DIBasicType: 'tag name size align encoding flags',
  DIDerivedType:
    'tag! name file line scope baseType! size align offset flags extraData dwarfAddressSpace annotations ptrAuthKey ptrAuthIsAddressDiscriminated ptrAuthExtraDiscriminator ptrAuthIsaPointer ptrAuthAuthenticatesNullValues',
  DICompositeType:
    'tag! name file line scope baseType size align offset flags elements runtimeLang vtableHolder templateParams identifier discriminator dataLocation associated allocated rank annotations',
  DISubroutineType: 'flags cc types!',
  DICompileUnit:
    'language! file! producer isOptimized flags runtimeVersion splitDebugFilename emissionKind enums retainedTypes globals imports macros dwoId splitDebugInlining debugInfoForProfiling nameTableKind rangesBaseAddress sysroot sdk',
  DISubprogram:
    'scope name linkageName file line type isLocal isDefinition scopeLine containingType spFlags virtuality virtualIndex thisAdjustment flags isOptimized unit templateParams declaration retainedNodes thrownTypes annotations targetFuncName',
  DILexicalBlock: 'scope! file line column',
  DILexicalBlockFile: 'scope! file discriminator!',
  DINamespace: 'scope name exportSymbols',
  DIModule: 'scope name configMacros includePath apinotes file line isDecl',
  DITemplateTypeParameter: 'name type! defaulted',
  DITemplateValueParameter: 'tag name type defaulted value!',
  DIGlobalVariable: 'name scope linkageName file line type isLocal isDefinition templateParams declaration align annotations',
  DILocalVariable: 'scope! name arg file line type flags align annotations',
  DILabel: 'scope! name! file! line!',
  DIGlobalVariableExpression: 'var! expr!',
  DIImportedEntity: 'tag! scope entity file line name elements',
  DISubrange: 'count lowerBound upperBound stride',
  DIGenericSubrange: 'count lowerBound upperBound stride',
  DIEnumerator: 'name! value! isUnsigned',
  DIStringType: 'tag name stringLength stringLengthExpression stringLocationExpression size align encoding',
  DIMacro: 'type! line name! value',
  DIMacroFile: 'type line file! nodes',
  DICommonBlock: 'scope! declaration name file line',
  DIObjCProperty: 'name file line setter getter attributes type',
  DIAssignID: '',
  GenericDINode: 'tag! header operands',
};
const FIELD_SETS = new Map<string, { all: Set<string>; required: string[] }>();
for (const [k, v] of Object.entries(FIELDS)) {
  const words = v === '' ? [] : v.split(' ');
  FIELD_SETS.set(k, { all: new Set(words.map((w) => w.replace('!', ''))), required: words.filter((w) => w.endsWith('!')).map((w) => w.slice(0, -1)) });
}

export class MetadataReader {
  /** Nodes by their `!N`, defined or only referenced so far. */
  readonly byId: (MDNode | undefined)[] = [];
  /** Numbered nodes in definition order. */
  readonly defined: MDNode[] = [];
  /** Where each referenced but not yet defined `!N` was first used. */
  readonly pendingUse = new Map<number, number>();

  constructor(
    private readonly lx: Lexer,
    private readonly host: MetadataHost,
  ) {}

  /** The node `!N` (the current MetadataID token), created empty when not defined yet; consumes it. */
  ref(): MDNode {
    const lx = this.lx;
    const n = lx.num;
    let node = this.byId[n];
    if (node === undefined) {
      node = new MDNode('', [], null);
      node.inputId = n;
      this.byId[n] = node;
      this.pendingUse.set(n, lx.loc());
    }
    lx.next();
    return node;
  }

  /** `!N = [distinct] node` at top level; the current token is the MetadataID. */
  parseNumberedDefinition(): void {
    const lx = this.lx;
    const n = lx.num;
    let node = this.byId[n];
    if (node !== undefined && !this.pendingUse.has(n)) this.host.error('Metadata id is already used');
    lx.next();
    if (lx.tk() !== Tok.Equal) this.host.error(`expected '=' in metadata definition, found ${this.host.describe()}`);
    lx.next();
    const distinct = this.eatDistinct();
    if (node === undefined) {
      node = new MDNode('', [], null);
      node.inputId = n;
      this.byId[n] = node;
    }
    this.pendingUse.delete(n);
    if (lx.tk() === Tok.Exclaim) {
      lx.next();
      if (lx.tk() !== Tok.LBrace) this.host.error("expected '{' here");
      this.parseTupleBody(node, false);
    } else if (lx.tk() === Tok.MetadataVar) this.parseSpecialized(node, false);
    else this.host.error(`expected metadata node, found ${this.host.describe()}`);
    node.distinct = distinct;
    if (node.name === 'DILocation') uniqueLocation(node);
    this.defined.push(node);
  }

  private eatDistinct(): boolean {
    const lx = this.lx;
    if (lx.tk() === Tok.Word && lx.text === 'distinct') {
      lx.next();
      return true;
    }
    return false;
  }

  /** `!{!0, !1}` of named metadata (the current token is the `!` before `{`); only nodes. */
  parseNamedOperands(): MDNode[] {
    const lx = this.lx;
    if (lx.tk() !== Tok.Exclaim) this.host.error(`expected '!' here, found ${this.host.describe()}`);
    lx.next();
    if (lx.tk() !== Tok.LBrace) this.host.error("expected '{' here");
    lx.next();
    const ops: MDNode[] = [];
    if (lx.tk() !== Tok.RBrace) {
      for (;;) {
        if (lx.tk() === Tok.MetadataID) ops.push(this.ref());
        else if (lx.tk() === Tok.MetadataVar && lx.text === 'DIExpression') ops.push(this.parseInlineNode(false));
        else this.host.error(`expected metadata node, found ${this.host.describe()}`);
        if (lx.tk() !== Tok.Comma) break;
        lx.next();
      }
    }
    if (lx.tk() !== Tok.RBrace) this.host.error(`expected '}' here, found ${this.host.describe()}`);
    lx.next();
    return ops;
  }

  /** A node operand: `!N`, `!{…}` or `!DIKind(…)` (for attachments and node-only fields). */
  parseNode(allowLocal: boolean): MDNode {
    const lx = this.lx;
    if (lx.tk() === Tok.MetadataID) return this.ref();
    if (lx.tk() === Tok.Exclaim || lx.tk() === Tok.MetadataVar) {
      const save = lx.loc();
      const m = this.parseMetadata(allowLocal);
      if (m === null || m.mdKind !== 1) this.host.error('expected metadata node', save);
      return m as MDNode;
    }
    return this.host.error(`expected metadata node, found ${this.host.describe()}`);
  }

  private parseInlineNode(allowLocal: boolean): MDNode {
    const node = new MDNode('', [], null);
    const lx = this.lx;
    if (lx.tk() === Tok.Exclaim) {
      lx.next();
      this.parseTupleBody(node, allowLocal);
    } else {
      const distinct = false;
      this.parseSpecialized(node, allowLocal);
      node.distinct = distinct;
    }
    return node;
  }

  /**
   * Any metadata: `!N`, `!"s"`, `!{…}`, `!DIKind(…)`, `null` (when allowed) or `type value`.
   */
  parseMetadata(allowLocal: boolean, allowNull = false): Metadata | null {
    const lx = this.lx;
    switch (lx.tk()) {
      case Tok.MetadataID:
        return this.ref();
      case Tok.Exclaim: {
        lx.next();
        if (lx.tk() === Tok.String) {
          const raw = lx.slice(lx.start + 1, this.stringEnd());
          lx.next();
          return MDString.get(raw);
        }
        if (lx.tk() !== Tok.LBrace) this.host.error("expected '{' or a string after '!'");
        const node = new MDNode('', [], null);
        this.parseTupleBody(node, allowLocal);
        return node;
      }
      case Tok.MetadataVar: {
        const node = new MDNode('', [], null);
        this.parseSpecialized(node, allowLocal);
        return node;
      }
      case Tok.Word:
        if (lx.text === 'null' && allowNull) {
          lx.next();
          return null;
        }
        if (lx.text === 'distinct') this.host.error('distinct is only allowed on a numbered metadata definition');
        break;
      default:
        break;
    }
    return ValueAsMetadata.get(this.host.parseTypedValue(allowLocal));
  }

  /** End offset (exclusive) of the closing quote of the current String token's body. */
  private stringEnd(): number {
    // The token is `"…"`: pos is just after the closing quote.
    return this.lx.pos - 1;
  }

  /** `{ op, op, … }` (the current token is `{`), into `node` as a tuple. */
  private parseTupleBody(node: MDNode, allowLocal: boolean): void {
    const lx = this.lx;
    lx.next();
    const ops: MDOperand[] = [];
    if (lx.tk() !== Tok.RBrace) {
      for (;;) {
        ops.push(this.parseMetadata(allowLocal, true));
        if (lx.tk() !== Tok.Comma) break;
        lx.next();
      }
    }
    if (lx.tk() !== Tok.RBrace) this.host.error(`expected '}' here, found ${this.host.describe()}`);
    lx.next();
    node.name = '';
    node.keys = null;
    node.ops = ops;
  }

  /** `!DIKind(field: value, …)`, `!DIExpression(…)` or `!DIArgList(…)` into `node`. */
  private parseSpecialized(node: MDNode, allowLocal: boolean): void {
    const lx = this.lx;
    const kind = lx.text;
    const kindLoc = lx.loc();
    lx.next();
    if (lx.tk() !== Tok.LParen) this.host.error("expected '(' here");
    const open = lx.pos;
    lx.next();
    node.name = kind;
    if (kind === 'DIExpression') {
      // DW_OP_… words and integers, kept as text
      while (lx.tk() !== Tok.RParen) {
        if (lx.tk() !== Tok.Word && lx.tk() !== Tok.Int && lx.tk() !== Tok.Comma) this.host.error(`expected DWARF operation or integer, found ${this.host.describe()}`);
        lx.next();
      }
      node.ops = [lx.slice(open, lx.start).trim()];
      node.keys = null;
      lx.next();
      return;
    }
    if (kind === 'DIArgList') {
      const ops: MDOperand[] = [];
      if (lx.tk() !== Tok.RParen) {
        for (;;) {
          ops.push(ValueAsMetadata.get(this.host.parseTypedValue(allowLocal)));
          if (lx.tk() !== Tok.Comma) break;
          lx.next();
        }
      }
      if (lx.tk() !== Tok.RParen) this.host.error(`expected ')' here, found ${this.host.describe()}`);
      lx.next();
      node.ops = ops;
      node.keys = null;
      return;
    }
    const spec = FIELD_SETS.get(kind);
    if (spec === undefined) this.host.error(`expected metadata type, found '!${kind}'`, kindLoc);
    const keys: string[] = [];
    const ops: MDOperand[] = [];
    if (lx.tk() !== Tok.RParen) {
      for (;;) {
        if (lx.tk() !== Tok.LabelStr) this.host.error(`expected field label here, found ${this.host.describe()}`);
        const key = lx.text;
        if (!spec.all.has(key)) this.host.error(`invalid field '${key}'`);
        if (keys.includes(key)) this.host.error(`field '${key}' cannot be specified more than once`);
        lx.next();
        keys.push(key);
        ops.push(this.parseFieldValue(allowLocal));
        if (lx.tk() !== Tok.Comma) break;
        lx.next();
      }
    }
    if (lx.tk() !== Tok.RParen) this.host.error(`expected ')' here, found ${this.host.describe()}`);
    for (const r of spec.required) if (!keys.includes(r)) this.host.error(`missing required field '${r}'`, lx.loc());
    lx.next();
    node.keys = keys;
    node.ops = ops;
  }

  /** A field's value: metadata, `null`, or literal text up to the next `,` or `)`. */
  private parseFieldValue(allowLocal: boolean): MDOperand {
    const lx = this.lx;
    const t = lx.tk();
    if (t === Tok.MetadataID || t === Tok.Exclaim || t === Tok.MetadataVar) return this.parseMetadata(allowLocal);
    if (t === Tok.Word && lx.text === 'null') {
      lx.next();
      return null;
    }
    const s = lx.start;
    if (t === Tok.String) {
      lx.next();
      return lx.slice(s, lx.prevEnd);
    }
    if (t !== Tok.Word && t !== Tok.Int) this.host.error(`expected a field value, found ${this.host.describe()}`);
    lx.next();
    // flags: `DIFlagA | DIFlagB`
    while (lx.tk() === Tok.Pipe) {
      lx.next();
      if (lx.tk() !== Tok.Word && lx.tk() !== Tok.Int) this.host.error(`expected a flag, found ${this.host.describe()}`);
      lx.next();
    }
    return lx.slice(s, lx.prevEnd);
  }

  /** `, !kind node` attachments after an instruction or global; the current token is the MetadataVar. */
  parseAttachment(allowLocal: boolean): MDAttachment {
    const lx = this.lx;
    if (lx.text === 'dbg') metadataHooks.active = true; // passes now carry locations (see metadata.ts)
    const kind = lx.text;
    lx.next();
    return { kind, node: this.parseNode(allowLocal) };
  }

  /**
   * A debug record `#dbg_value(…)`; the current token is the `#dbg_…` word. Operand forms
   * are LLParser's parseDebugRecord: location (a value, `!DIArgList(…)` or a node),
   * variable, expression, [assign id, address, address expression], debug location.
   */
  parseDebugRecord(): DbgRecord {
    const lx = this.lx;
    const word = lx.text;
    const kind = word.slice(5) as DbgRecordKind;
    if (kind !== 'value' && kind !== 'declare' && kind !== 'assign' && kind !== 'label') this.host.error(`expected debug record type here, found '${word}'`);
    lx.next();
    if (lx.tk() !== Tok.LParen) this.host.error(`expected '(' here`);
    lx.next();
    const ops: MDOperand[] = [];
    const comma = (): void => {
      if (lx.tk() !== Tok.Comma) this.host.error(`expected ',' here, found ${this.host.describe()}`);
      lx.next();
    };
    if (kind === 'label') {
      ops.push(this.parseNode(false));
      comma();
    } else {
      ops.push(this.parseMetadata(true)); // location
      comma();
      ops.push(this.parseNode(false)); // variable
      comma();
      ops.push(this.parseNode(false)); // expression
      comma();
      if (kind === 'assign') {
        ops.push(this.parseNode(false)); // DIAssignID
        comma();
        ops.push(this.parseMetadata(true)); // address
        comma();
        ops.push(this.parseNode(false)); // address expression
        comma();
      }
    }
    const loc = this.parseNode(false);
    if (lx.tk() !== Tok.RParen) this.host.error(`expected ')' here, found ${this.host.describe()}`);
    lx.next();
    return new DbgRecord(kind, ops, loc);
  }
}

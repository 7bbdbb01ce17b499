/**
 * Opcodes, comparison predicates and instruction flags, spelled as in LLVM's IR.
 */

export enum Opcode {
  // terminators
  Ret,
  Br,
  Switch,
  IndirectBr,
  Unreachable,
  // unary
  FNeg,
  // binary
  Add,
  FAdd,
  Sub,
  FSub,
  Mul,
  FMul,
  UDiv,
  SDiv,
  FDiv,
  URem,
  SRem,
  FRem,
  Shl,
  LShr,
  AShr,
  And,
  Or,
  Xor,
  // memory
  Alloca,
  Load,
  Store,
  GetElementPtr,
  Fence,
  AtomicCmpXchg,
  AtomicRMW,
  // casts
  Trunc,
  ZExt,
  SExt,
  FPToUI,
  FPToSI,
  UIToFP,
  SIToFP,
  FPTrunc,
  FPExt,
  PtrToInt,
  IntToPtr,
  BitCast,
  AddrSpaceCast,
  // other
  ICmp,
  FCmp,
  Phi,
  Call,
  Select,
  VAArg,
  ExtractElement,
  InsertElement,
  ShuffleVector,
  ExtractValue,
  InsertValue,
  Freeze,
}

export const OPCODE_NAMES: readonly string[] = [
  'ret', 'br', 'switch', 'indirectbr', 'unreachable',
  'fneg',
  'add', 'fadd', 'sub', 'fsub', 'mul', 'fmul', 'udiv', 'sdiv', 'fdiv', 'urem', 'srem', 'frem',
  'shl', 'lshr', 'ashr', 'and', 'or', 'xor',
  'alloca', 'load', 'store', 'getelementptr', 'fence', 'cmpxchg', 'atomicrmw',
  'trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext',
  'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast',
  'icmp', 'fcmp', 'phi', 'call', 'select', 'va_arg',
  'extractelement', 'insertelement', 'shufflevector', 'extractvalue', 'insertvalue', 'freeze',
];

export const OPCODE_BY_NAME: ReadonlyMap<string, Opcode> = new Map(OPCODE_NAMES.map((n, i) => [n, i as Opcode]));

export function isTerminatorOp(op: Opcode): boolean {
  return op <= Opcode.Unreachable;
}
export function isBinaryOp(op: Opcode): boolean {
  return op >= Opcode.Add && op <= Opcode.Xor;
}
export function isCastOp(op: Opcode): boolean {
  return op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast;
}
export function isFloatBinaryOp(op: Opcode): boolean {
  return op === Opcode.FAdd || op === Opcode.FSub || op === Opcode.FMul || op === Opcode.FDiv || op === Opcode.FRem;
}
/** a op b == b op a */
export function isCommutative(op: Opcode): boolean {
  return (
    op === Opcode.Add || op === Opcode.Mul || op === Opcode.And || op === Opcode.Or || op === Opcode.Xor ||
    op === Opcode.FAdd || op === Opcode.FMul
  );
}

/** Comparison predicates, numbered as in LLVM's CmpInst::Predicate. */
export enum Pred {
  FCMP_FALSE = 0,
  FCMP_OEQ = 1,
  FCMP_OGT = 2,
  FCMP_OGE = 3,
  FCMP_OLT = 4,
  FCMP_OLE = 5,
  FCMP_ONE = 6,
  FCMP_ORD = 7,
  FCMP_UNO = 8,
  FCMP_UEQ = 9,
  FCMP_UGT = 10,
  FCMP_UGE = 11,
  FCMP_ULT = 12,
  FCMP_ULE = 13,
  FCMP_UNE = 14,
  FCMP_TRUE = 15,
  EQ = 32,
  NE = 33,
  UGT = 34,
  UGE = 35,
  ULT = 36,
  ULE = 37,
  SGT = 38,
  SGE = 39,
  SLT = 40,
  SLE = 41,
}

const FCMP_NAMES = ['false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true'];
const ICMP_NAMES = ['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle'];

export function predName(p: Pred): string {
  return p >= 32 ? ICMP_NAMES[p - 32] : FCMP_NAMES[p];
}
export function icmpPredByName(s: string): Pred | undefined {
  const i = ICMP_NAMES.indexOf(s);
  return i < 0 ? undefined : ((i + 32) as Pred);
}
export function fcmpPredByName(s: string): Pred | undefined {
  const i = FCMP_NAMES.indexOf(s);
  return i < 0 ? undefined : (i as Pred);
}
/** The predicate with operands swapped: a < b  <=>  b > a. */
export function swappedPred(p: Pred): Pred {
  switch (p) {
    case Pred.UGT: return Pred.ULT;
    case Pred.ULT: return Pred.UGT;
    case Pred.UGE: return Pred.ULE;
    case Pred.ULE: return Pred.UGE;
    case Pred.SGT: return Pred.SLT;
    case Pred.SLT: return Pred.SGT;
    case Pred.SGE: return Pred.SLE;
    case Pred.SLE: return Pred.SGE;
    case Pred.FCMP_OGT: return Pred.FCMP_OLT;
    case Pred.FCMP_OLT: return Pred.FCMP_OGT;
    case Pred.FCMP_OGE: return Pred.FCMP_OLE;
    case Pred.FCMP_OLE: return Pred.FCMP_OGE;
    case Pred.FCMP_UGT: return Pred.FCMP_ULT;
    case Pred.FCMP_ULT: return Pred.FCMP_UGT;
    case Pred.FCMP_UGE: return Pred.FCMP_ULE;
    case Pred.FCMP_ULE: return Pred.FCMP_UGE;
    default: return p;
  }
}
/** The predicate that holds exactly when `p` does not: !(a < b)  <=>  a >= b. */
export function inversePred(p: Pred): Pred {
  if (p >= 32) {
    switch (p) {
      case Pred.EQ: return Pred.NE;
      case Pred.NE: return Pred.EQ;
      case Pred.UGT: return Pred.ULE;
      case Pred.ULE: return Pred.UGT;
      case Pred.UGE: return Pred.ULT;
      case Pred.ULT: return Pred.UGE;
      case Pred.SGT: return Pred.SLE;
      case Pred.SLE: return Pred.SGT;
      case Pred.SGE: return Pred.SLT;
      default: return Pred.SGE;
    }
  }
  return (15 - p) as Pred; // LLVM's fcmp encoding: the inverse is the bitwise complement
}
export function isSignedPred(p: Pred): boolean {
  return p >= Pred.SGT && p <= Pred.SLE;
}
export function isUnsignedPred(p: Pred): boolean {
  return p >= Pred.UGT && p <= Pred.ULE;
}

/** Instruction flag bits (`Instruction.flags`). */
export enum Flag {
  NSW = 1 << 0,
  NUW = 1 << 1,
  Exact = 1 << 2,
  Disjoint = 1 << 3,
  InBounds = 1 << 4,
  NNeg = 1 << 5,
  // fast-math flags
  NNaN = 1 << 6,
  NInf = 1 << 7,
  NSZ = 1 << 8,
  ARcp = 1 << 9,
  Contract = 1 << 10,
  AFn = 1 << 11,
  Reassoc = 1 << 12,
  // call / memory
  Tail = 1 << 13,
  MustTail = 1 << 14,
  NoTail = 1 << 15,
  Volatile = 1 << 16,
  /** alloca `inalloca`, GEP `nusw` (LLVM 19 spelling), … kept for printing. */
  InAlloca = 1 << 17,
  NUSW = 1 << 18,
  Atomic = 1 << 19,
}

export const FAST_MATH_MASK = (1 << 6) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12);

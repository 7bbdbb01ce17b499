/**
 * Reads a type written in LLVM syntax at the start of a string, for the types the parser
 * keeps inside attribute text (`byval(%struct.S)`, `sret([4 x i32])`). Returns null when
 * the text does not start with a type this small reader knows.
 */
import type { Module } from '../ir/module.js';
import {
  Type, arrayType, doubleType, floatType, fp128Type, halfType, intType, ptr, structType, vectorType, x86fp80Type,
} from '../ir/types.js';

export function typeFromText(text: string, module: Module | null): Type | null {
  let pos = 0;
  const ws = (): void => {
    while (pos < text.length && /\s/.test(text[pos])) pos++;
  };
  const parse = (): Type | null => {
    ws();
    const rest = text.slice(pos);
    let m: RegExpExecArray | null;
    if ((m = /^i([0-9]+)/.exec(rest))) {
      pos += m[0].length;
      return intType(+m[1]);
    }
    for (const [w, t] of [['float', floatType], ['double', doubleType], ['x86_fp80', x86fp80Type], ['fp128', fp128Type], ['half', halfType], ['ptr', ptr]] as const) {
      if (rest.startsWith(w)) {
        pos += w.length;
        return t;
      }
    }
    if ((m = /^%("(?:[^"\\]|\\.)*"|[-a-zA-Z$._0-9]+)/.exec(rest))) {
      pos += m[0].length;
      const name = m[1].startsWith('"') ? m[1].slice(1, -1) : m[1];
      return module?.getStruct(name) ?? null;
    }
    if ((m = /^([[<])\s*([0-9]+)\s*x\s*/.exec(rest))) {
      pos += m[0].length;
      const e = parse();
      ws();
      pos++; // ] or >
      if (e === null) return null;
      return m[1] === '[' ? arrayType(e, +m[2]) : vectorType(e, +m[2]);
    }
    const packed = rest.startsWith('<{');
    if (packed || rest.startsWith('{')) {
      pos += packed ? 2 : 1;
      const members: Type[] = [];
      ws();
      if (text[pos] === '}') pos++;
      else {
        for (;;) {
          const t = parse();
          if (t === null) return null;
          members.push(t);
          ws();
          if (text[pos] === ',') {
            pos++;
            continue;
          }
          pos++; // }
          break;
        }
      }
      if (packed) pos++; // >
      return structType(members, packed);
    }
    return null;
  };
  return parse();
}

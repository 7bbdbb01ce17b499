/**
 * Names as byte strings (src/util/name-bytes.ts): every byte sequence survives decode →
 * encode exactly; valid UTF-8 decodes as TextDecoder does; and the printer escapes a parsed
 * name back to the same bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';
import { decodeNameBytes, encodeNameBytes } from '../../src/util/name-bytes.js';

const hex = (bytes: ArrayLike<number>): string => Array.from(bytes, (b) => '\\' + b.toString(16).toUpperCase().padStart(2, '0')).join('');

describe('name bytes', () => {
  it('decode then encode gives back any byte sequence', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        expect(encodeNameBytes(decodeNameBytes(bytes))).toEqual(Array.from(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it('valid UTF-8 decodes as TextDecoder decodes it, and encodes as TextEncoder does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (s) => {
        const bytes = new TextEncoder().encode(s);
        expect(decodeNameBytes(bytes)).toBe(s);
        expect(encodeNameBytes(s)).toEqual(Array.from(bytes));
      }),
      { numRuns: 1000 },
    );
  });

  it('a global named by any bytes prints with exactly those bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 12 }), (bytes) => {
        const out = printModule(parseModule(`@"${hex(bytes)}" = global i32 0\n`));
        const m = /^@"?(.*?)"? = global i32 0$/m.exec(out);
        expect(m).not.toBeNull();
        // undo the printer's escapes: \\ and \XX
        const printed = m![1].replace(/\\\\|\\([0-9A-F]{2})/g, (e, h: string | undefined) => (h === undefined ? '\u{DC5C}' : String.fromCharCode(0xdc00 + parseInt(h, 16))));
        const back = Array.from(printed, (ch) => (ch.charCodeAt(0) >= 0xdc00 ? ch.charCodeAt(0) - 0xdc00 : ch.charCodeAt(0)));
        expect(back).toEqual(Array.from(bytes));
      }),
      { numRuns: 500 },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextBuffer } from '../../src/text/text-buffer.js';
import { parseModule } from '../../src/text/parser.js';
import { printModule } from '../../src/text/printer.js';

/** Mostly ASCII, sometimes any UTF-16 code unit (lone surrogates included), sometimes whole code points. */
const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const piece = fc.oneof(
  fc.string({ unit: 'binary-ascii', maxLength: 30 }),
  fc.string({ unit: anyUnit, maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
);

describe('TextBuffer', () => {
  it('gives back exactly the pieces written, for any UTF-16 (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const w = new TextBuffer();
        for (const p of pieces) w.str(p);
        expect(w.take()).toBe(pieces.join(''));
        expect(w.take()).toBe('');
      }),
    );
  });

  it('gives the same text as UTF-8 bytes (as writing the string to a file would)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const w = new TextBuffer();
        for (const p of pieces) w.str(p);
        expect(Buffer.from(w.takeBytes()).equals(Buffer.from(pieces.join(''), 'utf8'))).toBe(true);
        expect(w.takeBytes().length).toBe(0);
      }),
    );
  });

  it('writes integers in decimal', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom(0, 9, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, 2 ** 32)), { maxLength: 30 }), (ns) => {
        const w = new TextBuffer();
        for (const n of ns) {
          w.uint(n);
          w.char(44);
        }
        expect(w.take()).toBe(ns.map((n) => String(n) + ',').join(''));
      }),
    );
  });

  it('grows past its first block and keeps chars, spaces and strings in order', () => {
    const w = new TextBuffer();
    let expected = '';
    for (let k = 0; k < 20000; k++) {
      w.str('line ' + k);
      w.char(58);
      w.spaces(k % 7);
      if (k % 1000 === 0) w.str('é∑😀\udc80');
      expected += 'line ' + k + ':' + ' '.repeat(k % 7) + (k % 1000 === 0 ? 'é∑😀\udc80' : '');
    }
    expect(w.take()).toBe(expected);
  });
});

describe('printer through the byte buffer', () => {
  it('prints non-ASCII metadata text and quoted names as it read them', () => {
    const src = [
      'define i32 @"h\\C3\\A9llo"(i32 %x) {',
      'entry:',
      '  %"ü" = add i32 %x, 1, !note !0',
      '  ret i32 %"ü"',
      '}',
      '',
      '!0 = !{!"grüße ∑"}',
      '',
    ].join('\n');
    const out = printModule(parseModule(src, 't.ll'));
    expect(out).toContain('define i32 @"h\\C3\\A9llo"(i32 %x) {');
    expect(out).toContain('%"\\C3\\BC" = add i32 %x, 1, !note !0');
    expect(out).toContain('!0 = !{!"grüße ∑"}');
    expect(printModule(parseModule(out, 't2.ll'))).toBe(out);
  });
});

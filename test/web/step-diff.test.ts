/**
 * The pipeline view's diff (web/src/step-diff.ts, worker side) and its rendering helpers
 * (web/src/diff-view.ts), in Node. Oracles: a textbook LCS table (the Myers diff is minimal,
 * so its equal lines are a longest common subsequence) and the texts themselves (the chunks
 * rebuild both sides; the HTML, unescaped, is the line); and the editor's SysY tokenizer
 * (web/src/sysy-lang.ts) against the frontend's own lexer, on every SysY program of the
 * project and a few generated ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { StringStream } from '@codemirror/language';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignLines, irLines, lineChunks } from '../../web/src/step-diff.js';
import { compileSysY, ensureRegistered, printFunction, runPipeline } from '../../src/index.js';
import { changedSpans, lineHtml } from '../../web/src/diff-view.js';
import { sysyParser } from '../../web/src/sysy-lang.js';
import { Tok, tokenize } from '../../src/frontend/sysy/lexer.js';
import { generateSysYProgram } from '../../src/fuzz/sysy-gen.js';

function lcsLength(a: string[], b: string[]): number {
  const t: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
  return t[0][0];
}

/** Both sides rebuilt from the chunks; throws if an equal line is not equal. */
function rebuild(a: string[], b: string[], chunks: number[]): { a: string[]; b: string[]; equal: number } {
  const ra: string[] = [];
  const rb: string[] = [];
  let i = 0;
  let j = 0;
  let equal = 0;
  expect(chunks.length % 3).toBe(0);
  for (let c = 0; c < chunks.length; c += 3) {
    const [e, d, n] = chunks.slice(c, c + 3);
    for (let k = 0; k < e; k++) {
      expect(a[i + k]).toBe(b[j + k]);
      ra.push(a[i + k]);
      rb.push(b[j + k]);
    }
    equal += e;
    i += e;
    j += e;
    ra.push(...a.slice(i, i + d));
    rb.push(...b.slice(j, j + n));
    i += d;
    j += n;
  }
  return { a: ra, b: rb, equal };
}

const unhtml = (h: string) => h.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe('step diff', () => {
  it('the alignment keeps a longest common subsequence of lines and rebuilds both texts (random texts)', () => {
    const line = fc.constantFrom('  %1 = add i32 %0, 1', '  br label %b', 'b:', '  ret i32 %1', '', '  %2 = mul i32 %1, %1', '}');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const chunks = alignLines(a, b);
        const r = rebuild(a, b, chunks);
        expect(r.a).toEqual(a);
        expect(r.b).toEqual(b);
        expect(r.equal).toBe(lcsLength(a, b));
        // no empty triples, and a triple's equal run never follows a triple without a change
        for (let c = 0; c < chunks.length; c += 3) expect(chunks[c] + chunks[c + 1] + chunks[c + 2]).toBeGreaterThan(0);
        for (let c = 3; c < chunks.length; c += 3) expect(chunks[c - 2] + chunks[c - 1]).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it('a change in a long function is one chunk between its common head and tail', () => {
    const a = Array.from({ length: 500 }, (_, k) => `  %x${k} = add i32 %x, ${k}`);
    const b = a.slice();
    b.splice(250, 1, '  %x250 = sub i32 %x, 250', '  %y = mul i32 %x250, 2');
    expect(lineChunks(a.join('\n') + '\n', b.join('\n') + '\n')).toEqual([250, 1, 2, 249, 0, 0]);
    expect(lineChunks('', 'x\ny\n')).toEqual([0, 0, 2]);
    expect(lineChunks('x\n', 'x\n')).toEqual([1, 0, 0]);
  });

  // the IR of a real function: sort.sy's @main after -O2 (70-odd numbered values)
  const m = compileSysY(readFileSync('examples/sort.sy', 'utf8'), 'sort.sy', { ssa: 'braun' }).module!;
  ensureRegistered();
  runPipeline(m, 'default<O2>');
  const main = printFunction(m.getFunction('main')!);
  const lines = irLines(main);
  const values = [...new Set(lines.flatMap((l) => (l.match(/%\d+\b/g) ?? []) as string[]))];
  /** The text with its numbered values renamed by `perm` (a permutation of `values`' indices). */
  const renumber = (text: string, perm: number[]) => text.replace(/%\d+\b/g, (v) => values[perm[values.indexOf(v)]]);

  it('a renumbering of the values is no change; an operand that changes besides is one changed line (random renumberings of a real function)', () => {
    expect(values.length).toBeGreaterThan(30);
    const uses = (v: string) => lines.reduce((n, l) => n + (l.match(new RegExp(`${v}\\b`, 'g'))?.length ?? 0), 0);
    const often = values.filter((v) => uses(v) >= 3);
    fc.assert(
      fc.property(fc.shuffledSubarray(values.map((_, k) => k), { minLength: values.length }), fc.nat(), fc.nat(), (perm, pickLine, pickValue) => {
        const after = renumber(main, perm);
        expect(lineChunks(main, after)).toEqual([lines.length, 0, 0]);
        // one operand of one line (not a definition) becomes another value used at least twice
        const at = lines.map((l, k) => ({ l, k })).filter(({ l }) => often.some((v) => new RegExp(`, ${v}\\b|\\(${v}\\b| ${v},`).test(l.replace(/^\s*%\d+ = /, ''))));
        const { l, k } = at[pickLine % at.length];
        const body = l.replace(/^\s*%\d+ = /, '');
        const old = often.find((v) => new RegExp(`${v}\\b`).test(body))!;
        const other = often.filter((v) => v !== old)[pickValue % (often.length - 1)];
        const changed = lines.slice();
        changed[k] = l.slice(0, l.length - body.length) + body.replace(new RegExp(`${old}\\b`), other);
        const chunks = lineChunks(main, renumber(changed.join('\n'), perm));
        expect(chunks).toEqual([k, 1, 1, lines.length - k - 1, 0, 0].filter((_, t) => !(k === lines.length - 1 && t >= 3)));
      }),
      { numRuns: 100 },
    );
  });

  it('marks the tokens outside a longest common subsequence of tokens', () => {
    // a renumbered value: only the names that differ are marked
    const a = '  %4 = icmp ult i32 %3, 7';
    const b = '  %3 = icmp ult i32 %1, 7';
    const s = changedSpans(a, b);
    expect(s.a.map(([f, t]) => a.slice(f, t))).toEqual(['%4', '%3']);
    expect(s.b.map(([f, t]) => b.slice(f, t))).toEqual(['%3', '%1']);
    expect(changedSpans(a, a)).toEqual({ a: [], b: [] });
    // an inserted operand
    const c = '  call void @f(i32 %x)';
    const d = '  call void @f(i32 %x, i32 %y)';
    expect(changedSpans(c, d).b.map(([f, t]) => d.slice(f, t))).toEqual([', i32 %y']);
    expect(changedSpans(c, d).a).toEqual([]);
  });

  it('a line as HTML is the line, escaped, its marks where asked (random lines and marks)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.array(fc.nat(60), { maxLength: 6 }), (line, cuts) => {
        const cs = [...new Set(cuts.map((c) => Math.min(c, line.length)))].sort((x, y) => x - y);
        const marks: [number, number][] = [];
        for (let k = 0; k + 1 < cs.length; k += 2) marks.push([cs[k], cs[k + 1]]);
        const html = lineHtml(line, marks);
        expect(unhtml(html)).toBe(line);
        const marked = [...html.matchAll(/<mark>(.*?)<\/mark>/g)].map((m) => unhtml(m[1])).join('');
        expect(marked).toBe(marks.map(([f, t]) => line.slice(f, t)).join(''));
      }),
      { numRuns: 300 },
    );
  });
});

/** Per character of `src`: the style the editor's SysY tokenizer gives it, and the tokens' ranges. */
function streamStyles(src: string): { style: (string | null)[]; tokens: Map<number, number> } {
  const state = sysyParser.startState!(2);
  const style: (string | null)[] = [];
  const tokens = new Map<number, number>();
  let base = 0;
  for (const line of src.split('\n')) {
    const stream = new StringStream(line, 4, 2);
    while (!stream.eol()) {
      stream.start = stream.pos;
      const s = sysyParser.token(stream, state) ?? null;
      if (stream.pos === stream.start) throw new Error(`the tokenizer does not advance at ${base + stream.start}`);
      for (let k = stream.start; k < stream.pos; k++) style[base + k] = s;
      tokens.set(base + stream.start, base + stream.pos);
    }
    base += line.length + 1;
  }
  return { style, tokens };
}

describe("the editor's SysY highlighting agrees with the frontend's lexer", () => {
  const expected = (k: Tok): string[] | null =>
    k === Tok.Ident ? ['variableName', 'standard(variableName)']
    : k === Tok.IntLit || k === Tok.FloatLit ? ['number']
    : k === Tok.String ? ['string']
    : k === Tok.KwInt || k === Tok.KwFloat || k === Tok.KwVoid ? ['typeName']
    : k >= Tok.KwConst && k <= Tok.KwReturn ? ['keyword']
    : null;
  const files = [...readdirSync('examples').filter((f) => f.endsWith('.sy')).map((f) => `examples/${f}`), ...readdirSync('bench/sysy-perf').filter((f) => f.endsWith('.sy')).map((f) => `bench/sysy-perf/${f}`)];
  const sources = [...files.map((f) => ({ name: f, src: readFileSync(f, 'utf8') })), ...[1, 2, 3, 4, 5].map((s) => ({ name: `generated seed ${s}`, src: generateSysYProgram(s, { size: 'small', functions: 2, maxStmts: 4, globals: 4 }) }))];
  it.each(sources)('$name', ({ src }) => {
    const { style, tokens } = streamStyles(src);
    const covered = new Uint8Array(src.length);
    // the disagreements (one expect at the end: an expect per character took seconds)
    const bad: string[] = [];
    for (const t of tokenize(src)) {
      if (t.kind === Tok.EOF) break;
      if (t.kind === Tok.Error) bad.push(`lexer error at ${t.start}: ${t.value}`);
      covered.fill(1, t.start, t.end);
      const want = expected(t.kind);
      const text = src.slice(t.start, t.end);
      if (want === null) {
        // operators and punctuation: one tokenizer token per character, none a name or a number
        for (let k = t.start; k < t.end; k++) if (!['operator', 'bracket', 'punctuation'].includes(style[k] ?? '')) bad.push(`${text} at ${k}: ${style[k]}`);
      } else if (tokens.get(t.start) !== t.end || !want.includes(style[t.start] ?? '')) bad.push(`${text} at ${t.start}: ${style[t.start]} to ${tokens.get(t.start)}`);
    }
    // everything else that is not blank is a comment
    for (let k = 0; k < src.length; k++) if (covered[k] === 0 && !/\s/.test(src[k]) && style[k] !== 'comment') bad.push(`${JSON.stringify(src.slice(k, k + 20))} at ${k}: ${style[k]}`);
    expect(bad).toEqual([]);
  });
});

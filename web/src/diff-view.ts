/**
 * The pipeline view's IR before and after a step, side by side, changes highlighted: static
 * HTML built in one string from the worker's line diff (step-diff.ts). It replaced
 * @codemirror/merge's MergeView, which the page rebuilt on every edit: two editors, a
 * character diff of the whole texts on the main thread, and each editor's measuring (it reads
 * the DOM selection and line heights, forcing layouts), about half of the page's main-thread
 * time per edit. Here an edit costs one innerHTML of the rows and one layout.
 *
 * Invariants: the left cells, read in order with every fold opened, are the lines of
 * `before`, the right cells those of `after` (fillers aside); an unchanged run longer than
 * MARGIN + MIN_FOLD + MARGIN lines (MergeView's collapseUnchanged) shows MARGIN lines next
 * to the changes and one fold row, which opens on a click. Rows come in groups with
 * `content-visibility: auto`, so a long view lays out only what is on screen. The same
 * texts again draw nothing.
 */
import { StringStream } from '@codemirror/language';
import { llvmParser } from './llvm-lang.js';
import { NUMBERED, irLines } from './step-diff.js';

/** Unchanged lines kept beside a change, and the fewest a fold hides. */
const MARGIN = 3;
const MIN_FOLD = 8;
/** Rows per group (each group is skipped by layout and paint while off screen). */
const GROUP = 64;

/** The tokenizer's styles -> CSS classes (style.css colours them like CodeMirror's default highlight style). */
const CLASS: Record<string, string> = { comment: 'tc', string: 'ts', labelName: 'tl', variableName: 'tv', 'function(variableName)': 'tf', meta: 'tm', typeName: 'tt', keyword: 'tk', number: 'tn' };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Longer lines are not tokenized (CodeMirror's StringStream matches on the rest of the line: quadratic). */
const MAX_TOKENIZED = 2000;

/**
 * A line as HTML: its tokens in spans (the editor's LLVM tokenizer), the column ranges
 * `marks` (sorted, disjoint) in <mark>s of class `markClass`.
 */
export function lineHtml(line: string, marks: [number, number][] = [], markClass = ''): string {
  const stream = new StringStream(line, 4, 2);
  const open = markClass === '' ? '<mark>' : `<mark class="${markClass}">`;
  let html = '';
  let m = 0;
  while (!stream.eol()) {
    stream.start = stream.pos;
    const style = line.length > MAX_TOKENIZED ? (stream.skipToEnd(), null) : llvmParser.token(stream, null);
    if (stream.pos === stream.start) stream.next();
    const cls = style ? CLASS[style] : undefined;
    // the token, cut where marks start and end
    for (let at = stream.start; at < stream.pos; ) {
      while (m < marks.length && marks[m][1] <= at) m++;
      const inMark = m < marks.length && marks[m][0] <= at;
      const end = Math.min(stream.pos, m < marks.length ? (inMark ? marks[m][1] : marks[m][0]) : stream.pos);
      const text = esc(line.slice(at, end));
      const span = cls !== undefined ? `<span class="${cls}">${text}</span>` : text;
      html += inMark ? `${open}${span}</mark>` : span;
      at = end;
    }
  }
  return html;
}

/** Words (a %local or @global with its sigil), runs of blanks, single other characters. */
const TOKEN = /[%@]?[\w.$-]+|\s+|./g;
/** Above this many token pairs a line pair is compared by its common head and tail only. */
const MAX_PAIRS = 100_000;

/**
 * The column ranges of two lines that differ: the tokens outside a longest common
 * subsequence of their tokens (a renumbered %12 -> %13 marks that name, not the line).
 */
export function changedSpans(a: string, b: string): { a: [number, number][]; b: [number, number][] } {
  const ta = a.match(TOKEN) ?? [];
  const tb = b.match(TOKEN) ?? [];
  const n = ta.length;
  const m = tb.length;
  const keepA = new Uint8Array(n);
  const keepB = new Uint8Array(m);
  if (n * m <= MAX_PAIRS) {
    // lcs[i][j]: LCS length of ta[i..] and tb[j..], then one walk from the start
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) lcs[i * w + j] = ta[i] === tb[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
    for (let i = 0, j = 0; i < n && j < m; ) {
      if (ta[i] === tb[j]) {
        keepA[i++] = 1;
        keepB[j++] = 1;
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) i++;
      else j++;
    }
  } else {
    for (let i = 0; i < Math.min(n, m) && ta[i] === tb[i]; i++) keepA[i] = keepB[i] = 1;
    for (let i = 1; i <= Math.min(n, m) && ta[n - i] === tb[m - i]; i++) keepA[n - i] = keepB[m - i] = 1;
  }
  return { a: ranges(ta, keepA), b: ranges(tb, keepB) };
}

/** Column ranges of the tokens not kept; blanks between two of them join their ranges. */
function ranges(tokens: string[], keep: Uint8Array): [number, number][] {
  const out: [number, number][] = [];
  let col = 0;
  tokens.forEach((t, k) => {
    const blankBetween = keep[k] === 1 && /^\s+$/.test(t) && k > 0 && keep[k - 1] === 0 && k + 1 < tokens.length && keep[k + 1] === 0;
    if (keep[k] === 0 || blankBetween) {
      const last = out[out.length - 1];
      if (last !== undefined && last[1] === col) last[1] = col + t.length;
      else out.push([col, col + t.length]);
    }
    col += t.length;
  });
  return out;
}

/** The column ranges of the value numbers that differ between two lines equal but for them. */
function renumbered(x: string, y: string): { a: [number, number][]; b: [number, number][] } {
  const nx = [...x.matchAll(NUMBERED)];
  const ny = [...y.matchAll(NUMBERED)];
  const out: { a: [number, number][]; b: [number, number][] } = { a: [], b: [] };
  nx.forEach((m, k) => {
    const n = ny[k];
    if (n === undefined || m[0] === n[0]) return;
    out.a.push([m.index, m.index + m[0].length]);
    out.b.push([n.index, n.index + n[0].length]);
  });
  return out;
}

const row = (ln: number | string, l: string, lc: string, rn: number | string, r: string, rc: string): string =>
  `<div class="r"><i>${ln}</i><span class="L${lc}">${l}</span><i>${rn}</i><span class="R${rc}">${r}</span></div>`;

export class DiffView {
  /** The scroller: a new one for another step (its scroll starts at the top), kept for the same step. */
  private box: HTMLElement | null = null;
  private shown: { step: number; before: string; after: string; chunks: number[] } | null = null;
  /** Folds opened by a click (their chunk index), until other texts are shown. */
  private opened = new Set<number>();

  constructor(private readonly host: HTMLElement) {}

  /** Draws a step's texts; the same step and texts again draw nothing. */
  show(step: number, before: string, after: string, chunks: number[]): void {
    const s = this.shown;
    if (s !== null && s.before === before && s.after === after && s.step === step) return;
    const sameStep = s !== null && s.step === step;
    this.shown = { step, before, after, chunks };
    this.opened.clear();
    this.draw(!sameStep);
  }

  clear(): void {
    this.shown = null;
    this.box = null;
    this.host.replaceChildren();
  }

  private draw(fresh: boolean): void {
    const { before, after, chunks } = this.shown!;
    const a = irLines(before);
    const b = irLines(after);
    const rows: string[] = [];
    const changes = chunks.some((n, k) => k % 3 !== 0 && n > 0);
    let i = 0;
    let j = 0;
    for (let c = 0; c < chunks.length; c += 3) {
      const [e, d, n] = [chunks[c], chunks[c + 1], chunks[c + 2]];
      // the unchanged run: its first and last MARGIN lines (none before the first change, none after the last)
      const keepHead = c === 0 || !changes ? (changes ? 0 : e) : MARGIN;
      const keepTail = d + n === 0 ? 0 : MARGIN;
      const fold = changes && e - keepHead - keepTail >= MIN_FOLD && !this.opened.has(c);
      for (let k = 0; k < e; k++) {
        if (fold && k === keepHead) {
          rows.push(`<div class="fold" data-fold="${c}">⋯ ${e - keepHead - keepTail} unchanged lines</div>`);
          k = e - keepTail - 1;
          continue;
        }
        const x = a[i + k];
        const y = b[j + k];
        if (x === y) {
          const html = lineHtml(x);
          rows.push(row(i + k + 1, html, '', j + k + 1, html, ''));
        } else {
          // equal but for value numbers (step-diff.ts): the renumbered names are marked faintly
          const r = renumbered(x, y);
          rows.push(row(i + k + 1, lineHtml(x, r.a, 'rn'), '', j + k + 1, lineHtml(y, r.b, 'rn'), ''));
        }
      }
      i += e;
      j += e;
      for (let k = 0; k < Math.max(d, n); k++) {
        const l = k < d ? a[i + k] : undefined;
        const r = k < n ? b[j + k] : undefined;
        // a line replaced by one: the words that differ are marked
        const span = l !== undefined && r !== undefined ? changedSpans(l, r) : undefined;
        rows.push(
          row(
            l !== undefined ? i + k + 1 : '',
            l !== undefined ? lineHtml(l, span?.a) : '',
            l !== undefined ? ' d' : ' e',
            r !== undefined ? j + k + 1 : '',
            r !== undefined ? lineHtml(r, span?.b) : '',
            r !== undefined ? ' a' : ' e',
          ),
        );
      }
      i += d;
      j += n;
    }
    let html = '';
    for (let k = 0; k < rows.length; k += GROUP) html += `<div class="g">${rows.slice(k, k + GROUP).join('')}</div>`;
    if (fresh || this.box === null) {
      this.box = document.createElement('div');
      this.box.className = 'diff';
      this.box.addEventListener('click', (ev) => {
        const f = (ev.target as HTMLElement).closest<HTMLElement>('.fold');
        if (f === null) return;
        this.opened.add(Number(f.dataset.fold));
        this.draw(false);
      });
      this.box.innerHTML = html;
      this.host.replaceChildren(this.box);
    } else this.box.innerHTML = html;
  }
}

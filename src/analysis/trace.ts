/**
 * Step-by-step tracing of an algorithm, for students (`ssakit analyze --trace=NAME`, the
 * playground's stepper). One event model for every traced algorithm: an event says what
 * the algorithm looked at or decided (`kind`), one readable line (`text`), the blocks it is
 * about by their IR names (`blocks`, what the playground highlights), and the state that
 * changed (`data`, JSON, values and blocks by IR name).
 *
 * Algorithms take an optional tracer and test it for null once per step, so the untraced
 * path builds no strings and allocates nothing: one null test per step.
 */
export interface TraceEvent {
  /** The traced algorithm: `dom-chk`, `idf`, `mem2reg`, `sccp`, … (see `traceNames`). */
  algorithm: string;
  /** What happened: `round`, `pop`, `edge`, `push`, `phi`, `lattice`, … (per algorithm). */
  kind: string;
  /** One readable line, indented by nesting level; the text trace is these lines. */
  text: string;
  /** Blocks the step is about (IR names without `%`). */
  blocks: string[];
  /** The state the step changed, by IR names. */
  data?: Record<string, unknown>;
}

export interface Tracer {
  /** The printed name of node `v` (a block name, `<exit>` for a virtual exit). */
  name(v: number): string;
  /** A free-form line (kind `note`); its blocks are the known block names it mentions. */
  log(line: string): void;
  /** A structured step. `blocks` are node ids (named by `name`) or names. */
  step(kind: string, text: string, blocks?: readonly (number | string)[], data?: Record<string, unknown>): void;
}

/** A tracer that collects events; `lines` is the text trace. */
export class LineTracer implements Tracer {
  readonly events: TraceEvent[] = [];
  /** The algorithm events are attributed to; a driver may switch it between phases. */
  algorithm: string;
  private known: Set<string> | null = null;
  constructor(
    readonly name: (v: number) => string,
    algorithm = 'trace',
    /** Block names, so `log` lines can name their blocks. */
    blockNames: readonly string[] | null = null,
  ) {
    this.algorithm = algorithm;
    if (blockNames !== null) this.known = new Set(blockNames.filter((b) => b !== ''));
  }
  get lines(): string[] {
    return this.events.map((e) => e.text);
  }
  log(line: string): void {
    this.events.push({ algorithm: this.algorithm, kind: 'note', text: line, blocks: this.mentioned(line) });
  }
  step(kind: string, text: string, blocks: readonly (number | string)[] = [], data?: Record<string, unknown>): void {
    const names: string[] = [];
    for (const b of blocks) {
      let s = typeof b === 'number' ? this.name(b) : b;
      if (s.startsWith('%')) s = s.slice(1);
      if (!names.includes(s)) names.push(s);
    }
    const e: TraceEvent = { algorithm: this.algorithm, kind, text, blocks: names };
    if (data !== undefined) e.data = data;
    this.events.push(e);
  }
  private mentioned(line: string): string[] {
    const out: string[] = [];
    if (this.known === null) return out;
    for (const tok of line.match(/%?[A-Za-z0-9_.$-]+/g) ?? []) {
      const k = tok.startsWith('%') ? tok.slice(1) : tok;
      if (this.known.has(k) && !out.includes(k)) out.push(k);
    }
    return out;
  }
}

/** The text trace: one line per event. */
export function traceToText(events: readonly TraceEvent[]): string {
  return events.map((e) => e.text).join('\n') + '\n';
}

/** JSON lines: one event per line (`--trace-json`). */
export function traceToJsonLines(events: readonly TraceEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

/**
 * Step-by-step tracing of an algorithm, for students (`ssakit analyze --trace=df|idf`).
 * Algorithms take an optional `Tracer` and test it once per step, so the untraced path
 * builds no strings.
 */
export interface Tracer {
  /** The printed name of node `v` (a block name, `<exit>` for a virtual exit). */
  name(v: number): string;
  log(line: string): void;
}

/** A tracer that collects lines. */
export class LineTracer implements Tracer {
  readonly lines: string[] = [];
  constructor(readonly name: (v: number) => string) {}
  log(line: string): void {
    this.lines.push(line);
  }
}

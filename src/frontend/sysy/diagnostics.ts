/**
 * Diagnostics of the SysY frontend: where (file, line, column), what, and a
 * clang-style rendering with the source line and a caret under the column.
 *
 *   prog.sy:3:9: error: use of undeclared identifier 'x'
 *       y = x + 1;
 *           ^
 *
 * Lines and columns are 1-based; columns count UTF-16 code units (SysY sources
 * are ASCII apart from comments and string literals). A `note` follows the
 * error it explains (e.g. "previous definition is here").
 */

export type Severity = 'error' | 'note';

/** A position in the source. `offset` is the 0-based index into the text. */
export interface SourceLoc {
  readonly offset: number;
  readonly line: number;
  readonly col: number;
}

export interface Diagnostic {
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly col: number;
  readonly offset: number;
}

/** Maps offsets to line/column in O(log lines); owns the text for snippets. */
export class SourceFile {
  readonly text: string;
  readonly name: string;
  /** lineStarts[i] = offset of the first character of line i+1. */
  private readonly lineStarts: Int32Array;

  constructor(text: string, name: string) {
    this.text = text;
    this.name = name;
    const starts: number[] = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = Int32Array.from(starts);
  }

  /** 1-based line containing `offset`. */
  lineOf(offset: number): number {
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  loc(offset: number): SourceLoc {
    const line = this.lineOf(offset);
    return { offset, line, col: offset - this.lineStarts[line - 1] + 1 };
  }

  /** Text of the 1-based line, without its newline. */
  lineText(line: number): string {
    if (line < 1 || line > this.lineStarts.length) return '';
    const start = this.lineStarts[line - 1];
    let end = line < this.lineStarts.length ? this.lineStarts[line] - 1 : this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.text.slice(start, end);
  }
}

/** Collects diagnostics in the order they are found. */
export class DiagnosticBag {
  readonly list: Diagnostic[] = [];
  private errors = 0;
  constructor(readonly source: SourceFile) {}

  error(loc: SourceLoc, message: string): void {
    this.errors++;
    this.list.push({ severity: 'error', message, file: this.source.name, line: loc.line, col: loc.col, offset: loc.offset });
  }

  note(loc: SourceLoc, message: string): void {
    this.list.push({ severity: 'note', message, file: this.source.name, line: loc.line, col: loc.col, offset: loc.offset });
  }

  get errorCount(): number {
    return this.errors;
  }
}

/**
 * `FILE:LINE:COL: error: MESSAGE`, then the source line and a caret line.
 * Tabs in the source line are kept in the caret line so the caret lines up.
 * Without `source` only the first line is produced.
 */
export function formatDiagnostic(d: Diagnostic, source?: SourceFile | string): string {
  const head = `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
  if (source === undefined) return head;
  const file = typeof source === 'string' ? new SourceFile(source, d.file) : source;
  const text = file.lineText(d.line);
  let caret = '';
  for (let i = 0; i < d.col - 1 && i < text.length; i++) caret += text.charCodeAt(i) === 9 ? '\t' : ' ';
  return `${head}\n${text}\n${caret}^`;
}

/** Formats a whole list, one diagnostic after another, ending with a newline. */
export function formatDiagnostics(list: readonly Diagnostic[], source?: SourceFile | string): string {
  if (list.length === 0) return '';
  const file = typeof source === 'string' && list.length > 0 ? new SourceFile(source, list[0].file) : source;
  return list.map((d) => formatDiagnostic(d, file)).join('\n') + '\n';
}

/** Thrown by the convenience entry points when a program has errors. */
export class SysYError extends Error {
  readonly diagnostics: readonly Diagnostic[];
  constructor(diagnostics: readonly Diagnostic[], source?: SourceFile | string) {
    super(formatDiagnostics(diagnostics, source).trimEnd() || 'SysY compilation failed');
    this.name = 'SysYError';
    this.diagnostics = diagnostics;
  }
}

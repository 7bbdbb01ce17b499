/**
 * Located errors, printed the way clang prints them:
 *
 *   file.ll:3:7: error: expected type
 *     %x = foo i32 1
 *         ^
 */

export class SourceError extends Error {
  constructor(
    readonly file: string,
    /** 1-based. */
    readonly line: number,
    /** 1-based. */
    readonly col: number,
    readonly detail: string,
  ) {
    super(`${file}:${line}:${col}: error: ${detail}`);
    this.name = 'SourceError';
  }

  /** The message plus the offending source line and a caret under the column. */
  format(source?: string): string {
    return formatLocated(this.file, this.line, this.col, 'error', this.detail, source);
  }
}

export function formatLocated(file: string, line: number, col: number, severity: string, message: string, source?: string): string {
  let out = `${file}:${line}:${col}: ${severity}: ${message}`;
  if (source !== undefined) {
    const text = sourceLine(source, line);
    if (text !== null) {
      const shown = text.length > 300 ? text.slice(0, 300) : text;
      // keep tabs so the caret lines up under the same column
      let pad = '';
      for (let i = 0; i < col - 1 && i < shown.length; i++) pad += shown[i] === '\t' ? '\t' : ' ';
      out += `\n${shown}\n${pad}^`;
    }
  }
  return out;
}

/** The 1-based line `line` of `source`, without its newline, or null. */
export function sourceLine(source: string, line: number): string | null {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  let end = source.indexOf('\n', start);
  if (end < 0) end = source.length;
  if (start > source.length) return null;
  return source.slice(start, end).replace(/\r$/, '');
}

/** An error in a program being run (by the interpreter): no source location, but the IR instruction. */
export class RuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeError';
  }
}

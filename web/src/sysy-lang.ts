/**
 * Highlighting and indentation for SysY (the contest's C subset) in the editor: a small
 * CodeMirror stream tokenizer, like llvm-lang.ts. It replaced @codemirror/lang-cpp, whose
 * full C++ grammar was 32 KB of the page's gzipped JavaScript (the budget before the
 * first graph is 400 KB) for a language with 11 keywords. Tokens: line and block comments
 * (a block comment may span lines), strings, numbers (decimal, octal, hex, floats with
 * exponents, hex floats), keywords, types, the runtime library's functions, other names.
 * Indentation follows the braces and parentheses open at the line's start.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

const KEYWORDS = /^(if|else|while|break|continue|return|const)\b/;
const TYPES = /^(int|float|void)\b/;
const RUNTIME = /^(getint|getch|getfloat|getarray|getfarray|putint|putch|putfloat|putarray|putfarray|putf|starttime|stoptime|_sysy_starttime|_sysy_stoptime)\b/;
const NUMBER = /^(0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?\d+)?|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)/;

export interface State {
  /** Inside a block comment that began on an earlier line. */
  comment: boolean;
  /** Braces and parentheses open. */
  depth: number;
}

/** The tokenizer itself (the tests compare it with the frontend's lexer). */
export const sysyParser: StreamParser<State> = {
  name: 'sysy',
  startState: () => ({ comment: false, depth: 0 }),
  copyState: (s) => ({ ...s }),
  token(stream, state) {
    if (state.comment) {
      if (stream.match(/^.*?\*\//)) state.comment = false;
      else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.comment = true;
      return 'comment';
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
    if (stream.match(NUMBER)) return 'number';
    if (stream.match(TYPES)) return 'typeName';
    if (stream.match(KEYWORDS)) return 'keyword';
    if (stream.match(RUNTIME)) return 'standard(variableName)';
    if (stream.match(/^[A-Za-z_]\w*/)) return 'variableName';
    const ch = stream.next()!;
    if (ch === '{' || ch === '(') state.depth++;
    else if ((ch === '}' || ch === ')') && state.depth > 0) state.depth--;
    return /[-+*/%=<>!&|]/.test(ch) ? 'operator' : /[{}()[\]]/.test(ch) ? 'bracket' : 'punctuation';
  },
  indent(state, textAfter, cx) {
    if (state.comment) return null;
    return Math.max(0, state.depth - (/^[})]/.test(textAfter) ? 1 : 0)) * cx.unit;
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } }, indentOnInput: /^\s*[}\]]$/, closeBrackets: { brackets: ['(', '[', '{', '"'] } },
};

export const sysy = StreamLanguage.define(sysyParser);

/**
 * Highlighting for LLVM textual IR: a small CodeMirror stream tokenizer (no maintained
 * CodeMirror 6 grammar for LLVM IR exists). Tokens: comments, strings, %local and @global
 * names, labels, types, keywords/opcodes, numbers, metadata and attribute groups.
 */
import { StreamLanguage, type StreamParser } from '@codemirror/language';

const TYPES = /^(void|i\d+|half|bfloat|float|double|x86_fp80|fp128|ptr|label|metadata|token)\b/;
const KEYWORDS =
  /^(define|declare|global|constant|private|internal|external|dso_local|unnamed_addr|local_unnamed_addr|align|nsw|nuw|exact|inbounds|noundef|nonnull|zeroinitializer|undef|poison|null|true|false|to|x|tail|musttail|attributes|source_filename|target|datalayout|triple|phi|br|ret|switch|unreachable|call|alloca|load|store|getelementptr|icmp|fcmp|select|add|sub|mul|sdiv|udiv|srem|urem|shl|lshr|ashr|and|or|xor|fadd|fsub|fmul|fdiv|frem|fneg|trunc|zext|sext|fptrunc|fpext|fptoui|fptosi|uitofp|sitofp|ptrtoint|inttoptr|bitcast|eq|ne|slt|sle|sgt|sge|ult|ule|ugt|uge|oeq|one|olt|ole|ogt|oge|ord|uno|ueq|une|label)\b/;

/** The tokenizer itself: the editor's highlighting, and the pipeline view's (diff-view.ts). */
export const llvmParser: StreamParser<null> = {
  name: 'llvm-ir',
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match(/^;.*/)) return 'comment';
    if (stream.match(/^c?"(?:[^"\\]|\\.)*"/)) return 'string';
    if (stream.sol() && stream.match(/^[A-Za-z$._0-9-]+:/)) return 'labelName';
    if (stream.match(/^%[-a-zA-Z$._0-9]+/) || stream.match(/^%"[^"]*"/)) return 'variableName';
    if (stream.match(/^@[-a-zA-Z$._0-9]+/) || stream.match(/^@"[^"]*"/)) return 'function(variableName)';
    if (stream.match(/^![-a-zA-Z$._0-9]*/) || stream.match(/^#\d+/)) return 'meta';
    if (stream.match(TYPES)) return 'typeName';
    if (stream.match(KEYWORDS)) return 'keyword';
    if (stream.match(/^-?(0x[0-9A-Fa-f]+|\d+(\.\d+)?(e[+-]?\d+)?)/)) return 'number';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: ';' } },
};

export const llvmIR = StreamLanguage.define(llvmParser);

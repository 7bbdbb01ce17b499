/**
 * The pipeline-string parser, with `opt`'s syntax: `mem2reg,sccp,function(adce,gvn)`,
 * `module(inline)`, parameters in angle brackets (`simplifycfg<no-select>`,
 * `repeat<3>(instsimplify,dce)`, `fixpoint<3>(…)`), and `default<O2>` / `O1` / `O2` for the
 * named pipelines of passes/pipelines.ts.
 *
 * Every error is a PipelineError located in the pipeline string: the message, then the
 * pipeline with a caret under the offending character, as a compiler points into source.
 * A pass's bad parameter (a ParamError from definePass) is located at the bad item.
 */
import { ParamError } from './define-pass.js';
import type { PipelineNode } from './pass-manager.js';
import { passInfo, pipelineNames, pipelineText } from './registry.js';

export class PipelineError extends Error {
  constructor(
    /** What is wrong, without the location. */
    readonly problem: string,
    /** The pipeline string. */
    readonly pipeline: string,
    /** Where in it (UTF-16 offset). */
    readonly offset: number,
  ) {
    super(`${problem}\n  ${pipeline}\n  ${' '.repeat(Math.max(0, Math.min(offset, pipeline.length)))}^`);
    this.name = 'PipelineError';
  }
}

/** Parses a pipeline string into nodes (throws a located PipelineError naming the bad part). */
export function parsePipeline(text: string): PipelineNode[] {
  const p = new PipelineParser(text);
  const nodes = p.list();
  if (p.pos < text.length) p.fail(`unexpected '${text.slice(p.pos)}'`);
  return nodes;
}

/** Adaptors of LLVM pipelines: their bodies run as if written at top level. */
const ADAPTORS = new Set(['module', 'function', 'cgscc', 'loop', 'loop-mssa']);

/** The parameters LLVM prints on adaptors (`function<eager-inv>`), accepted and meaningless here. */
const ADAPTOR_PARAMS = new Set(['', 'eager-inv']);

class PipelineParser {
  pos = 0;
  private depth = 0;
  constructor(readonly text: string) {}

  fail(problem: string, at = this.pos): never {
    throw new PipelineError(problem, this.text, at);
  }

  private skipWs(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos])) this.pos++;
  }

  list(): PipelineNode[] {
    const out: PipelineNode[] = [];
    this.skipWs();
    if (this.pos >= this.text.length || this.text[this.pos] === ')') return out;
    for (;;) {
      out.push(...this.element());
      this.skipWs();
      if (this.text[this.pos] !== ',') break;
      this.pos++;
    }
    return out;
  }

  private name(): string {
    this.skipWs();
    const m = /^[A-Za-z0-9_.\-]+/.exec(this.text.slice(this.pos));
    if (!m) this.fail(`expected a pass name at '${this.text.slice(this.pos) || 'end'}'`);
    this.pos += m[0].length;
    return m[0];
  }

  /** The text between angle brackets ('' when there are none); `paramsAt` is where it starts. */
  private paramsAt = 0;
  private params(): string {
    this.paramsAt = this.pos + 1;
    if (this.text[this.pos] !== '<') return '';
    let depth = 0;
    const start = this.pos;
    for (; this.pos < this.text.length; this.pos++) {
      const c = this.text[this.pos];
      if (c === '<') depth++;
      else if (c === '>') {
        depth--;
        if (depth === 0) {
          this.pos++;
          return this.text.slice(start + 1, this.pos - 1);
        }
      }
    }
    return this.fail(`unterminated '<'`, start);
  }

  private nested(): PipelineNode[] {
    if (this.text[this.pos] !== '(') this.fail(`expected '(' at '${this.text.slice(this.pos) || 'end'}'`);
    this.pos++;
    if (++this.depth > 64) this.fail('pipeline nested too deeply');
    const body = this.list();
    this.depth--;
    this.skipWs();
    if (this.text[this.pos] !== ')') this.fail(`expected ')' at '${this.text.slice(this.pos) || 'end'}'`);
    this.pos++;
    return body;
  }

  /** A whole-number parameter (`repeat<N>`), or `dflt` when there is none. */
  private count(params: string, what: string, dflt: number | null): number {
    if (params === '' && dflt !== null) return dflt;
    if (!/^\s*\d+\s*$/.test(params)) this.fail(`${what} needs a count: ${what}<N>(...)`, this.paramsAt);
    return Number(params);
  }

  private element(): PipelineNode[] {
    const at = this.pos;
    const name = this.name();
    const params = this.params();
    if (ADAPTORS.has(name)) {
      if (!ADAPTOR_PARAMS.has(params.trim())) this.fail(`${name}(...) takes no parameter '${params}'`, this.paramsAt);
      // adaptors: we run function passes over every function anyway
      return this.nested();
    }
    if (name === 'repeat') {
      const n = this.count(params, 'repeat', null);
      return [{ repeat: n, body: this.nested() }];
    }
    if (name === 'fixpoint') {
      const n = this.count(params, 'fixpoint', 8);
      return [{ fixpoint: n, body: this.nested() }];
    }
    if (name === 'default' || pipelineText(name) !== undefined) {
      const key = name === 'default' ? params : name;
      if (name !== 'default' && params !== '') this.fail(`pipeline '${name}' takes no parameter '${params}'`, this.paramsAt);
      const pl = pipelineText(key);
      if (pl === undefined) this.fail(`unknown pipeline '${key}' (known: ${pipelineNames().join(', ')})`, name === 'default' ? this.paramsAt : at);
      return parsePipeline(pl);
    }
    const info = passInfo(name);
    if (info === undefined) this.fail(`unknown pass name '${name}' (run 'ssakit opt --list-passes' for the list)`, at);
    try {
      return [{ pass: info.create(params) }];
    } catch (e) {
      if (e instanceof ParamError) this.fail(e.message, this.paramsAt + e.offset);
      throw e;
    }
  }
}

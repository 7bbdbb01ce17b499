/**
 * The pass registry: pipeline names → pass factories, and the pipeline-string parser with
 * `opt`'s syntax: `mem2reg,sccp,function(adce,gvn)`, `module(inline)`, parameters in angle
 * brackets (`simplifycfg<no-select>`, `repeat<3>(instsimplify,dce)`), and `default<O2>` /
 * `O1` / `O2` for the standard pipelines of pipelines.ts.
 */
import { didYouMean } from '../util/suggest.js';
import type { Pass } from './pass.js';
import type { PipelineNode } from './pass-manager.js';

export interface PassInfo {
  name: string;
  description: string;
  /** Builds the pass with its `<params>` (text between the angle brackets, or ''). */
  create(params: string): Pass;
}

const registry = new Map<string, PassInfo>();
const pipelines = new Map<string, () => string>();

export function registerPass(info: PassInfo): void {
  if (registry.has(info.name)) throw new Error(`pass '${info.name}' registered twice`);
  registry.set(info.name, info);
}

/** Registers a named pipeline (e.g. 'O2'), given as a pipeline string. */
export function registerPipeline(name: string, text: () => string): void {
  pipelines.set(name, text);
}

/**
 * Parses numeric pass parameters, `name=N;name=N` (the text between a pass's angle
 * brackets), into options: `keys` maps each parameter name to its option. An unknown name
 * or a value that is not a whole number is an error naming the pass and what it takes.
 */
export function parseNumericParams<O>(pass: string, params: string, keys: Record<string, keyof O>): Partial<O> {
  const o: Partial<Record<keyof O, number>> = {};
  for (const raw of params.split(';')) {
    const p = raw.trim();
    if (p === '') continue;
    const m = /^([a-z-]+)=(\d+)$/.exec(p);
    if (m === null || !Object.hasOwn(keys, m[1])) {
      throw new Error(`${pass}: unknown parameter '${p}' (expected ${Object.keys(keys).map((k) => `${k}=N`).join(', ')})`);
    }
    o[keys[m[1]]] = Number(m[2]);
  }
  return o as Partial<O>;
}

export function passInfos(): PassInfo[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function pipelineNames(): string[] {
  return [...pipelines.keys()];
}

export class PipelineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PipelineError';
  }
}

/** Parses a pipeline string into nodes (throws PipelineError naming the bad part). */
export function parsePipeline(text: string): PipelineNode[] {
  const p = new PipelineParser(text);
  const nodes = p.list();
  if (p.pos < text.length) throw new PipelineError(`unexpected '${text.slice(p.pos)}' in pipeline '${text}'`);
  return nodes;
}

class PipelineParser {
  pos = 0;
  private depth = 0;
  constructor(readonly text: string) {}

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
    if (!m) throw new PipelineError(`expected a pass name at '${this.text.slice(this.pos) || 'end'}' in pipeline '${this.text}'`);
    this.pos += m[0].length;
    return m[0];
  }

  private params(): string {
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
    throw new PipelineError(`unterminated '<' in pipeline '${this.text}'`);
  }

  private nested(): PipelineNode[] {
    if (this.text[this.pos] !== '(') throw new PipelineError(`expected '(' at '${this.text.slice(this.pos)}' in pipeline '${this.text}'`);
    this.pos++;
    if (++this.depth > 64) throw new PipelineError('pipeline nested too deeply');
    const body = this.list();
    this.depth--;
    this.skipWs();
    if (this.text[this.pos] !== ')') throw new PipelineError(`expected ')' at '${this.text.slice(this.pos) || 'end'}' in pipeline '${this.text}'`);
    this.pos++;
    return body;
  }

  private element(): PipelineNode[] {
    const name = this.name();
    const params = this.params();
    if (name === 'module' || name === 'function' || name === 'cgscc' || name === 'loop' || name === 'loop-mssa') {
      // adaptors: we run function passes over every function anyway
      return this.nested();
    }
    if (name === 'repeat') {
      const n = Number(params);
      if (!Number.isInteger(n) || n < 0) throw new PipelineError(`repeat needs a count: repeat<N>(...)`);
      return [{ repeat: n, body: this.nested() }];
    }
    if (name === 'fixpoint') {
      const n = params === '' ? 8 : Number(params);
      return [{ fixpoint: n, body: this.nested() }];
    }
    if (name === 'default' || pipelines.has(name)) {
      const key = name === 'default' ? params : name;
      const pl = pipelines.get(key);
      if (pl === undefined) throw new PipelineError(`unknown pipeline '${key}' (known: ${pipelineNames().join(', ')})`);
      return parsePipeline(pl());
    }
    const info = registry.get(name);
    if (info === undefined) {
      throw new PipelineError(`unknown pass name '${name}'${didYouMean(name, registry.keys())} (run 'ssakit opt --print-passes' for the list)`);
    }
    return [{ pass: info.create(params), spec: params === '' ? name : `${name}<${params}>` }];
  }
}

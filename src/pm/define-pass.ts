/**
 * How a pass is declared: `definePass({ name, description, params, run })`. The name is
 * written once; each parameter is declared once, with its type, its spelling in a pipeline
 * and its default, and parsed and checked here for every pass alike. A bad parameter is a
 * ParamError carrying its offset in the `<…>` text, which the pipeline parser turns into an
 * error located in the pipeline string (pipeline-parser.ts): never an internal error, never
 * silently ignored.
 *
 * Parameter syntax (LLVM's): items separated by ';' inside the angle brackets:
 *   int      `name=N` (a whole number)                       loop-unroll<threshold=200>
 *   flag     `name` sets it, `no-name` clears it              simplifycfg<no-select>
 *   choice   `name=value`, and `no-name` when it has an off value   indvars<exit-values=always>
 *   word     one of a few bare words, required                 print<scalar-evolution>
 * A later item overrides an earlier one. A pass whose parameters say what it is (LLVM's
 * `print<…>`) names each instance with `instanceName`, so --stats and --time-passes show
 * `print<scalar-evolution>`.
 */
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';
import type { FunctionPass, ModulePass, ModulePassContext, PassContext, PassResult, Preserved } from './pass.js';
import type { PassInfo } from './registry.js';

/** A bad pass parameter: `offset` is where the bad item starts in the text between the brackets. */
export class ParamError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

/** One declared parameter of type T. */
export interface ParamSpec<T> {
  /** Its spelling in a pipeline (without `=` or `no-`). */
  readonly name: string;
  /** What it does (shown by `ssakit opt --list-passes`). */
  readonly doc: string;
  readonly default: T;
  /** The forms it accepts, for messages: `threshold=N`, `[no-]select`. */
  readonly syntax: string;
  /** The value an item sets, or undefined when the item is not this parameter. */
  read(item: string): T | undefined;
  /** The text must set it (the default is never used). */
  readonly required?: boolean;
}

/** The parameter kinds. */
export const param = {
  /** `name=N`, a whole number. */
  int(name: string, dflt: number, doc: string): ParamSpec<number> {
    const prefix = name + '=';
    return {
      name,
      doc,
      default: dflt,
      syntax: `${name}=N`,
      read: (item) => (item.startsWith(prefix) && /^\d+$/.test(item.slice(prefix.length)) ? Number(item.slice(prefix.length)) : undefined),
    };
  },
  /** `name` (true) or `no-name` (false); `aliases` are other spellings of the same switch. */
  flag(name: string, dflt: boolean, doc: string, aliases: readonly string[] = []): ParamSpec<boolean> {
    const names = [name, ...aliases];
    return {
      name,
      doc,
      default: dflt,
      syntax: `[no-]${name}`,
      read: (item) => (names.includes(item) ? true : item.startsWith('no-') && names.includes(item.slice(3)) ? false : undefined),
    };
  },
  /** `name=v` for one of `values`; with `off`, `no-name` means `name=off`. */
  choice<T extends string>(name: string, values: readonly T[], dflt: T, doc: string, off?: T): ParamSpec<T> {
    const prefix = name + '=';
    return {
      name,
      doc,
      default: dflt,
      syntax: `${off !== undefined ? `no-${name}, ` : ''}${name}=${values.join('|')}`,
      read(item) {
        if (off !== undefined && item === `no-${name}`) return off;
        if (!item.startsWith(prefix)) return undefined;
        const v = item.slice(prefix.length) as T;
        return values.includes(v) ? v : undefined;
      },
    };
  },
  /** One of `values` as a bare word, which the text must give: `print<scalar-evolution>`. */
  word<T extends string>(name: string, values: readonly T[], doc: string): ParamSpec<T> {
    return {
      name,
      doc,
      default: values[0],
      syntax: values.join('|'),
      required: true,
      read: (item) => (values.includes(item as T) ? (item as T) : undefined),
    };
  },
};

/** The declared parameters of a pass whose options are P. */
export type ParamSpecs<P> = { readonly [K in keyof P]: ParamSpec<P[K]> };

/**
 * Parses the text between a pass's angle brackets against its declared parameters: every
 * parameter gets its default, then each item sets one. Throws ParamError at the first item
 * that is no parameter of the pass or has a bad value.
 */
export function parseParams<P>(pass: string, specs: ParamSpecs<P> | undefined, text: string): P {
  const out = {} as P;
  const keys = specs === undefined ? [] : (Object.keys(specs) as (keyof P)[]);
  for (const k of keys) out[k] = specs![k].default;
  const given = new Set<keyof P>();
  let start = 0;
  for (const raw of text.split(';')) {
    const item = raw.trim();
    const at = start + (raw.length - raw.trimStart().length);
    start += raw.length + 1;
    if (item === '') continue;
    let known = false;
    let matched: keyof P | undefined;
    for (const k of keys) {
      const v = specs![k].read(item);
      if (v === undefined) continue;
      out[k] = v;
      known = true;
      matched = k;
      break;
    }
    if (!known) {
      const expected = keys.length === 0 ? 'the pass takes none' : `expected ${keys.map((k) => specs![k].syntax).join(', ')}`;
      throw new ParamError(`${pass}: unknown parameter '${item}' (${expected})`, at);
    }
    given.add(matched!);
  }
  for (const k of keys) {
    if (specs![k].required === true && !given.has(k)) throw new ParamError(`${pass}: missing parameter (expected ${pass}<${specs![k].syntax}>)`, 0);
  }
  return out;
}

interface PassDefinitionBase<P> {
  /** The name in pipelines, `--stats` and `--time-passes`. */
  name: string;
  /** One line for `ssakit opt --list-passes`. */
  description: string;
  /** The parameters, by option name (omit for none). */
  params?: ParamSpecs<P>;
  /** The name of an instance, when its parameters say what it is (default: `name`). */
  instanceName?(params: P): string;
}

export interface FunctionPassDefinition<P> extends PassDefinitionBase<P> {
  module?: false;
  /** Reads nothing outside the function but the signatures of referenced globals (see FunctionPass.local). */
  local?: boolean;
  run(fn: Function, ctx: PassContext, params: P): PassResult;
}

export interface ModulePassDefinition<P> extends PassDefinitionBase<P> {
  module: true;
  run(m: Module, ctx: ModulePassContext, params: P): PassResult;
}

/** A pass for the registry (passes/index.ts), from its one declaration. */
export function definePass<P = Record<never, never>>(def: FunctionPassDefinition<P> | ModulePassDefinition<P>): PassInfo {
  return {
    name: def.name,
    description: def.description,
    params: def.params === undefined ? [] : Object.values<ParamSpec<unknown>>(def.params as Record<string, ParamSpec<unknown>>),
    create(text: string) {
      const params = parseParams<P>(def.name, def.params, text);
      const name = def.instanceName === undefined ? def.name : def.instanceName(params);
      if (def.module === true) {
        const run = def.run;
        const pass: ModulePass = { kind: 'module', name, run: (m, ctx) => run(m, ctx, params) };
        return pass;
      }
      const run = def.run;
      const go = (fn: Function, ctx: PassContext): PassResult => run(fn, ctx, params);
      const pass: FunctionPass = def.local === true ? { kind: 'function', name, local: true, run: go } : { kind: 'function', name, run: go };
      return pass;
    },
  };
}

/** The keys of S whose values are counts. */
type CountKeys<S> = { [K in keyof S]-?: S[K] extends number | undefined ? K : never }[keyof S];

/**
 * What a counting pass declares besides its name: the labels of the counts its work
 * returns, in the order `--stats` reports them, and what it preserves when it changed.
 */
interface CountingPassDefinitionBase<P, S> {
  name: string;
  description: string;
  params?: ParamSpecs<P>;
  instanceName?(params: P): string;
  /** `--stats` labels of the counts of S (a count left out is not reported here). */
  stats?: { readonly [K in CountKeys<S>]?: string };
  /** Whether the IR changed (default: some labelled count is nonzero). */
  changed?(counts: S): boolean;
  /** What a change preserved (default 'none'); an unchanged function preserves everything. */
  preserves?: Preserved | ((counts: S) => Preserved);
}

export interface CountingFunctionPassDefinition<P, S> extends CountingPassDefinitionBase<P, S> {
  module?: false;
  local?: boolean;
  /** The work, returning its counts. */
  count(fn: Function, ctx: PassContext, params: P): S;
}

export interface CountingModulePassDefinition<P, S> extends CountingPassDefinitionBase<P, S> {
  module: true;
  count(m: Module, ctx: ModulePassContext, params: P): S;
}

/**
 * A pass whose work returns counts (`{ deleted: 3, folded: 0 }`), declared without the run
 * function every such pass would repeat: each nonzero labelled count goes to `--stats`, the
 * pass changed the IR when `changed` says (default: some labelled count is nonzero), and a
 * change preserved `preserves`.
 */
export function defineCountingPass<S extends object, P = Record<never, never>>(
  def: CountingFunctionPassDefinition<P, S> | CountingModulePassDefinition<P, S>,
): PassInfo {
  const labels = Object.entries((def.stats ?? {}) as Record<string, string>);
  const result = (ctx: { stat(counter: string, n?: number): void }, s: S): PassResult => {
    let any = false;
    for (const [key, label] of labels) {
      const n = ((s as Record<string, number | undefined>)[key] ?? 0);
      if (n === 0) continue;
      any = true;
      ctx.stat(label, n);
    }
    const changed = def.changed === undefined ? any : def.changed(s);
    const p = def.preserves;
    return p === undefined ? { changed } : { changed, preserved: typeof p === 'function' ? p(s) : p };
  };
  const { name, description, params, instanceName } = def;
  if (def.module === true) {
    const count = def.count;
    return definePass<P>({ name, description, params, instanceName, module: true, run: (m, ctx, q) => result(ctx, count(m, ctx, q)) });
  }
  const count = def.count;
  return definePass<P>({ name, description, params, instanceName, local: def.local, run: (fn, ctx, q) => result(ctx, count(fn, ctx, q)) });
}

/**
 * Adds each nonzero count of `counts` to the running pass's statistics (`--stats`) under its
 * key: `reportStats(ctx, { 'loops rotated': n, 'blocks merged': m })`.
 */
export function reportStats(ctx: { stat(counter: string, n?: number): void }, counts: Readonly<Record<string, number>>): void {
  for (const name in counts) {
    const n = counts[name];
    if (n > 0) ctx.stat(name, n);
  }
}

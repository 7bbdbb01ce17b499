/**
 * The pass registry: pipeline names → pass factories (passes/index.ts registers every pass,
 * each declared with definePass), and named pipelines (`O1`, `O2`: passes/pipelines.ts).
 * The pipeline parser (pipeline-parser.ts) looks names up here.
 */
import type { ParamSpec } from './define-pass.js';
import type { Pass } from './pass.js';

export interface PassInfo {
  name: string;
  description: string;
  /** The declared parameters (definePass fills this in). */
  params?: readonly ParamSpec<unknown>[];
  /**
   * Builds the pass with its `<params>` (the text between the angle brackets, or ''). A bad
   * parameter throws a ParamError (define-pass.ts), which the pipeline parser locates.
   */
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

export function passInfos(): PassInfo[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The registered pass called `name`. */
export function passInfo(name: string): PassInfo | undefined {
  return registry.get(name);
}

export function pipelineNames(): string[] {
  return [...pipelines.keys()];
}

/** The text of the named pipeline `name`. */
export function pipelineText(name: string): string | undefined {
  return pipelines.get(name)?.();
}

/**
 * optimizeText on several threads: when the module can be streamed (see streaming.ts),
 * its function bodies are independent of each other, so threads can each read the whole
 * text but process only their share of the bodies, skipping the others unread. By default
 * the threads claim the definitions one by one as they reach them (a shared counter,
 * `claimedShare`), so the work balances itself whatever each function costs and however
 * late a worker gets going (a worker starts its own JIT from cold, 0.3 s behind the main
 * thread); `split: 'even'` gives fixed shares of equal body bytes instead. The main thread
 * prints the module; each worker thread (streaming-worker.ts) sends back the printed text
 * of the functions it took. This is how linkers such as lld and mold use several cores;
 * LLVM's own `opt` reads and optimizes on one.
 *
 * The shares come from a textual scan (`findBodies`) that expects the layout LLVM prints:
 * `define … {` ending its line, `}` starting the line that closes the body. Every thread
 * checks the table against its own parse (each body it reads must end where the table
 * says, each definition must have an entry), and any mismatch, text error or verifier
 * problem in any thread sends the whole job to the one-thread way, which gives the
 * canonical result and error. So the output is byte for byte that of `optimizeText`.
 *
 * Invariants: each definition is read by exactly one thread, and every thread reads its
 * definitions in text order; a worker that dies or fails is a fallback, never a hang (the
 * main thread waits on events, not on a lock).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PassTiming } from '../pm/pass-manager.js';
import { parsePipeline } from '../pm/pipeline-parser.js';
import { createPassManager, ensureRegistered } from '../passes/index.js';
import {
  canStream,
  claimedShare,
  finishStream,
  optimizeText,
  rangeShare,
  streamFunctions,
  type OptimizeTextOptions,
  type OptimizeTextResult,
  tuneHeapForStreaming,
  type StreamJob,
} from './streaming.js';

export interface ParallelOptions extends OptimizeTextOptions {
  /** Threads to use, the main one included (default: the cores available, at most 4). */
  threads?: number;
  /**
   * Below this many bytes of function bodies one thread is faster (default 16 MB, about
   * 400k instructions): each thread warms up its own JIT and reads the whole text.
   */
  minParallelBytes?: number;
  /**
   * How the definitions are shared out: 'claim' (default), one by one as the threads reach
   * them; 'even', in consecutive ranges of about equal body bytes fixed in advance (every
   * thread gets some, whatever the timing: what the tests use).
   */
  split?: 'claim' | 'even';
  /**
   * Worker threads started ahead (`startWorkers`, e.g. before the text was read, so that
   * their start-up overlaps the reading); used for the job or stopped.
   */
  workers?: StartedWorker[];
}

/** Below this many bytes of function bodies, one thread is faster (see minParallelBytes). */
const MIN_PARALLEL_BYTES = 16_000_000;

/** A worker thread waiting for its task (streaming-worker.ts), and its reply to come. */
export interface StartedWorker {
  worker: Worker;
  reply: Promise<WorkerReply>;
}

/**
 * Starts `n` worker threads that wait for a task. A worker's own start (a thread, Node's
 * bootstrap, the worker script compiled) takes about 0.3 s; started before the text is
 * read, it overlaps the reading. Idle workers do not keep the process alive.
 */
export function startWorkers(n: number): StartedWorker[] {
  const out: StartedWorker[] = [];
  if (!parallelAvailable()) return out;
  for (let k = 0; k < n; k++) {
    const worker = new Worker(WORKER_URL);
    worker.unref();
    const reply = new Promise<WorkerReply>((resolve) => {
      worker.once('message', (m: WorkerReply) => resolve(m));
      worker.once('error', (e) => resolve({ ok: false, reason: String(e) }));
      worker.once('exit', (code) => resolve({ ok: false, reason: `worker exited (${code}) without a reply` }));
    });
    out.push({ worker, reply });
  }
  return out;
}

/** Stops worker threads (those that have replied, and idle or busy ones alike). */
export function stopWorkers(workers: readonly StartedWorker[]): void {
  for (const w of workers) void w.worker.terminate();
}

/**
 * How many worker threads `optimizeTextParallel` is likely to use for an input of
 * `inputBytes` bytes, judged before reading it: from the options, the pipeline and the
 * size alone (the text itself may still rule them out). What a caller that reads the
 * input itself passes to `startWorkers` first.
 */
export function likelyWorkers(inputBytes: number, opts: ParallelOptions = {}): number {
  ensureRegistered();
  const instr = opts.instrumentation ?? {};
  const threads = threadCount(opts);
  if (threads < 2 || opts.streaming === false || instr.trace || !parallelAvailable()) return 0;
  if (inputBytes < (opts.minParallelBytes ?? MIN_PARALLEL_BYTES)) return 0;
  try {
    return canStream('', parsePipeline(opts.pipeline ?? ''), instr) ? threads - 1 : 0;
  } catch {
    return 0; // a bad pipeline: optimizeTextParallel reports it
  }
}

function threadCount(opts: ParallelOptions): number {
  return Math.max(1, Math.floor(opts.threads ?? Math.min(4, availableParallelism())));
}

/** What a worker is given (streaming-worker.ts). */
export interface WorkerTask {
  text: string;
  fileName: string;
  pipeline: string;
  verify: boolean;
  print: boolean;
  printBytes: boolean;
  timePasses: boolean;
  bodies: Int32Array;
  /** The claim counter (on a SharedArrayBuffer) with split 'claim'; null with 'even'. */
  counter: Int32Array | null;
  /** The range of definitions with split 'even'. */
  from: number;
  to: number;
}

/**
 * What a worker sends back: the definitions it took (indices in text order) and their
 * printed text, or that it could not do it cleanly.
 */
export type WorkerReply =
  | { ok: true; taken: number[]; printed: (string | Uint8Array)[]; stats: [string, string, number][]; timings: PassTiming[] }
  | { ok: false; reason: string };

const WORKER_URL = new URL('./streaming-worker.js', import.meta.url);

/** Whether the worker script is there (it is in the bundled dist/, not when running the TypeScript sources). */
export function parallelAvailable(): boolean {
  return WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
}

/**
 * Offsets of the function bodies of LLVM-formatted text: for each `define` line, the `{`
 * ending it and the offset just past the `}` that starts a later line. Null when the text
 * is laid out otherwise.
 */
export function findBodies(text: string): Int32Array | null {
  const out: number[] = [];
  let p = text.startsWith('define') ? 0 : text.indexOf('\ndefine');
  while (p >= 0) {
    const lineStart = text.charCodeAt(p) === 10 ? p + 1 : p;
    const eol = text.indexOf('\n', lineStart);
    if (eol < 0) return null;
    let q = eol - 1;
    while (q > lineStart && (text.charCodeAt(q) === 32 || text.charCodeAt(q) === 9 || text.charCodeAt(q) === 13)) q--;
    if (text.charCodeAt(q) !== 123) return null; // '{' must end the define line
    const close = text.indexOf('\n}', eol);
    if (close < 0) return null;
    out.push(q, close + 2);
    p = text.indexOf('\ndefine', close + 2);
  }
  return Int32Array.from(out);
}

/** Splits definitions into `parts` consecutive ranges of about equal body bytes; the first gets `firstWeight` of a share. */
export function splitBodies(bodies: Int32Array, parts: number, firstWeight = 1): number[] {
  const n = bodies.length / 2;
  let total = 0;
  for (let k = 0; k < n; k++) total += bodies[2 * k + 1] - bodies[2 * k];
  const unit = total / (parts - 1 + firstWeight);
  const cuts = [0];
  let acc = 0;
  let target = unit * firstWeight;
  for (let k = 0; k < n && cuts.length < parts; k++) {
    acc += bodies[2 * k + 1] - bodies[2 * k];
    if (acc >= target) {
      cuts.push(k + 1);
      target += unit;
    }
  }
  while (cuts.length < parts) cuts.push(n);
  cuts.push(n);
  return cuts;
}

/**
 * `optimizeText`, on several threads when the text is big enough and can be streamed;
 * otherwise (or if anything in the parallel attempt is not clean) exactly `optimizeText`.
 */
export async function optimizeTextParallel(text: string, fileName: string, opts: ParallelOptions = {}): Promise<OptimizeTextResult> {
  ensureRegistered();
  const pipeline = opts.pipeline ?? '';
  const oneThread = (): OptimizeTextResult => {
    if (opts.workers) stopWorkers(opts.workers);
    return optimizeText(text, fileName, opts);
  };
  let nodes;
  try {
    nodes = parsePipeline(pipeline);
  } catch (e) {
    if (opts.workers) stopWorkers(opts.workers);
    throw e;
  }
  const instr = opts.instrumentation ?? {};
  const threads = threadCount(opts);
  if (threads < 2 || opts.streaming === false || instr.trace || !canStream(text, nodes, instr) || !parallelAvailable()) return oneThread();
  const bodies = findBodies(text);
  if (bodies === null) return oneThread();
  let bytes = 0;
  for (let k = 0; k < bodies.length; k += 2) bytes += bodies[k + 1] - bodies[k];
  if (bytes < (opts.minParallelBytes ?? MIN_PARALLEL_BYTES) || bodies.length < 4) return oneThread();

  const verify = opts.verify ?? true;
  const print = opts.print ?? true;
  const printBytes = opts.printBytes ?? false;
  const job: StreamJob = { nodes, instr, verify, print, printBytes };
  if (opts.tuneHeap) tuneHeapForStreaming(); // a process-wide flag: the workers' heaps too
  const pool = opts.workers !== undefined && opts.workers.length > 0 ? opts.workers : startWorkers(threads - 1);
  if (pool.length === 0) return optimizeText(text, fileName, opts);
  const parts = 1 + Math.min(threads - 1, pool.length);
  const claim = (opts.split ?? 'claim') === 'claim';
  const counter = claim ? new Int32Array(new SharedArrayBuffer(4)) : null;
  const cuts = claim ? null : splitBodies(bodies, parts);
  const used: StartedWorker[] = [];
  for (let t = 1; t < parts; t++) {
    const from = cuts?.[t] ?? 0;
    const to = cuts?.[t + 1] ?? 0;
    if (cuts !== null && from === to) continue;
    const task: WorkerTask = { text, fileName, pipeline, verify, print, printBytes, timePasses: Boolean(instr.timePasses), bodies, counter, from, to };
    const w = pool[t - 1];
    w.worker.ref();
    w.worker.postMessage(task);
    used.push(w);
  }
  const replies = used.map((w) => w.reply);
  const stop = (): void => stopWorkers(pool);
  let st;
  try {
    st = streamFunctions(text, fileName, job, counter !== null ? claimedShare(bodies, counter) : rangeShare(bodies, 0, cuts![1]));
  } catch {
    stop();
    // A text error, a body table mismatch (BodyTableMismatch) or a failing pass: the
    // one-thread way reports it as it should be.
    return optimizeText(text, fileName, opts);
  }
  const got = await Promise.all(replies);
  stop();
  if (st.inputProblems.size > 0 || st.outputProblems.size > 0 || got.some((r) => !r.ok)) return optimizeText(text, fileName, opts);

  if (nodes.length > 0) st.pm ??= createPassManager(st.m, instr); // the main share may have had no function
  let read = st.taken.length;
  for (const r of got) {
    if (!r.ok) continue; // (all are ok here; this narrows the type)
    read += r.taken.length;
    if (print) r.taken.forEach((k, i) => st.printed.set(st.definitions[k], r.printed[i]));
    st.pm?.addCounters(r.stats, r.timings);
  }
  // Each definition was read by exactly one thread (claimedShare); a cheap check that none was left out.
  if (read !== st.definitions.length) return optimizeText(text, fileName, opts);
  const result = finishStream(st, job);
  result.threads = 1 + got.length;
  return result;
}

/**
 * A worker thread of optimizeTextParallel (streaming-parallel.ts): reads the whole text,
 * processes the definitions of its share (verify, passes, verify, print) and skips the
 * other bodies, then sends back which definitions it took and their printed text. Anything
 * not clean — a text error, a verifier problem, a body table that does not match — is
 * reported as not ok, and the main thread redoes the job on one thread to give the
 * canonical result.
 */
import { parentPort } from 'node:worker_threads';
import { parsePipeline } from '../pm/pipeline-parser.js';
import { ensureRegistered } from '../passes/index.js';
import type { WorkerReply, WorkerTask } from './streaming-parallel.js';
import { claimedShare, rangeShare, streamFunctions } from './streaming.js';

function run(task: WorkerTask): WorkerReply {
  ensureRegistered();
  const nodes = parsePipeline(task.pipeline);
  const st = streamFunctions(
    task.text,
    task.fileName,
    { nodes, instr: { timePasses: task.timePasses }, verify: task.verify, print: task.print, printBytes: task.printBytes },
    task.counter !== null ? claimedShare(task.bodies, task.counter) : rangeShare(task.bodies, task.from, task.to),
  );
  if (st.inputProblems.size > 0 || st.outputProblems.size > 0) return { ok: false, reason: 'verifier problems' };
  const printed = task.print ? st.taken.map((k) => st.printed.get(st.definitions[k]) ?? '') : [];
  return { ok: true, taken: st.taken, printed, stats: st.pm?.counterRows() ?? [], timings: st.pm ? [...st.pm.timings.values()] : [] };
}

/** Runs the task and posts the reply; printed bytes move to the main thread without a copy. */
function answer(task: WorkerTask): void {
  let reply: WorkerReply;
  try {
    reply = run(task);
  } catch (e) {
    reply = { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
  const transfer: ArrayBuffer[] = [];
  if (reply.ok) for (const p of reply.printed) if (typeof p !== 'string') transfer.push(p.buffer as ArrayBuffer);
  parentPort!.postMessage(reply, transfer);
}

// The task comes as a message: the worker may have been started before the text was read.
parentPort!.once('message', answer);

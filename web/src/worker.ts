/**
 * The compiler worker: every compile, pass pipeline, graph, trace and run happens here, so
 * the page never freezes; the page cancels a long job by terminating this worker and
 * starting another (a synchronous job cannot be interrupted any other way). The work itself
 * is in session.ts (no browser API there, so Node tests run it); this file is the message
 * loop. Graphs leave here as DOT: Graphviz lays them out in a worker of its own
 * (graph-worker.ts), so a large layout never holds up the compile of the next edit.
 */
import { PIPELINES, TRACES, ensureRegistered, passInfos } from '../../src/core.js';
import { Session } from './session.js';
import type { Envelope, PassListReply, Reply, Request } from './protocol.js';

const session = new Session();

function passes(): PassListReply {
  ensureRegistered();
  return { kind: 'passes', passes: passInfos().map((p) => ({ name: p.name, description: p.description })), pipelines: { ...PIPELINES }, traces: TRACES.map((t) => ({ name: t.name, description: t.description })) };
}

async function handle(req: Request): Promise<Reply> {
  switch (req.kind) {
    case 'compile':
      return session.compile(req);
    case 'step':
      return { kind: 'step', ...session.stepView(req.step) };
    case 'graph': {
      const g = session.graph(req.step, req.fn, req.graph);
      return { kind: 'graph', dot: g.dot, blocks: g.blocks, blockCount: g.blockCount, ir: g.ir, order: g.order, step: req.step, fn: g.fn };
    }
    case 'trace':
      return session.trace(req);
    case 'run':
      return session.run(req);
    case 'passes':
      return passes();
  }
}

self.onmessage = async (ev: MessageEvent<Envelope<Request>>) => {
  const { id, body } = ev.data;
  try {
    self.postMessage({ id, body: await handle(body) });
  } catch (e) {
    self.postMessage({ id, body: { kind: 'error', message: e instanceof Error ? e.message : String(e) } });
  }
};

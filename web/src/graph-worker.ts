/**
 * Graphviz's layout, in a worker of its own: a large CFG (sort.sy's @main after -O2 unrolling
 * has 216 blocks) takes Graphviz a second or more, and in the compiler worker that layout held
 * up the compile of the next edit. Here it runs beside the compiler; the page ends this worker
 * when a newer graph is asked for before the layout is done (graphs.ts). Graphviz's WebAssembly
 * loads with this worker, that is with the first graph.
 */
import { instance } from '@viz-js/viz';

const viz = instance();

self.onmessage = async (ev: MessageEvent<{ id: number; dot: string }>) => {
  const { id, dot } = ev.data;
  try {
    self.postMessage({ id, svg: (await viz).renderString(dot, { format: 'svg', engine: 'dot' }) });
  } catch (e) {
    self.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};

/**
 * DOT to SVG with @viz-js/viz (Graphviz compiled to WebAssembly): no system Graphviz needed.
 * The module is loaded on first use only (it is large), so the CLI starts fast otherwise.
 */
import { loadModule } from '../platform/index.js';

interface VizInstance {
  renderString(src: string, opts: { format: string; engine?: string }): string;
}

let viz: Promise<VizInstance> | null = null;

export async function renderSvg(dot: string): Promise<string> {
  if (viz === null) {
    // A non-literal specifier keeps bundlers from inlining the WASM build into the CLI bundle.
    const spec = '@viz-js/viz';
    viz = (loadModule(spec) as Promise<{ instance(): Promise<VizInstance> }>).then((m) => m.instance());
  }
  const v = await viz;
  return v.renderString(dot, { format: 'svg', engine: 'dot' });
}

/**
 * The page's side of the Graphviz worker: one layout at a time, and a newer layout replaces
 * an unfinished one (the worker is ended and a fresh one started), so clicking through steps
 * or typing never queues layouts nobody will see.
 */
export class LayoutCancelled extends Error {
  constructor() {
    super('layout replaced by a newer one');
  }
}

export class GraphLayout {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending: { id: number; resolve: (svg: string) => void; reject: (e: Error) => void } | null = null;

  /** SVG of a DOT graph; rejects with LayoutCancelled when another layout is asked for first. */
  render(dot: string): Promise<string> {
    this.cancel();
    if (this.worker === null) {
      const w = new Worker(new URL('./graph-worker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (ev: MessageEvent<{ id: number; svg?: string; error?: string }>) => {
        const p = this.pending;
        if (p === null || p.id !== ev.data.id) return;
        this.pending = null;
        if (ev.data.svg !== undefined) p.resolve(ev.data.svg);
        else p.reject(new Error(ev.data.error ?? 'Graphviz failed'));
      };
      this.worker = w;
    }
    const id = this.nextId++;
    const p = new Promise<string>((resolve, reject) => (this.pending = { id, resolve, reject }));
    this.worker.postMessage({ id, dot });
    return p;
  }

  /** Ends an unfinished layout (and its worker: a layout cannot be interrupted any other way). */
  cancel(): void {
    if (this.pending === null) return;
    this.pending.reject(new LayoutCancelled());
    this.pending = null;
    this.worker?.terminate();
    this.worker = null;
  }
}

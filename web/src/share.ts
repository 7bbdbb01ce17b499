/**
 * The page's state in the URL: JSON, deflated with the browser's own CompressionStream
 * (no library needed), base64url, in the fragment (never sent to a server).
 */
export interface ShareState {
  source: string;
  lang: 'sysy' | 'llvm';
  ssa: 'braun' | 'alloca';
  pipeline: string;
  tab: string;
  stdin: string;
  example?: string;
}

async function pump(data: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([data as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

function toBase64Url(u: Uint8Array): string {
  let s = '';
  for (let i = 0; i < u.length; i++) s += String.fromCharCode(u[i]);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const u = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) u[i] = b.charCodeAt(i);
  return u;
}

export async function encodeState(st: ShareState): Promise<string> {
  return toBase64Url(await pump(new TextEncoder().encode(JSON.stringify(st)), new CompressionStream('deflate-raw')));
}

export async function decodeState(s: string): Promise<ShareState> {
  const json = new TextDecoder().decode(await pump(fromBase64Url(s), new DecompressionStream('deflate-raw')));
  return JSON.parse(json) as ShareState;
}

// Types of jieba-wasm's web build, the part used (its own .d.ts is reachable only through the
// package's "exports", which this project's moduleResolution does not read; esbuild does).
declare module 'jieba-wasm/web' {
  export function initSync(module: { module: ArrayBuffer | Uint8Array }): unknown;
  export function cut(text: string, hmm?: boolean | null): string[];
}

// A .wasm module imported by a browser bundle: its bytes (esbuild's binary loader, esbuild.js).
declare module '*.wasm' {
  const bytes: Uint8Array;
  export default bytes;
}

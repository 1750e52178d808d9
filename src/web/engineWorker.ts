/**
 * The Web Worker entry of VS Code for the Web's engine (dist/web/engineWorker.js): starts the
 * WebAssembly kernel and jieba-wasm from the bytes the host sends with `init`, then serves the
 * requests of webProtocol.ts on a WebEngine, one at a time, in order. A failed request answers
 * with its error; the worker itself goes on.
 */
import { createWasmKernel } from '../core/wasm/wasmKernel';
// The C kernel as WebAssembly (wasm/neardup_kernel.wasm, ~85 KB): inside this bundle (esbuild's
// binary loader), so that the worker needs no fetch.
import kernelWasm from '../../wasm/neardup_kernel.wasm';
import type { CodeKernel } from '../core/types';
import { variantFold } from '../node/cjk/variants';
import { WebEngine } from './webEngine';
import { webJiebaSegmenter } from './webJieba';
import type { WebEngineInfo, WebMessage, WebRequest } from './webProtocol';

// The few worker globals used (the project's lib has no DOM / WebWorker types).
declare const self: {
  onmessage: ((e: { data: { id: number; request: WebRequest } }) => void) | null;
  postMessage(message: WebMessage): void;
};

const log = (message: string): void => self.postMessage({ type: 'log', message });
let engine: WebEngine | undefined;

function init(request: Extract<WebRequest, { type: 'init' }>): WebEngineInfo {
  const problems: string[] = [];
  let kernel: CodeKernel | undefined;
  try {
    kernel = createWasmKernel(kernelWasm);
  } catch (e) {
    problems.push(`the WebAssembly kernel could not start (${(e as Error).message.split('\n')[0]}); fingerprinting in JavaScript (same results, slower)`);
  }
  if (!request.jieba && request.settings.cjkSegmenter === 'jieba') problems.push('jieba-wasm could not be read; Chinese is cut into character bigrams');
  const segmenter = webJiebaSegmenter(request.jieba, log);
  engine = new WebEngine(request.settings, { kernel, segmenter, fold: variantFold(log) });
  return { kernel: kernel ? 'wasm' : 'ts', segmenter: request.jieba ? 'jieba' : 'bigram', problems };
}

function handle(request: WebRequest): unknown {
  if (request.type === 'init') return init(request);
  if (!engine) throw new Error('the engine is not started (init first)');
  switch (request.type) {
    case 'settings':
      engine.setSettings(request.settings);
      return null;
    case 'update':
      return engine.update(request.files, request.removes);
    case 'report':
      return engine.report();
  }
}

self.onmessage = (e) => {
  const { id, request } = e.data;
  try {
    self.postMessage({ id, ok: true, result: handle(request) });
  } catch (err) {
    self.postMessage({ id, ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};

/**
 * The web extension host's end of the browser engine: starts dist/web/engineWorker.js as a Web
 * Worker (VS Code for the Web allows workers from an extension's own files), sends the requests
 * of src/web/webProtocol.ts with an id and resolves each with its answer. The worker's notices go
 * to the log. A worker that fails to start rejects every request with the reason.
 */
import type { WebMessage, WebRequest, WebResponseMap } from '../../web/webProtocol';

// The few Web Worker declarations used (the project's lib has no DOM types).
interface WorkerLike {
  onmessage: ((e: { data: WebMessage }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  postMessage(message: unknown, transfer?: unknown[]): void;
  terminate(): void;
}
declare const Worker: new (url: string) => WorkerLike;

export class WebEngineClient {
  private readonly worker: WorkerLike;
  private next = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(workerUrl: string, log: (message: string) => void) {
    this.worker = new Worker(workerUrl);
    this.worker.onmessage = (e) => {
      const m = e.data;
      if ('type' in m) return log(m.message);
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.ok) w?.resolve(m.result);
      else w?.reject(new Error(m.error));
    };
    this.worker.onerror = (e) => {
      const error = new Error(`the engine worker failed (${e.message ?? 'no reason given'})`);
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
  }

  request<T extends WebRequest>(request: T, transfer: unknown[] = []): Promise<WebResponseMap[T['type']]> {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, request }, transfer);
    });
  }

  dispose(): void {
    this.worker.terminate();
    for (const w of this.waiting.values()) w.reject(new Error('the engine worker was stopped'));
    this.waiting.clear();
  }
}

/**
 * Bundles the engine worker and the fingerprint worker from the current sources (so the tests
 * never run a stale dist/) into out/test/unit-workers/, inside the repository so that the
 * external native modules (@node-rs/jieba) resolve from its node_modules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const REPO = path.join(__dirname, '..', '..', '..');

let built: Promise<{ engineScript: string; workerScript: string }> | undefined;

export function buildEngineWorkers(): Promise<{ engineScript: string; workerScript: string }> {
  built ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    const outdir = path.join(REPO, 'out', 'test', 'unit-workers');
    fs.mkdirSync(outdir, { recursive: true });
    await esbuild.build({
      entryPoints: { engineWorker: path.join(REPO, 'src/worker/engineWorker.ts'), worker: path.join(REPO, 'src/worker/worker.ts') },
      outdir,
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external: ['vscode', '@node-rs/jieba', '@node-rs/jieba-*'],
      logLevel: 'warning',
    });
    return { engineScript: path.join(outdir, 'engineWorker.js'), workerScript: path.join(outdir, 'worker.js') };
  })();
  return built;
}

/** Small helpers shared by the engine tests (EngineState, EngineSupervisor). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ViewReport } from '../../../src/node/engine/engineProtocol';

/** What must not change whatever happened on the way: groups, items, counts. */
export function canonReport(r: ViewReport): string {
  return JSON.stringify({ files: r.files, sections: r.sections, pairs: r.pairs, groups: r.groups, items: r.items });
}

/** Writes `content` at `rel` ('/'-separated) under `root`, creating folders; returns the path. */
export function writeFileAt(root: string, rel: string, content: string | Buffer): string {
  const abs = path.join(root, ...rel.split('/'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  return abs;
}

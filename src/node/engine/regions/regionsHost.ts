/**
 * What the engine's located copies stand on (EngineRegionsHost, engineRegions.ts): the engine's
 * entries (each file's signature: size and mtime) and its fingerprint workers, which read region
 * documents again in batches.
 */
import type { RegionDocument } from '../../../core/regions/document';
import type { EngineSettings } from '../../settings/engineSettings';
import type { EngineEvent } from '../engineProtocol';
import { sendInBatches } from '../indexing/fileBatches';
import type { EngineRegionsHost } from './engineRegions';

/** A file's signature for the region index: its size and mtime (EngineRegionsHost.sigOf). */
export const fileSignature = (size: number, mtimeMs: number): string => `${size}:${mtimeMs}`;

/** What {@link loadRegionDocuments} needs of the engine's fingerprinter. */
export interface RegionReader {
  readonly size: number;
  regionDocuments?(files: Array<{ path: string; relPath: string }>, settings: EngineSettings): Promise<Array<{ relPath: string; ok: boolean; region?: RegionDocument }>>;
}

/**
 * Region documents of files read again through the fingerprint workers (in batches of at most
 * `batch.files` files and `batch.bytes` bytes by `sizeOf`, two per worker in flight:
 * indexing/fileBatches.ts). A file that cannot be read or is skipped now is left out; a batch
 * whose worker died is retried one file at a time.
 */
export async function loadRegionDocuments(
  reader: RegionReader,
  paths: readonly string[],
  settings: EngineSettings,
  batch: { files?: number; bytes?: number } = {},
  sizeOf: (path: string) => number = () => 0,
): Promise<Map<string, RegionDocument>> {
  const out = new Map<string, RegionDocument>();
  if (!reader.regionDocuments) return out;
  const read = reader.regionDocuments.bind(reader);
  const take = (list: Array<{ relPath: string; ok: boolean; region?: RegionDocument }>) => {
    for (const o of list) if (o.ok && o.region) out.set(o.relPath, o.region);
  };
  const send = async (files: Array<{ path: string; relPath: string }>): Promise<void> => {
    try {
      take(await read(files, settings));
    } catch {
      for (const f of files) take(await read([f], settings).catch(() => []));
    }
  };
  await sendInBatches(paths, sizeOf, { ...batch, inFlight: Math.max(2, reader.size * 2) }, (list) => send(list.map((x) => ({ path: x, relPath: x }))));
  return out;
}

/** The host of {@link EngineRegions} over the engine's entries and fingerprinter. */
export function regionsHost(
  entries: { docs: ReadonlyMap<string, unknown>; bytes: number; get(path: string): { size: number; mtimeMs: number } | undefined; takeChanged(): Set<string> | null; stopChanges(): void },
  reader: RegionReader,
  settings: () => EngineSettings,
  emit: (event: EngineEvent) => void,
  batch: { files?: number; bytes?: number },
): EngineRegionsHost {
  return {
    sigOf: (p) => {
      const e = entries.docs.has(p) ? entries.get(p) : undefined;
      return e ? fileSignature(e.size, e.mtimeMs) : undefined;
    },
    paths: () => [...entries.docs.keys()],
    count: () => entries.docs.size,
    bytes: () => entries.bytes,
    takeChanged: () => entries.takeChanged(),
    stopChanges: () => entries.stopChanges(),
    load: (paths) => loadRegionDocuments(reader, paths, settings(), batch, (p) => entries.get(p)?.size ?? 0),
    settings,
    emit,
  };
}

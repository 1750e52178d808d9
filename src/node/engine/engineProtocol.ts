/**
 * Typed messages between the extension host and the stateful engine worker
 * (src/worker/engineWorker.ts → dist/engineWorker.js).
 *
 * Wire format:
 *   host → engine   {@link EngineRequestEnvelope}   `{ id, req }`
 *   engine → host   {@link EngineMessage}           a response `{ kind: 'response', id, ok, … }`
 *                                                   or an event `{ kind: 'event', event }`
 * Requests that change the index are applied one at a time in arrival order; `cancel`, `getReport`
 * and `stats` are answered at once. Events are posted in order: a request's `report` event always
 * arrives before its response.
 *
 * Paths are absolute file-system paths (the engine walks with Node's fs); documents are keyed by
 * them, so one file that is inside two workspace folders counts once.
 */
import type { EngineSettings } from '../settings/engineSettings';
import type { CloneKind } from '../../core/types';

/** One workspace folder to index. */
export interface EngineRoot {
  /** Absolute path of the folder. */
  path: string;
  /** Extra exclude globs for this folder only (VS Code's `files.exclude`), relative to it. */
  exclude: string[];
  /**
   * This folder's own `include` / `exclude` (its `.neardup.json` sets them): each replaces the
   * config's list of the same name for this folder.
   */
  project?: { include?: string[]; exclude?: string[] };
}

/** Everything that decides which files are indexed and how they are fingerprinted. */
export interface EngineConfig {
  settings: EngineSettings;
  /** `neardup.include`: globs relative to each root; empty = every file. */
  include: string[];
  /** `neardup.exclude`: globs relative to each root. */
  exclude: string[];
  roots: EngineRoot[];
  /** `neardup.locate`: find copied blocks inside files too (located copies, issue 12). Default true. */
  locate?: boolean;
}

/** The settings that decide matches only (changing them re-queries without re-reading files). */
export interface Thresholds {
  maxDistance: number;
  sectionMaxDistance: number;
  minSimilarity: number;
}

/** Timing knobs of the engine (tests make them short; the defaults suit the extension). */
export interface EngineTuning {
  /** Most files per message to a fingerprint worker. Default 64 (indexing/fileBatches.ts ENGINE_BATCH_FILES). */
  batchSize?: number;
  /** A message to a fingerprint worker is closed once its files hold this many bytes. Default 256 KB (ENGINE_BATCH_BYTES). */
  batchBytes?: number;
  /** Delay before the cache is written after live updates. Default 1500 ms. */
  saveDelayMs?: number;
  /**
   * Batches touching more files than this are matched from scratch; smaller ones too when the
   * measured cost of matching them one by one exceeds that of the last full match. Default 500.
   */
  incrementalLimit?: number;
  /** Minimum time between progress events. Default 100 ms. */
  progressIntervalMs?: number;
  /**
   * While a long index reads files, the cache is written at least this often (and at most once
   * per ten times the last write took), so a crash loses little work. Default 10 000 ms; 0: never.
   */
  checkpointMs?: number;
  /**
   * A report larger than this many entries goes to the host in parts (see reportParts.ts).
   * Default REPORT_PART_WEIGHT (2000).
   */
  reportPartWeight?: number;
  /** Pairs of each kind a report holds at most (beyond: `truncated`). Default MAX_REPORT_PAIRS (250,000). */
  maxPairs?: number;
  /** Located copies are off over this many bytes of indexed text. Default REGIONS_MAX_BYTES (32 MB). */
  regionsMaxBytes?: number;
  /**
   * Threads the native kernel's search of the located copies' buckets may take (native/threads.c:
   * the same regions). Default: the cores, at most BUCKET_SEARCH_MAX_THREADS (4, core/regions/kernelBuckets.ts).
   */
  regionThreads?: number;
}

export interface InitRequest {
  type: 'init';
  config: EngineConfig;
  /** Where the fingerprint cache lives; null = no cache. */
  cachePath: string | null;
  /** Worker script of the fingerprint pool (dist/worker.js); default: worker.js beside the engine. */
  workerScript?: string;
  /** Fingerprint workers; default: cores − 1, at least 1, at most 4. */
  poolSize?: number;
  tuning?: EngineTuning;
}

/**
 * Fault injection for reliability tests (harmless: the extension restarts a crashed engine).
 * `engine`: the engine worker dies — `exit` (process.exit in the worker), `throw` (an uncaught
 * error), `oom` (allocates until its heap limit). `pool`: one fingerprint worker is terminated
 * (the pool restarts it and retries its task). Never answered when the engine dies.
 */
export interface DebugCrashRequest {
  type: 'debugCrash';
  target: 'engine' | 'pool';
  how?: 'exit' | 'throw' | 'oom';
}

export type EngineRequest =
  | InitRequest
  /** Walks every root again (optionally with a new config) and re-reads what changed. */
  | { type: 'reindex'; config?: EngineConfig }
  | { type: 'setThresholds'; thresholds: Thresholds }
  /** A coalesced batch of file events (absolute paths). Applied: renames, removes, upserts. */
  | { type: 'update'; upserts: string[]; removes: string[]; renames: Array<{ from: string; to: string }> }
  /** A document saved in the editor, with the text it holds: indexed at once from that text (see savedText.ts). */
  | { type: 'saveText'; path: string; text: string }
  | { type: 'getReport' }
  /** Near duplicates of one file, from its indexed fingerprint or from `text` (an unsaved editor). */
  | { type: 'queryFile'; path: string; text?: string }
  /** Where a block of text (a paste into `path`, whose language it takes) matches the index (see textQuery.ts). */
  | { type: 'matchText'; path: string; text: string }
  /** Stops the running indexing job; what was read so far is kept. */
  | { type: 'cancel' }
  | { type: 'stats' }
  /** The picture of the workspace for the Overview: folders and files with their lines, pair distances, largest groups. */
  | { type: 'overview' }
  /** The HTML report of the index (the CLI's `--format html` page), written in the engine worker. */
  | { type: 'htmlReport' }
  /**
   * The baseline file of each workspace folder whose project config names one or that has one
   * (`.neardup.json`'s `baseline`): read now, and its pairs' twins marked `baseline` in the report.
   */
  | { type: 'setBaselines'; baselines: Array<{ root: string; file: string }> }
  /** *Add to baseline*: the baseline file's new text with these pairs (the host writes it). */
  | { type: 'addToBaseline'; root: string; file: string; pairs: Array<{ kind: 'file' | 'section'; a: ViewLocation; b: ViewLocation; located?: boolean }> }
  /** Writes the cache now if anything changed; answered once it is written (or failed). */
  | { type: 'flushCache' }
  /** Saves the cache and stops the fingerprint workers. */
  | { type: 'shutdown' }
  | DebugCrashRequest;

export type EngineRequestType = EngineRequest['type'];

export type CacheStatus = 'none' | 'missing' | 'loaded' | 'discarded';

export interface InitResult {
  cacheStatus: CacheStatus;
  /** Why a cache was discarded (corrupt, old format, other settings). */
  cacheReason?: string;
  cacheEntries: number;
}

/** What one indexing job (a walk, or a batch of file events) did. */
export interface IndexStats {
  /** Files in the index after the job. */
  files: number;
  /** Files read and fingerprinted by this job. */
  reread: number;
  /** Files whose cached fingerprint was reused (same path, size, mtime). */
  cacheHits: number;
  removed: number;
  skipped: number;
  cancelled: boolean;
  /** Time of the whole job, including matching. */
  elapsedMs: number;
  /** Time of buildReport alone. */
  matchMs: number;
}

export interface UpdateResult extends IndexStats {
  /** True when the batch needed a full walk (a folder or an ignore file changed). */
  rewalked: boolean;
}

/** What a `saveText` did: an update, with the file's size and mtime on disk as indexed (the watcher's echo of the save has them). */
export interface SaveTextResult extends UpdateResult {
  size?: number;
  mtimeMs?: number;
  /** The file went the way of a file event (excluded, gone, too large…): read from disk. */
  fromDisk?: boolean;
}

export interface EngineStats {
  documents: number;
  sections: number;
  indexing: boolean;
  /** The engine worker's isolate heap (the process's rss is shared with the host). */
  heapUsed: number;
  poolSize: number;
  /** How code is fingerprinted: the native kernel, the WebAssembly one, or the TypeScript (same results) and why. */
  fingerprinting: 'native' | 'wasm' | `typescript: ${string}`;
}

export type QueryStatus =
  /** The file was compared; `matches` may be empty. */
  | 'ok'
  /** Not inside any workspace folder. */
  | 'outside'
  /** Excluded by neardup.include/exclude, files.exclude or .gitignore. */
  | 'excluded'
  /** Larger than neardup.maxFileSizeKB. */
  | 'tooLarge'
  /** Fewer than minTokens tokens: neither the file nor any of its sections has a fingerprint. */
  | 'tooSmall'
  /** Binary, minified, unreadable…: `reason` says what. */
  | 'skipped';

export interface ViewLocation {
  /** Absolute path. */
  path: string;
  /** 1-based inclusive lines, for sections. */
  startLine?: number;
  endLine?: number;
}

export interface QueryMatch {
  kind: 'file' | 'section';
  /** For sections: the lines of the queried file. */
  self?: { startLine: number; endLine: number };
  other: ViewLocation;
  distance: number;
  similarity: number;
  /** How the copy was made (ReportPair.clone). */
  clone: CloneKind;
}

export interface QueryResult {
  status: QueryStatus;
  reason?: string;
  /** Closest first; at most MAX_QUERY_MATCHES. */
  matches: QueryMatch[];
  /**
   * Set when there were more matches than `matches` holds: how many were found (at least; the
   * search itself stops at MAX_REPORT_PAIRS section matches, see TwinLimit).
   */
  total?: number;
}

/** Where a block of text matches an indexed file or section (a `matchText` answer). */
export interface TextMatch {
  kind: 'file' | 'section';
  /** The other file (absolute) and its lines (1-based inclusive; a whole file's when known). */
  path: string;
  startLine?: number;
  endLine?: number;
  /** The lines of the block that match (1-based, within the block). */
  self: { startLine: number; endLine: number };
  /** The share of the block's lines that `self` covers (0–1). */
  covered: number;
  distance: number;
  similarity: number;
}

export interface TextQueryResult {
  status: 'ok' | 'tooSmall' | 'tooLarge' | 'skipped';
  reason?: string;
  /** Lines of the block. */
  lines: number;
  /** Most covering, then closest first; at most MAX_TEXT_MATCHES (textQuery.ts). */
  matches: TextMatch[];
  total?: number;
}

/** The kinds a cut report left pairs out of, in words: "file", "section" or "file and section". */
export function truncatedKinds(t: { files: boolean; sections: boolean } | undefined): string {
  return [t?.files ? 'file' : '', t?.sections ? 'section' : ''].filter(Boolean).join(' and ');
}

/** A query answers with this many matches at most (a generated file can match its sections by the hundred thousand). */
export const MAX_QUERY_MATCHES = 1000;

/** A member of a group, with its distance to the group's representative (members[0]). */
export interface ViewMember extends ViewLocation {
  distance: number;
  similarity: number;
  /** How it was copied from the group's representative (absent on the representative itself). */
  clone?: CloneKind;
}

export interface ViewGroup {
  kind: 'file' | 'section';
  /** Stable across updates while the representative stays (used for tree item ids). */
  key: string;
  /** Largest distance of a pair inside the group. */
  maxDistance: number;
  /** members[0] is the representative (distance 0); the rest closest first. */
  members: ViewMember[];
  /** A copied block located inside files (`neardup.locate`): its places; figures are the region's. */
  located?: true;
}

export interface ViewTwin extends ViewLocation {
  distance: number;
  similarity: number;
  /** The pair is in the folder's baseline (`neardup.baseline.show` hides or dims it). */
  baseline?: boolean;
  /** A file twin's located regions (`neardup.locate`): `self` the item's lines, `other` the twin's. */
  regions?: Array<{ self: { startLine: number; endLine: number }; other: { startLine: number; endLine: number }; clone: CloneKind; similarity: number }>;
  /** How the copy was made (the pair's ReportPair.clone): `exact`, `renamed` or `edited`. */
  clone?: CloneKind;
  /** A copied block located inside files (`neardup.locate`): its baseline key is made of its sides' tokens. */
  located?: true;
}

/** One file or section that has near duplicates, with all of them (closest first). */
export interface ViewItem {
  kind: 'file' | 'section';
  loc: ViewLocation;
  twins: ViewTwin[];
  /** Twins left out of `twins` to bound the message size. */
  moreTwins: number;
}

/** Lines of the fingerprinted files and of those in near-duplicate files or sections. */
export interface LineCount {
  lines: number;
  duplicated: number;
}

/**
 * The share of the workspace's lines in near duplicates: code and prose (documents) apart, and
 * the folders (the first level under a workspace folder) holding the most duplicated lines.
 * Files whose lines are not known (fingerprinted before the cache held lines) count none.
 */
export interface LineShare {
  code: LineCount;
  prose: LineCount;
  /** At most {@link MAX_SHARE_FOLDERS}, most duplicated lines first; `.` holds a folder's top-level files. */
  folders: Array<{ folder: string } & LineCount>;
}

export const MAX_SHARE_FOLDERS = 5;

/** A folder or file of the Overview's treemap: its lines and those in near duplicates. */
export interface OverviewNode {
  name: string;
  /** Absolute path (a file's: to open it). */
  path: string;
  lines: number;
  duplicated: number;
  /** A folder's folders and files (absent: a file). */
  children?: OverviewNode[];
}

/** One of the largest groups (copies × lines). */
export interface OverviewGroup {
  kind: 'file' | 'section';
  copies: number;
  /** Lines of all its members together. */
  lines: number;
  maxDistance: number;
  /** The first {@link MAX_OVERVIEW_MEMBERS} members. */
  members: ViewLocation[];
}

export interface OverviewData {
  /** One per workspace folder. */
  roots: OverviewNode[];
  /** Pairs by Hamming distance (index 0–64), files and sections apart; similarity is 1 − distance/64. */
  distances: { file: number[]; section: number[] };
  thresholds: Thresholds;
  /** The largest groups, most copies × lines first, at most {@link MAX_OVERVIEW_GROUPS}. */
  groups: OverviewGroup[];
  /** Files: more than {@link MAX_OVERVIEW_FILES} are not drawn one by one, only their folders. */
  files: number;
  filesDrawn: boolean;
}

export const MAX_OVERVIEW_FILES = 5000;
export const MAX_OVERVIEW_GROUPS = 20;
export const MAX_OVERVIEW_MEMBERS = 10;

export interface ViewReport {
  /** Increases with every report the engine computes. */
  generation: number;
  /** Date.now() when the engine finished it (the host measures the hand-over). */
  createdAt: number;
  files: number;
  sections: number;
  pairs: number;
  /** Sorted by closeness (largest distance, then size). */
  groups: ViewGroup[];
  /**
   * Sorted by path, then line. In a `report` event with `full: false` only the items of files
   * whose items changed since the previous report event (all items of each such file); files in
   * `clearedPaths` have none any more. `getReport` answers with everything (`full: true`).
   */
  items: ViewItem[];
  clearedPaths: string[];
  full: boolean;
  thresholds: Thresholds;
  /** The job that produced this report (null for a pure re-query). */
  lastJob: IndexStats | null;
  /** Set when the pairs of a kind reached the cap: the report holds only some of them. */
  truncated?: { files: boolean; sections: boolean };
  /** The share of the workspace's lines in near duplicates (absent from engines before it). */
  lineShare?: LineShare;
}

export interface EngineResponseMap {
  init: InitResult;
  reindex: IndexStats;
  setThresholds: { generation: number };
  update: UpdateResult;
  saveText: SaveTextResult;
  getReport: ViewReport;
  queryFile: QueryResult;
  matchText: TextQueryResult;
  cancel: { cancelled: boolean };
  stats: EngineStats;
  overview: OverviewData;
  htmlReport: string;
  setBaselines: { problems: string[] };
  addToBaseline: { text: string; added: number } | { problem: string };
  flushCache: null;
  shutdown: null;
  /** Fingerprint workers terminated (target `pool`). */
  debugCrash: { terminated: number };
}

export type EngineEvent =
  | { type: 'progress'; phase: 'walking' | 'reading' | 'matching'; done: number; total: number }
  | { type: 'indexing'; active: boolean }
  | { type: 'skipped'; items: Array<{ path: string; reason: string }> }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; message: string }
  /** Located copies are off: the indexed text is over the limit (sent once until it is under again). */
  | { type: 'regionsOff'; bytes: number; maxBytes: number }
  /**
   * A report. A large one comes as `reportPart` events first (see reportParts.ts): its groups,
   * items and cleared paths are those of the parts, in order, then its own; `parts` counts them.
   */
  | { type: 'report'; report: ViewReport; parts?: number }
  | { type: 'reportPart'; generation: number; index: number; groups: ViewGroup[]; items: ViewItem[]; clearedPaths: string[] };

export interface EngineRequestEnvelope {
  id: number;
  req: EngineRequest;
}

export type EngineMessage =
  | { kind: 'response'; id: number; ok: true; res: unknown }
  | { kind: 'response'; id: number; ok: false; error: string }
  | { kind: 'event'; event: EngineEvent };

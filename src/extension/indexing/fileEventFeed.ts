/**
 * The workspace's file events and saves on their way to the engine worker. Watcher and workspace
 * events are only stored as they come (a flood of them arrives in one task) and resolved to
 * workspace paths in slices ({@link HostTasks}); the resolved ones are coalesced by a
 * {@link FileEventQueue} (debounced; a burst ends in a re-walk) and sent as batches. A save goes to
 * the engine at once with the editor's text (see live/saveEchoes.ts): the watcher's echo of it is
 * dropped, and a change of a file the editor holds unsaved waits until the document is clean.
 * Part of {@link IndexService}.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexStats, UpdateResult } from '../../node/engine/engineProtocol';
import { FileEventQueue, type FileEventBatch, type FileOp } from '../../node/files/fileEventQueue';
import { isDefaultExcluded } from '../../node/files/walk';
import type { HostTasks, Slice } from '../hostTasks';
import { SaveEchoes } from '../live/saveEchoes';
import type { OutputLog } from '../outputLog';
import type { EngineSession } from './engineSession';
import type { JobTracker } from './jobTracker';

/**
 * Longest wait of a file event while the editor holds the file unsaved (FileEventFeed.queueEvent):
 * a save under way ends it (the document is clean again) long before.
 */
export const UNSAVED_WAIT_MAX_MS = 5000;
const UNSAVED_POLL_MS = 50;

/** Whether a document is a file on disk open with unsaved changes. */
const unsavedFile = (d: vscode.TextDocument): boolean => d.isDirty && d.uri.scheme === 'file';

/** The files (paths) open in an editor with unsaved changes. */
function dirtyFiles(): ReadonlySet<string> {
  const out = new Set<string>();
  for (const d of vscode.workspace.textDocuments) if (unsavedFile(d)) out.add(d.uri.fsPath);
  return out;
}

/** Resolves once `file` is no longer open with unsaved changes (saved, reverted, closed), or after UNSAVED_WAIT_MAX_MS. */
async function whileUnsaved(file: string): Promise<void> {
  const unsaved = () => vscode.workspace.textDocuments.some((d) => unsavedFile(d) && d.uri.fsPath === file);
  for (let waited = 0; waited < UNSAVED_WAIT_MAX_MS && unsaved(); waited += UNSAVED_POLL_MS) await new Promise((resolve) => setTimeout(resolve, UNSAVED_POLL_MS));
}

/** Quiet time after the last file event before a batch goes to the engine. */
export const DEBOUNCE_MS = 300;
/** A steady stream of events is still flushed this often. */
const MAX_WAIT_MS = 2000;
/**
 * After this many file events between two quiet moments (a branch switch, a pull, a generator),
 * the workspace is walked again: watchers lose events in such bursts.
 */
const BURST_PATHS = 200;
/** Paths per batch to the engine at most (posting 10,000 paths takes ~1 ms). */
const MAX_BATCH_PATHS = 10_000;

/** What the feed uses of the engine session (read `client` at each request: a restart replaces it). */
export type FeedEngine = Pick<EngineSession, 'client' | 'paused' | 'ensureEngine' | 'onFailure'>;

/** What the feed tells the index service. */
export interface FileEventFeedHost {
  /** The engine walked the workspace again with a batch or a save (a folder appeared, an ignore file changed). */
  walked(stats: IndexStats): void;
  /** A burst of file events ended: walk the workspace again. */
  rewalk(): void;
}

export class FileEventFeed {
  private readonly queue: FileEventQueue;
  /** Raw file events (uri, op) waiting to be resolved to workspace paths, and whether a job is on it. */
  private readonly rawEvents: Array<{ uri: vscode.Uri; op: FileOp }> = [];
  private resolvingEvents = false;
  /** Saves sent to the engine with their text: the watcher's echoes of them are dropped. */
  private readonly echoes = new SaveEchoes();
  private watching = false;
  private disposed = false;
  /** Stats of the last batch of file events (or save). */
  lastUpdateStats: UpdateResult | undefined;
  /** Saves sent to the engine so far (a save path, not a batch of file events). */
  savesSent = 0;
  /** File events of files open with unsaved changes, held until the document is clean (queueEvent). */
  eventsWhileUnsaved = 0;

  constructor(
    private readonly tasks: HostTasks,
    private readonly log: OutputLog,
    private readonly engine: FeedEngine,
    private readonly jobs: JobTracker,
    private readonly host: FileEventFeedHost,
  ) {
    this.queue = new FileEventQueue((batch) => this.sendBatch(batch), {
      debounceMs: DEBOUNCE_MS,
      maxWaitMs: MAX_WAIT_MS,
      burstPaths: BURST_PATHS,
      maxBatchPaths: MAX_BATCH_PATHS,
      runTask: (task) => this.tasks.time('fileEvents.flush', task),
      onBurstEnd: (n) => {
        if (this.engine.paused || this.disposed) return;
        this.log.info(`${n} file events in a burst (or a new folder): walking the workspace again for changes the file watcher may have missed`);
        this.host.rewalk();
      },
      onIdle: () => this.jobs.check(),
    });
  }

  /** Batches of file events sent to the engine so far. */
  get batches(): number {
    return this.queue.batches;
  }

  /** No event waiting (raw or queued), none being resolved, no batch in flight. */
  get idle(): boolean {
    return this.queue.idle && this.rawEvents.length === 0 && !this.resolvingEvents;
  }

  /** Starts listening: the file watcher, saves, and the create/delete/rename events. */
  watch(): vscode.Disposable[] {
    this.watching = true;
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    return [
      watcher,
      watcher.onDidCreate((u) => this.enqueue(u, 'upsert')),
      watcher.onDidChange((u) => this.enqueue(u, 'upsert')),
      watcher.onDidDelete((u) => this.enqueue(u, 'remove')),
      vscode.workspace.onDidSaveTextDocument((d) => this.onSaved(d)),
      vscode.workspace.onDidCreateFiles((e) => e.files.forEach((u) => this.enqueue(u, 'upsert'))),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((u) => this.enqueue(u, 'remove'))),
      vscode.workspace.onDidRenameFiles((e) => {
        for (const f of e.files) {
          if (f.oldUri.scheme !== 'file' || f.newUri.scheme !== 'file') continue;
          this.queue.rename(f.oldUri.fsPath, f.newUri.fsPath);
        }
      }),
    ];
  }

  /** Drops what waits and sends no more batches (the service goes on answering). */
  shutdown(): void {
    this.queue.dispose();
  }

  dispose(): void {
    this.disposed = true;
    this.queue.dispose();
  }

  /**
   * A document saved in the editor: to the engine at once with the text the editor holds (no
   * debounce, no re-read), ahead of the file events waiting in the queue. The file watcher's later
   * event for the same write is dropped by {@link queueEvent} (see SaveEchoes).
   */
  private onSaved(doc: vscode.TextDocument): void {
    if (this.disposed || doc.uri.scheme !== 'file') return;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    const rel = folder ? path.relative(folder.uri.fsPath, doc.uri.fsPath).split(path.sep).join('/') : '';
    // Outside the folders, an ignore rule file, or nothing is running: the ordinary file event.
    if (!folder || rel === '' || isDefaultExcluded(rel) || this.engine.paused || !this.watching) return this.enqueue(doc.uri, 'upsert');
    const file = doc.uri.fsPath;
    const text = doc.getText();
    this.queue.forget(file); // the watcher saw the write first: the save covers it
    this.savesSent++;
    const job = (async () => {
      if (!(await this.engine.ensureEngine())) return undefined;
      const stats = await this.engine.client.request({ type: 'saveText', path: file, text });
      this.updated(stats);
      return stats.fromDisk || stats.size === undefined || stats.mtimeMs === undefined ? undefined : { size: stats.size, mtimeMs: stats.mtimeMs };
    })();
    this.echoes.saved(file, job);
    this.jobs.track(job).catch((e) => this.engine.onFailure(e));
  }

  /**
   * A file event. VS Code delivers a flood of them (a branch switch, a generator) in one task of
   * its own, calling this once per file: keep it O(1) — the folder lookup and the exclusion
   * test run later, in slices.
   */
  private enqueue(uri: vscode.Uri, op: FileOp): void {
    if (this.disposed || uri.scheme !== 'file') return;
    this.rawEvents.push({ uri, op });
    if (this.resolvingEvents) return;
    this.resolvingEvents = true;
    void this.tasks.run('fileEvents', (s) => this.resolveEvents(s)).finally(() => {
      this.resolvingEvents = false;
      this.jobs.check();
    });
  }

  /** Resolves the raw file events to workspace paths and queues them (in arrival order). */
  private async resolveEvents(s: Slice): Promise<void> {
    let i = 0;
    // The files open with unsaved changes, looked at once per slice (a few documents).
    let dirty: ReadonlySet<string> | undefined;
    while (i < this.rawEvents.length) {
      if (this.disposed) break;
      const { uri, op } = this.rawEvents[i++];
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder) {
        const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
        if (rel !== '' && !(isDefaultExcluded(rel) && rel !== '.git/info/exclude')) this.queueEvent(uri.fsPath, op, (dirty ??= dirtyFiles()));
      }
      if (s.due) {
        await s.yield(); // events that arrive meanwhile are appended: this loop takes them
        dirty = undefined;
      }
    }
    this.rawEvents.length = 0;
  }

  /**
   * Queues a resolved file event, unless it is the watcher's echo of a save already indexed (a
   * stat tells, off this thread). A change of a file the editor holds unsaved is, most of the
   * time, its save under way, whose event (onSaved) can come after the watcher's on a loaded
   * machine: such an event waits until the document is clean (then it is that save's echo) or
   * {@link UNSAVED_WAIT_MAX_MS} have passed (the file written by something else: a change like any
   * other), so that a save is not read twice, from disk and from the editor.
   */
  private queueEvent(file: string, op: FileOp, dirty?: ReadonlySet<string>): void {
    if (op === 'upsert' && dirty?.has(file)) {
      this.eventsWhileUnsaved++;
      void this.jobs.track(whileUnsaved(file)).then(() => {
        if (!this.disposed) this.queueEvent(file, op);
      });
      return;
    }
    if (op !== 'upsert' || !this.echoes.has(file)) return this.queue.add(file, op);
    void this.jobs.track(
      this.echoes.isEcho(file).then((echo) => {
        if (!echo && !this.disposed) this.queue.add(file, op);
      }),
    );
  }

  /** One coalesced batch of file events to the engine (the queue sends one at a time). */
  private sendBatch(batch: FileEventBatch): Promise<void> {
    if (this.engine.paused) return Promise.resolve();
    const job = (async () => {
      if (!(await this.engine.ensureEngine())) return;
      const stats = await this.engine.client.request({ type: 'update', ...batch });
      this.updated(stats);
    })();
    return this.jobs.track(job).catch((e) => this.engine.onFailure(e));
  }

  /** The engine's answer to a batch or a save. */
  private updated(stats: UpdateResult): void {
    this.lastUpdateStats = stats;
    if (stats.rewalked) {
      this.host.walked(stats);
      // A folder appeared (or an ignore file changed): files written into a new folder before
      // the watcher watched it send no events, so walk once more when the events settle.
      this.queue.markBurst();
    }
  }
}

/**
 * Activation: builds the services, registers everything in `context.subscriptions` and returns
 * at once; the first index starts after activation returned, in the engine worker.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EngineStats, IndexStats, InitResult, OverviewData, QueryResult, UpdateResult, ViewGroup, ViewReport } from '../node/engine/engineProtocol';
import { registerCompare } from './commands/compare';
import { registerOpenNotebookCell } from './commands/openNotebookCell';
import { FindNearDuplicatesCommand } from './commands/findNearDuplicates';
import { registerCompareCodeActions } from './compareCodeActionProvider';
import { DiagnosticsPublisher } from './diagnosticsPublisher';
import { registerMarksCodeLens } from './editor/codeLens';
import { EditorMarks, textLines, type PaintedLines } from './editor/editorMarks';
import { registerMarksHover } from './editor/hover';
import { OverviewPanel, type OverviewRendered } from './overview/overviewPanel';
import { registerExportReport } from './overview/exportReport';
import { DuplicatesTreeProvider, SHOW_MORE_COMMAND, type DuplicateNode } from './duplicatesTreeProvider';
import { HostTasks, type HostTaskFigures } from './hostTasks';
import { IndexService, type IndexProgress, type IndexState, type ReportTiming } from './indexing/indexService';
import { LiveChecker } from './live/liveChecker';
import { PasteNotices, type PasteNoticeInfo } from './live/pasteNotices';
import { OutputLog } from './outputLog';
import { registerProgressNotification } from './progressNotification';
import { Settings, type FolderConfigState, type NearDupSettings } from './settings';
import { StatusBar } from './statusBar';
import { BaselineFiles, type BaselineSource } from './baseline/baselineFiles';
import { registerAddToBaseline } from './baseline/addToBaseline';

/** What activate() returns: a read API for integration tests and other extensions. */
export interface NearDupApi {
  index: {
    whenIdle(): Promise<void>;
    getReport(): ViewReport | undefined;
    onDidUpdate: vscode.Event<ViewReport>;
    state(): IndexState;
    /** The last full index (walk): files read, cache hits… (`reread` is 0 on a warm start). */
    lastIndexStats(): IndexStats | undefined;
    /** The last batch of file events. */
    lastUpdateStats(): UpdateResult | undefined;
    cacheStatus(): InitResult | undefined;
    /** Where the fingerprint cache is written (null: no workspace storage). */
    cachePath(): string | null;
    /** Stops the engine and starts a new one from the cache (a warm start). */
    restart(): Promise<IndexStats | undefined>;
    query(uri: vscode.Uri, text?: string): Promise<QueryResult>;
    engineStats(): Promise<EngineStats | undefined>;
    /** Walks every folder again (the Refresh command); resolves when that job ended. */
    refresh(): Promise<void>;
    /** Cancels the running index job (what the progress notification's Cancel does). */
    cancel(): Promise<boolean>;
    /** Progress of the running index job (walking, reading, matching). */
    progress(): IndexProgress | undefined;
    /** State or progress changed. */
    onDidChangeState: vscode.Event<void>;
    /** A full index job (first index, Refresh, settings, folders) started; the promise settles when it ends. */
    onDidStartIndexing: vscode.Event<Promise<unknown>>;
    /** Engine worker restarts after crashes so far. */
    engineRestarts(): number;
    /**
     * Fault injection for tests (harmless: the engine is restarted and catches up from its cache):
     * `kill` terminates the engine worker, `exit` / `throw` / `oom` make it die from inside,
     * `pool` terminates one of its fingerprint workers.
     */
    debugKillEngine(how?: 'kill' | 'exit' | 'throw' | 'oom' | 'pool'): Promise<boolean>;
    /** Batches of file events sent to the engine so far (events are coalesced into them). */
    eventBatches(): number;
    /** File events held so far because the editor held their file unsaved (a save under way: see FileEventFeed.queueEvent). */
    eventsWhileUnsaved(): number;
  };
  /** The NearDup output channel: lines written so far, and those after a mark (`level: message`). */
  log: { count(): number; since(mark: number): string[] };
  tree: DuplicatesTreeProvider;
  diagnostics: DiagnosticsPublisher;
  /** The baseline file of each folder the engine reads (`src/extension/baseline`). */
  baseline: { sources(): BaselineSource[] };
  /** Checks while typing (`src/extension/live`): requests sent so far, the unsaved groups, whether one is waiting or in flight. */
  live: { requests(): number; groups(): ViewGroup[]; idle(): boolean; onDidChange: vscode.Event<string[]> };
  /** Pastes recognised as they land (`src/extension/live/pasteNotices.ts`): the notices of a document, pastes sent, answers awaited. */
  paste: { noticesOf(uri: vscode.Uri): PasteNoticeInfo[]; requests(): number; pending(): number; onDidChange: vscode.Event<vscode.Uri> };
  settings: {
    /** The values in force (settings, with the first folder's `.neardup.json` over them). */
    current(): NearDupSettings;
    /** Each folder's `.neardup.json`: in use, absent, or invalid with its problems. */
    projectConfigs(): readonly FolderConfigState[];
    /** A `.neardup.json` was read again. */
    onDidReadProjectConfig: vscode.Event<void>;
  };
  /** The marks in the editor (`src/extension/editor`). */
  editor: {
    /** The lines drawn in the visible editors of a document (1-based, inclusive) by closeness; undefined when no visible editor shows it. */
    decorationsFor(uri: vscode.Uri): PaintedLines | undefined;
    /** The marks of an open document now (1-based, inclusive lines; a file mark spans the whole file): kind, closest distance, twins. */
    marksFor(uri: vscode.Uri): Array<{ kind: 'file' | 'section'; startLine: number; endLine: number; distance: number; twins: number }>;
    /** The marks of a document (undefined: of several) were moved, replaced or switched off. */
    onDidChange: vscode.Event<vscode.Uri | undefined>;
  };
  /** The Overview panel (`neardup.showOverview`). */
  overview: {
    show(): Promise<void>;
    /** Whether it is open, the data last sent to it, what its page last drew. */
    state(): { open: boolean; data: OverviewData | undefined; rendered: OverviewRendered | undefined };
    onDidRender: vscode.Event<OverviewRendered>;
  };
  /** The status bar item's text and tooltip. */
  status(): { text: string; tooltip: string };
  timings: {
    activateMs: number;
    /** The index's state when activate() returned ('starting': its first index is left to run after it). */
    stateAtActivation: IndexState;
    /** The extension host's memory when activate() ran (before the first index). */
    memoryAtActivation: NodeJS.MemoryUsage;
    firstIndexMs(): number | undefined;
    /** Of the last report: engine → host hand-over and the time the views took to apply it. */
    lastReport(): ReportTiming | undefined;
    /**
     * Durations of NearDup's own tasks on the extension host's thread since activation (or the
     * last reset): slices of report application, diagnostics, tree building and file-event
     * resolution, engine messages, file-event flushes — overall and per kind.
     */
    hostTasks(): HostTaskFigures;
    resetHostTasks(): void;
  };
  /** The extension host process's memory. */
  memoryUsage(): NodeJS.MemoryUsage;
}

let service: IndexService | undefined;

export function activate(context: vscode.ExtensionContext): NearDupApi {
  const started = performance.now();
  const memoryAtActivation = process.memoryUsage();
  const log = new OutputLog();
  const settings = new Settings(log);
  const cachePath = context.storageUri ? path.join(context.storageUri.fsPath, 'fingerprints.bin') : null;
  const tasks = new HostTasks();
  const stopObservingCollector = tasks.observeCollector();
  const index = new IndexService(path.join(context.extensionPath, 'dist', 'engineWorker.js'), cachePath, settings, log, tasks);
  service = index;
  const live = new LiveChecker(index, settings);
  const tree = new DuplicatesTreeProvider(index, context.workspaceState, tasks, live, () => settings.current.baselineShow);
  const baselines = new BaselineFiles(index, () => settings.projectConfigs, settings.onDidReadProjectConfig);
  const view = vscode.window.createTreeView<DuplicateNode>('neardup.duplicates', { treeDataProvider: tree, showCollapseAll: true });
  tree.attach(view);
  const diagnostics = new DiagnosticsPublisher(index, settings, tasks, live);
  const find = new FindNearDuplicatesCommand(index, tree);
  const marks = new EditorMarks(index, settings, tasks, live);
  const paste = new PasteNotices(index, settings);
  const statusBar = new StatusBar(index, marks, live);
  const overview = new OverviewPanel(index, context.extensionUri);

  context.subscriptions.push(
    { dispose: stopObservingCollector },
    log,
    settings,
    index,
    live,
    tree,
    view,
    diagnostics,
    statusBar,
    marks,
    paste,
    overview,
    registerExportReport(index),
    registerMarksHover(marks, tasks),
    registerMarksCodeLens(marks, settings),
    registerProgressNotification(index),
    registerCompare(),
    registerOpenNotebookCell(),
    registerCompareCodeActions(),
    baselines,
    registerAddToBaseline(index, settings, baselines),
    settings.onDidChange((e) => e.change.severity && tree.rebuild()),
    find.register(),
    vscode.commands.registerCommand('neardup.refresh', () => index.refresh()),
    vscode.commands.registerCommand('neardup.viewMode.files', () => tree.setMode('files')),
    vscode.commands.registerCommand('neardup.viewMode.sections', () => tree.setMode('sections')),
    vscode.commands.registerCommand('neardup.viewMode.both', () => tree.setMode('both')),
    vscode.commands.registerCommand('neardup.showLog', () => log.show()),
    vscode.commands.registerCommand(SHOW_MORE_COMMAND, (kind: unknown, groupKey: unknown) =>
      tree.showMore(kind === 'section' ? 'section' : 'file', typeof groupKey === 'string' ? groupKey : undefined),
    ),
  );

  // The first index runs after activation has returned.
  const timer = setImmediate(() => index.start());
  context.subscriptions.push({ dispose: () => clearImmediate(timer) });

  const activateMs = performance.now() - started;
  const stateAtActivation = index.state;
  log.info(`activated in ${activateMs.toFixed(1)} ms`);
  // A virtual folder (GitHub Repositories, a remote file system without a VS Code server): its
  // files are not on this machine's disk, which the desktop engine reads. Said once, in the log.
  const virtual = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme !== 'file').map((f) => f.uri.scheme);
  if (virtual.length) log.info(`folders of a virtual file system (${[...new Set(virtual)].join(', ')}) are not indexed here: the desktop engine reads files from disk; VS Code for the Web indexes them`);
  return {
    index: {
      whenIdle: () => index.whenIdle(),
      getReport: () => index.report,
      onDidUpdate: index.onDidUpdate,
      state: () => index.state,
      lastIndexStats: () => index.lastIndexStats,
      lastUpdateStats: () => index.lastUpdateStats,
      cacheStatus: () => index.cacheStatus,
      cachePath: () => cachePath,
      restart: () => index.restart(),
      query: (uri, text) => index.query(uri, text),
      engineStats: () => index.engineStats(),
      refresh: () => index.refresh(),
      cancel: () => index.cancelIndexing(),
      progress: () => index.progress,
      onDidChangeState: index.onDidChangeState,
      onDidStartIndexing: index.onDidStartIndexing,
      engineRestarts: () => index.engineRestarts,
      debugKillEngine: (how = 'kill') => index.debugCrash(how),
      eventBatches: () => index.eventBatches,
      eventsWhileUnsaved: () => index.eventsWhileUnsaved,
    },
    log: { count: () => log.count, since: (mark) => log.since(mark) },
    tree,
    diagnostics,
    baseline: { sources: () => baselines.sources() },
    live: { requests: () => live.requests, groups: () => live.groups(), idle: () => live.idle, onDidChange: live.onDidChange },
    paste: { noticesOf: (uri) => paste.noticesOf(uri), requests: () => paste.requests, pending: () => paste.pending, onDidChange: paste.onDidChange },
    settings: { current: () => settings.current, projectConfigs: () => settings.projectConfigs, onDidReadProjectConfig: settings.onDidReadProjectConfig },
    editor: {
      decorationsFor: (uri) => marks.decorationsFor(uri),
      onDidChange: marks.onDidChange,
      marksFor: (uri) => {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
        if (!doc) return [];
        return marks.marksOf(doc).map((m) => ({
          kind: m.kind,
          startLine: Math.max(0, m.start) + 1,
          endLine: Math.min(textLines(doc) - 1, m.end) + 1,
          distance: m.distance,
          twins: m.item.twins.length + m.item.moreTwins,
        }));
      },
    },
    overview: { show: () => overview.show(), state: () => overview.state, onDidRender: overview.onDidRender },
    status: () => ({ text: statusBar.item.text, tooltip: String(statusBar.item.tooltip ?? '') }),
    timings: {
      activateMs,
      stateAtActivation,
      memoryAtActivation,
      firstIndexMs: () => index.firstIndexMs,
      lastReport: () => index.lastReportTiming,
      hostTasks: () => tasks.figures(),
      resetHostTasks: () => tasks.reset(),
    },
    memoryUsage: () => process.memoryUsage(),
  };
}

/** Saves the fingerprint cache and stops the engine. */
export async function deactivate(): Promise<void> {
  const s = service;
  service = undefined;
  if (s) await s.shutdown();
}

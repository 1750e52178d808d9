/**
 * The index of VS Code for the Web, host side: finds the workspace's files with
 * vscode.workspace.findFiles (neardup.include / exclude, files.exclude and the default excluded
 * folders), reads them through vscode.workspace.fs (any file system: virtual workspaces too),
 * hands their bytes to the engine worker in batches, and keeps it in step with file events
 * (coalesced for 300 ms). The worker holds the index in memory; each change ends with a report.
 */
import * as vscode from 'vscode';
import { enabledGlobs, type NearDupSettings } from '../../node/settings/settingsSchema';
import { DEFAULT_EXCLUDED_NAMES, type EngineSettings } from '../../node/settings/engineSettings';
import type { WebFile, WebReport } from '../../web/webProtocol';
import type { WebEngineClient } from './webEngineClient';

/** A batch is sent once it holds this many files or bytes. */
const BATCH_FILES = 64;
const BATCH_BYTES = 1024 * 1024;
/** Quiet time before file events are read and sent. */
const SETTLE_MS = 300;

export class WebIndex implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly changed = new Set<string>();
  private readonly removed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** One pass (index or update) at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: WebEngineClient,
    private readonly settings: () => { values: NearDupSettings; engine: EngineSettings },
    private readonly log: (message: string) => void,
    private readonly onReport: (report: WebReport) => void,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher('**/*');
    this.disposables.push(
      watcher,
      watcher.onDidCreate((u) => this.note(u, false)),
      watcher.onDidChange((u) => this.note(u, false)),
      watcher.onDidDelete((u) => this.note(u, true)),
      vscode.workspace.onDidSaveTextDocument((d) => this.note(d.uri, false)),
    );
  }

  /** The path the engine knows a file by: relative to its folder, under the folder's name with several roots. */
  relPath(uri: vscode.Uri): string | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const rel = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
    if (rel === '') return undefined;
    return (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
  }

  /** The file of an engine path. */
  uriOf(relPath: string): vscode.Uri | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 1) return vscode.Uri.joinPath(folders[0].uri, relPath);
    const slash = relPath.indexOf('/');
    const folder = folders.find((f) => f.name === relPath.slice(0, slash));
    return folder ? vscode.Uri.joinPath(folder.uri, relPath.slice(slash + 1)) : undefined;
  }

  /** Every file again (the first index, Refresh, new settings). */
  reindex(): Promise<void> {
    return this.enqueue(() => this.runIndex());
  }

  private enqueue(pass: () => Promise<void>): Promise<void> {
    const run = this.queue.then(pass);
    this.queue = run.catch((e: unknown) => this.log(`NearDup: indexing failed (${e instanceof Error ? e.message : String(e)})`));
    return run;
  }

  private async runIndex(): Promise<void> {
    const { values, engine } = this.settings();
    await this.client.request({ type: 'settings', settings: engine });
    const uris = await this.findFiles(values);
    for (let i = 0; i < uris.length; ) {
      const batch: WebFile[] = [];
      let bytes = 0;
      while (i < uris.length && batch.length < BATCH_FILES && bytes < BATCH_BYTES) {
        const file = await this.read(uris[i++], engine.maxFileSizeBytes);
        if (file) {
          batch.push(file);
          bytes += file.bytes.length;
        }
      }
      await this.send(batch, []);
    }
    this.onReport(await this.client.request({ type: 'report' }));
  }

  private async findFiles(values: NearDupSettings): Promise<vscode.Uri[]> {
    const include = values.include.length === 0 ? '**/*' : values.include.length === 1 ? values.include[0] : `{${values.include.join(',')}}`;
    const exclude = [...DEFAULT_EXCLUDED_NAMES.map((n) => `**/${n}/**`), ...values.exclude, ...enabledGlobs(vscode.workspace.getConfiguration('files').get('exclude'))];
    const found: vscode.Uri[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      found.push(...(await vscode.workspace.findFiles(new vscode.RelativePattern(folder, include), `{${exclude.join(',')}}`)));
    }
    return found.sort((a, b) => (a.toString() < b.toString() ? -1 : 1));
  }

  /** A file's bytes, or undefined (logged) when it is too large or cannot be read. */
  private async read(uri: vscode.Uri, maxBytes: number): Promise<WebFile | undefined> {
    const relPath = this.relPath(uri);
    if (!relPath) return undefined;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) return undefined;
      if (stat.size > maxBytes) {
        this.log(`NearDup: skipped ${JSON.stringify(relPath)}: larger than ${Math.round(maxBytes / 1024)} KB`);
        return undefined;
      }
      return { relPath, bytes: await vscode.workspace.fs.readFile(uri) };
    } catch (e) {
      this.log(`NearDup: skipped ${JSON.stringify(relPath)}: cannot be read (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
  }

  private async send(files: WebFile[], removes: string[]): Promise<void> {
    if (files.length === 0 && removes.length === 0) return;
    // A file's buffer moves to the worker when the file owns it whole (a view into a buffer that
    // other data shares is copied instead: moving it would empty the others).
    const transfer = new Set<ArrayBufferLike>();
    for (const f of files) if (f.bytes.byteOffset === 0 && f.bytes.byteLength === f.bytes.buffer.byteLength) transfer.add(f.bytes.buffer);
    const result = await this.client.request({ type: 'update', files, removes }, [...transfer]);
    for (const s of result.skipped) this.log(`NearDup: skipped ${JSON.stringify(s.relPath)}: ${s.reason}`);
  }

  private note(uri: vscode.Uri, deleted: boolean): void {
    const relPath = this.relPath(uri);
    if (!relPath || relPath.split('/').some((seg) => DEFAULT_EXCLUDED_NAMES.includes(seg))) return;
    (deleted ? this.removed : this.changed).add(relPath);
    if (deleted) this.changed.delete(relPath);
    else this.removed.delete(relPath);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.enqueue(() => this.runUpdate()), SETTLE_MS);
  }

  private async runUpdate(): Promise<void> {
    const { values, engine } = this.settings();
    const wanted = new Set((await this.findFiles(values)).map((u) => this.relPath(u)));
    const changed = [...this.changed];
    const removes = [...this.removed];
    this.changed.clear();
    this.removed.clear();
    const files: WebFile[] = [];
    for (const relPath of changed) {
      const uri = this.uriOf(relPath);
      const file = uri && wanted.has(relPath) ? await this.read(uri, engine.maxFileSizeBytes) : undefined;
      if (file) files.push(file);
      else removes.push(relPath);
    }
    await this.send(files, removes);
    this.onReport(await this.client.request({ type: 'report' }));
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

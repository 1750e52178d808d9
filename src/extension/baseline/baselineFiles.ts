/**
 * The baseline files of the workspace folders: the one each folder's `.neardup.json` names
 * (`baseline`), told to the engine (`setBaselines`) at start, whenever a `.neardup.json` is read
 * again, and whenever one of the files changes on disk (a watcher per file), so that baseline
 * pairs are hidden or dimmed live. A file *Add to baseline* has just written for a folder whose
 * config did not name one yet counts too until the config, re-read, names it. Reads nothing itself.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { IndexService } from '../indexing/indexService';
import type { FolderConfigState } from '../settings';

/** The file *Add to baseline* creates in a folder whose `.neardup.json` names none. */
export const DEFAULT_BASELINE_FILE = '.neardup-baseline.json';

export interface BaselineSource {
  root: string;
  file: string;
}

export class BaselineFiles implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private watched = '';
  /** Files written by *Add to baseline* before the folder's config names them, by folder. */
  private readonly written = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly index: Pick<IndexService, 'setBaselines'>,
    private readonly configs: () => readonly FolderConfigState[],
    onDidReadProjectConfig: vscode.Event<void>,
  ) {
    this.disposables.push(onDidReadProjectConfig(() => void this.refresh()));
    void this.refresh();
  }

  /** Each folder's baseline file: its config's, else one *Add to baseline* wrote. */
  sources(): BaselineSource[] {
    const out: BaselineSource[] = [];
    for (const c of this.configs()) {
      const file = c.config?.baseline ?? this.written.get(c.folder);
      if (c.config?.baseline) this.written.delete(c.folder);
      if (file) out.push({ root: c.folder, file });
    }
    return out;
  }

  /** The baseline file of a folder: the config's, or where *Add to baseline* puts a new one. */
  fileOf(folder: string): { file: string; named: boolean } {
    const named = this.configs().find((c) => c.folder === folder)?.config?.baseline ?? this.written.get(folder);
    return named ? { file: named, named: true } : { file: path.join(folder, DEFAULT_BASELINE_FILE), named: false };
  }

  /** *Add to baseline* wrote this folder's file: use it now. */
  wrote(folder: string, file: string): Promise<void> {
    this.written.set(folder, file);
    return this.refresh(true);
  }

  /**
   * Tells the engine the files when they changed (`reread`: a file changed on disk, it reads them
   * again) and watches them.
   */
  refresh(reread = false): Promise<void> {
    const sources = this.sources();
    const key = JSON.stringify(sources);
    const changed = key !== this.watched;
    if (changed) {
      this.watched = key;
      for (const w of this.watchers) w.dispose();
      this.watchers = [];
      for (const s of sources) {
        const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(s.file)), path.basename(s.file)));
        const reread = () => void this.refresh(true);
        this.watchers.push(w, w.onDidCreate(reread), w.onDidChange(reread), w.onDidDelete(reread));
      }
    }
    return changed || reread ? this.index.setBaselines(sources) : Promise.resolve();
  }

  dispose(): void {
    for (const d of [...this.watchers, ...this.disposables]) d.dispose();
  }
}

/**
 * The one place that reads NearDup's settings: the `neardup.*` settings and each workspace
 * folder's `.neardup.json` (read and validated by src/node/settings/projectConfig.ts, watched).
 * A key the project file sets wins over the same setting (the file is the project's truth, as a
 * `.prettierrc` is Prettier's); keys it does not set come from the settings. Engine-wide keys
 * come from the first folder's file; `include` / `exclude` from each folder's own.
 *
 * Setting values are validated (src/node/settings/settingsSchema.ts): an invalid value is
 * replaced by the nearest valid one (or the default), logged, and shown in one warning per change
 * of the settings, never a popup per value or per event. A `.neardup.json` with any problem is
 * not used (the settings and defaults stay in force) and gives one warning naming its file, line
 * and key, with a button that opens it there.
 */
import * as vscode from 'vscode';
import type { EngineConfig, EngineRoot } from '../node/engine/engineProtocol';
import type { EngineSettings } from '../node/settings/engineSettings';
import {
  SETTINGS_SPEC,
  diffSettings,
  enabledGlobs,
  toEngineSettings,
  validateSettings,
  type NearDupSettings,
  type SettingWarning,
  type SettingsChange,
} from '../node/settings/settingsSchema';
import { PROJECT_CONFIG_FILE, problemLocation, readFolderConfig, type ConfigProblem, type ProjectConfig } from '../node/settings/projectConfig';
import type { OutputLog } from './outputLog';

export type { NearDupSettings };

export interface SettingsChangeEvent {
  previous: NearDupSettings;
  current: NearDupSettings;
  change: SettingsChange;
}

function describeWarning(w: SettingWarning): string {
  switch (w.problem) {
    case 'range':
      return vscode.l10n.t('{0} = {1} is out of range; using {2}.', w.setting, w.given, w.used);
    case 'integer':
      return vscode.l10n.t('{0} = {1} is not a whole number; using {2}.', w.setting, w.given, w.used);
    case 'enum':
      return vscode.l10n.t('{0} = {1} is not one of the allowed values; using {2}.', w.setting, w.given, w.used);
    case 'glob':
      return vscode.l10n.t('{0} contains entries that are not globs; using {1}.', w.setting, w.used);
    default:
      return vscode.l10n.t('{0} = {1} has the wrong type; using {2}.', w.setting, w.given, w.used);
  }
}

/** A problem of a `.neardup.json`, localised (the CLI's English twin is describeConfigProblem). */
function describeProblem(p: ConfigProblem): string {
  const key = p.key ?? '';
  switch (p.kind) {
    case 'read':
      return vscode.l10n.t('cannot be read ({0})', p.expected ?? '');
    case 'tooLarge':
      return vscode.l10n.t('is larger than {0}', p.expected ?? '');
    case 'syntax':
      return vscode.l10n.t('is not valid JSON ({0})', p.expected ?? '');
    case 'notObject':
      return vscode.l10n.t('must hold one JSON object, not {0}', p.given ?? '');
    case 'unknownKey':
      return vscode.l10n.t('"{0}" is not a NearDup setting', key);
    case 'duplicateKey':
      return vscode.l10n.t('"{0}" is set twice', key);
    case 'range':
      return vscode.l10n.t('"{0}" is {1}, out of bounds ({2} to {3})', key, p.given ?? '', p.bounds?.[0] ?? '', p.bounds?.[1] ?? '');
    case 'integer':
      return vscode.l10n.t('"{0}" is {1}, not a whole number', key, p.given ?? '');
    case 'enum':
      return vscode.l10n.t('"{0}" is {1}, not one of {2}', key, p.given ?? '', p.expected ?? '');
    case 'glob':
      return vscode.l10n.t('"{0}" holds {1}, which is not a glob', key, p.given ?? '');
    default:
      return vscode.l10n.t('"{0}" is {1}, which has the wrong type', key, p.given ?? '');
  }
}

/** What the settings know of one folder's `.neardup.json`. */
export interface FolderConfigState {
  folder: string;
  /** The file in use; undefined when there is none or it is invalid. */
  config?: ProjectConfig;
  /** Its problems when it is invalid (then it is not used). */
  problems: ConfigProblem[];
}

export class Settings implements vscode.Disposable {
  private values: NearDupSettings;
  private shownWarnings = '';
  private readonly emitter = new vscode.EventEmitter<SettingsChangeEvent>();
  readonly onDidChange = this.emitter.event;
  private readonly rootsEmitter = new vscode.EventEmitter<void>();
  /** `files.exclude` or the workspace folders changed: the file list must be rebuilt. */
  readonly onDidChangeRoots = this.rootsEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Each file-scheme workspace folder's `.neardup.json`, in folder order. */
  private folders: FolderConfigState[] = [];
  private shownConfigProblems = '';
  /** The problems last written to the log: a file read twice for one write (its create and change events) is logged once. */
  private loggedConfigProblems = '';
  private watchers: vscode.Disposable[] = [];
  private readonly configEmitter = new vscode.EventEmitter<void>();
  /** A `.neardup.json` was read again (created, changed, deleted, or its folder came or went). */
  readonly onDidReadProjectConfig = this.configEmitter.event;

  constructor(private readonly log: OutputLog) {
    this.folders = this.readProjectConfigs();
    this.values = this.read();
    this.watchProjectConfigs();
    this.disposables.push(
      this.emitter,
      this.rootsEmitter,
      this.configEmitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude')) this.rootsEmitter.fire();
        if (!e.affectsConfiguration('neardup')) return;
        this.update();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchProjectConfigs();
        this.folders = this.readProjectConfigs();
        this.update();
        this.rootsEmitter.fire();
      }),
    );
  }

  /** Reads the values again; fires onDidChange when one that matters changed. */
  private update(): void {
    const previous = this.values;
    this.values = this.read();
    const change = diffSettings(previous, this.values);
    if (change.reindex || change.thresholds || change.severity || change.editor || change.live) this.emitter.fire({ previous, current: this.values, change });
  }

  /** The `.neardup.json` of each folder changed on disk: read them again and apply what changed. */
  private reloadProjectConfigs(): void {
    const rootsBefore = JSON.stringify(this.roots());
    this.folders = this.readProjectConfigs();
    this.update();
    if (JSON.stringify(this.roots()) !== rootsBefore) this.rootsEmitter.fire();
    this.configEmitter.fire();
  }

  private watchProjectConfigs(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = [];
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      if (f.uri.scheme !== 'file') continue;
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, PROJECT_CONFIG_FILE));
      const reload = () => this.reloadProjectConfigs();
      this.watchers.push(w, w.onDidCreate(reload), w.onDidChange(reload), w.onDidDelete(reload));
    }
  }

  private fileFolders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  }

  /** Reads every folder's `.neardup.json`; an invalid one is logged and shown once (per content of its problems). */
  private readProjectConfigs(): FolderConfigState[] {
    const states: FolderConfigState[] = [];
    const messages: Array<{ text: string; problem: ConfigProblem }> = [];
    const problemLines: string[] = [];
    for (const f of this.fileFolders()) {
      const r = readFolderConfig(f.uri.fsPath);
      if (r.status === 'ok') {
        states.push({ folder: f.uri.fsPath, config: r.config, problems: [] });
        this.log.info(`using ${r.config.file}`);
      } else if (r.status === 'invalid') {
        states.push({ folder: f.uri.fsPath, problems: r.problems });
        for (const p of r.problems) problemLines.push(`${problemLocation(p)}: ${describeProblem(p)}`);
        const first = r.problems[0];
        const more = r.problems.length - 1;
        const text =
          more > 0
            ? vscode.l10n.t('NearDup: {0} {1} (and {2} more problems). Its settings are not used until it is fixed.', problemLocation(first), describeProblem(first), more)
            : vscode.l10n.t('NearDup: {0} {1}. Its settings are not used until it is fixed.', problemLocation(first), describeProblem(first));
        messages.push({ text, problem: first });
      } else {
        states.push({ folder: f.uri.fsPath, problems: [] });
      }
    }
    const logged = problemLines.join('\n');
    if (logged !== this.loggedConfigProblems) {
      this.loggedConfigProblems = logged;
      for (const line of problemLines) this.log.warn(line);
    }
    const key = messages.map((m) => m.text).join('\n');
    if (key !== this.shownConfigProblems) {
      this.shownConfigProblems = key;
      for (const m of messages) {
        const open = vscode.l10n.t('Open File');
        const show = vscode.l10n.t('Show Log');
        void vscode.window.showWarningMessage(m.text, open, show).then((choice) => {
          if (choice === show) this.log.show();
          if (choice !== open) return;
          const line = Math.max(0, m.problem.line - 1);
          const col = Math.max(0, m.problem.column - 1);
          void vscode.window.showTextDocument(vscode.Uri.file(m.problem.file), { selection: new vscode.Range(line, col, line, col) });
        });
      }
    }
    return states;
  }

  /** Each folder's `.neardup.json`: in use, absent, or invalid with its problems. */
  get projectConfigs(): readonly FolderConfigState[] {
    return this.folders;
  }

  /** The project configuration whose engine-wide keys apply: the first folder's, when valid. */
  private get primaryConfig(): ProjectConfig | undefined {
    return this.folders[0]?.config;
  }

  get current(): NearDupSettings {
    return this.values;
  }

  get engineSettings(): EngineSettings {
    return toEngineSettings(this.values);
  }

  /** The workspace folders on disk, each with its `files.exclude` globs and its `.neardup.json`'s include / exclude. */
  roots(): EngineRoot[] {
    return this.fileFolders().map((f) => {
      const own = this.folders.find((s) => s.folder === f.uri.fsPath)?.config?.settings;
      const root: EngineRoot = { path: f.uri.fsPath, exclude: enabledGlobs(vscode.workspace.getConfiguration('files', f.uri).get('exclude')) };
      if (own?.include || own?.exclude) root.project = { include: own.include, exclude: own.exclude };
      return root;
    });
  }

  engineConfig(): EngineConfig {
    return { settings: this.engineSettings, include: this.values.include, exclude: this.values.exclude, roots: this.roots(), locate: this.values.locate };
  }

  private read(): NearDupSettings {
    const config = vscode.workspace.getConfiguration('neardup');
    // The project file's keys first (validated already), the settings for the rest.
    const project = new Map<string, unknown>();
    const own = this.primaryConfig?.settings;
    if (own) for (const [field, value] of Object.entries(own)) project.set(SETTINGS_SPEC[field as keyof NearDupSettings].key, value);
    let result: ReturnType<typeof validateSettings>;
    try {
      result = validateSettings((key) => (project.has(key) ? project.get(key) : config.get(key)));
    } catch (e) {
      this.log.error(`cannot read the settings: ${(e as Error).message}`);
      result = validateSettings(() => undefined);
    }
    const messages = result.warnings.map(describeWarning);
    for (const m of messages) this.log.warn(m);
    const key = messages.join('\n');
    if (key !== this.shownWarnings) {
      this.shownWarnings = key;
      if (messages.length > 0) {
        const show = vscode.l10n.t('Show Log');
        void vscode.window
          .showWarningMessage(vscode.l10n.t('NearDup: invalid settings were corrected. {0}', messages.join(' ')), show)
          .then((choice) => choice === show && this.log.show());
      }
    }
    return result.values;
  }

  dispose(): void {
    for (const d of [...this.watchers, ...this.disposables]) d.dispose();
  }
}

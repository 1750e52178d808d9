/**
 * The one place that reads NearDup's settings. Values are validated (src/node/settings/settingsSchema.ts):
 * an invalid value is replaced by the nearest valid one (or the default), logged, and shown in
 * one warning per change of the settings, never a popup per value or per event.
 */
import * as vscode from 'vscode';
import type { EngineConfig, EngineRoot } from '../node/engine/engineProtocol';
import type { EngineSettings } from '../node/settings/engineSettings';
import {
  diffSettings,
  enabledGlobs,
  toEngineSettings,
  validateSettings,
  type NearDupSettings,
  type SettingWarning,
  type SettingsChange,
} from '../node/settings/settingsSchema';
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

export class Settings implements vscode.Disposable {
  private values: NearDupSettings;
  private shownWarnings = '';
  private readonly emitter = new vscode.EventEmitter<SettingsChangeEvent>();
  readonly onDidChange = this.emitter.event;
  private readonly rootsEmitter = new vscode.EventEmitter<void>();
  /** `files.exclude` or the workspace folders changed: the file list must be rebuilt. */
  readonly onDidChangeRoots = this.rootsEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly log: OutputLog) {
    this.values = this.read();
    this.disposables.push(
      this.emitter,
      this.rootsEmitter,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude')) this.rootsEmitter.fire();
        if (!e.affectsConfiguration('neardup')) return;
        const previous = this.values;
        this.values = this.read();
        const change = diffSettings(previous, this.values);
        if (change.reindex || change.thresholds || change.severity || change.editor) this.emitter.fire({ previous, current: this.values, change });
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rootsEmitter.fire()),
    );
  }

  get current(): NearDupSettings {
    return this.values;
  }

  get engineSettings(): EngineSettings {
    return toEngineSettings(this.values);
  }

  /** The workspace folders on disk, each with its `files.exclude` globs. */
  roots(): EngineRoot[] {
    return (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === 'file')
      .map((f) => ({
        path: f.uri.fsPath,
        exclude: enabledGlobs(vscode.workspace.getConfiguration('files', f.uri).get('exclude')),
      }));
  }

  engineConfig(): EngineConfig {
    return { settings: this.engineSettings, include: this.values.include, exclude: this.values.exclude, roots: this.roots() };
  }

  private read(): NearDupSettings {
    const config = vscode.workspace.getConfiguration('neardup');
    let result: ReturnType<typeof validateSettings>;
    try {
      result = validateSettings((key) => config.get(key));
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
    for (const d of this.disposables) d.dispose();
  }
}

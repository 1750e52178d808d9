/**
 * The extension in VS Code for the Web (package.json "browser", dist/web/extension.js): the engine
 * in a Web Worker (src/web) with the WebAssembly kernel and jieba-wasm, the workspace read through
 * vscode.workspace.fs (WebIndex), the index in memory, the report shown as diagnostics and in the
 * NearDup view. What needs Node — the CLI, the Overview panel and its export, compare, the
 * quick fixes, git and .gitignore, the native kernel, the fingerprint cache — is not here: the
 * log says so once at start, and a command that is not available says so once (a message, not an
 * error). Wherever a Node extension host exists (desktop, code-server), VS Code runs "main" instead.
 */
import * as vscode from 'vscode';
import { toEngineSettings, validateSettings } from '../../node/settings/settingsSchema';
import type { WebReport } from '../../web/webProtocol';
import { OutputLog } from '../outputLog';
import { WebEngineClient } from './webEngineClient';
import { WebIndex } from './webIndex';
import { publishDiagnostics, WebDuplicatesTree } from './webResults';

/** Contributed commands that need the Node extension host. */
const DESKTOP_ONLY_COMMANDS = [
  'neardup.showOverview',
  'neardup.exportReport',
  'neardup.compare',
  'neardup.viewMode.files',
  'neardup.viewMode.sections',
  'neardup.viewMode.both',
  'neardup.showMoreGroups',
  'neardup.openNotebookCell',
  'neardup.openTwin',
  'neardup.ignoreDuplicate',
];

function readSettings(log: OutputLog) {
  const config = vscode.workspace.getConfiguration('neardup');
  const { values, warnings } = validateSettings((key) => config.get(key));
  for (const w of warnings) log.warn(`setting ${w.setting}: ${w.given} is not valid (${w.problem}); using ${w.used}`);
  return { values, engine: toEngineSettings(values) };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = new OutputLog();
  context.subscriptions.push(log);
  log.info(
    'NearDup for the web: the engine runs in a Web Worker (WebAssembly kernel, jieba-wasm) and keeps its index in memory. ' +
      'The Overview panel, Export Report, Compare, the quick fixes, .gitignore rules, the CLI and the native kernel need the desktop (or a VS Code server).',
  );
  let settings = readSettings(log);
  const state = (s: string) => void vscode.commands.executeCommand('setContext', 'neardup.state', s);
  state('indexing');

  const collection = vscode.languages.createDiagnosticCollection('neardup');
  let client: WebEngineClient;
  try {
    client = new WebEngineClient(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'engineWorker.js').toString(true), (m) => log.info(m));
  } catch (e) {
    // A host that cannot start workers (an extension served by a VS Code server, where "main" runs anyway).
    log.error(`the engine worker could not start (${e instanceof Error ? e.message : String(e)}); NearDup shows nothing here`);
    state('error');
    return;
  }
  let index: WebIndex | undefined;
  const uriOf = (relPath: string) => index?.uriOf(relPath);
  const tree = new WebDuplicatesTree(uriOf);
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 0);
  status.command = 'neardup.showLog';
  context.subscriptions.push(collection, { dispose: () => client.dispose() }, status, vscode.window.registerTreeDataProvider('neardup.duplicates', tree));

  const show = (report: WebReport) => {
    publishDiagnostics(collection, report, settings.values.severity, uriOf);
    tree.show(report);
    state(report.groups.length ? 'ready' : 'empty');
    status.text = `$(copy) ${report.pairs.length}`;
    status.tooltip = vscode.l10n.t('NearDup: {0} near-duplicate pairs in {1} files', report.pairs.length, report.files);
    status.show();
  };

  // jieba-wasm's module (~4 MB) is read from the extension's files; without it, character bigrams.
  let jieba: ArrayBuffer | undefined;
  if (settings.engine.cjkSegmenter === 'jieba') {
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'jieba_rs_wasm_bg.wasm'));
      jieba = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    } catch (e) {
      log.warn(`jieba-wasm could not be read (${e instanceof Error ? e.message : String(e)}); Chinese is cut into character bigrams`);
    }
  }
  try {
    const info = await client.request({ type: 'init', jieba, settings: settings.engine }, jieba ? [jieba] : []);
    log.info(`engine: kernel ${info.kernel}, Chinese segmenter ${info.segmenter}`);
    for (const p of info.problems) log.warn(p);
  } catch (e) {
    log.error(`the engine could not start (${e instanceof Error ? e.message : String(e)})`);
    state('error');
    return;
  }

  index = new WebIndex(client, () => settings, (m) => log.info(m), show);
  context.subscriptions.push(index);
  const reindex = () => {
    state('indexing');
    return index!.reindex().catch(() => state('error'));
  };

  let told = false;
  const notHere = () => {
    if (told) return;
    told = true;
    void vscode.window.showInformationMessage(vscode.l10n.t('NearDup: this command needs the desktop VS Code (or a VS Code server); in the browser NearDup shows diagnostics and the NearDup view.'));
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('neardup.refresh', reindex),
    vscode.commands.registerCommand('neardup.showLog', () => log.show()),
    vscode.commands.registerCommand('neardup.findNearDuplicates', () => vscode.commands.executeCommand('workbench.view.extension.neardup')),
    ...DESKTOP_ONLY_COMMANDS.map((id) => vscode.commands.registerCommand(id, notHere)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('neardup') && !e.affectsConfiguration('files.exclude')) return;
      settings = readSettings(log);
      void reindex();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void reindex()),
  );
  void reindex();
}

export function deactivate(): void {
  // Everything is in the context's subscriptions.
}

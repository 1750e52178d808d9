/**
 * `neardup.showOverview`: the Overview, a webview panel drawing the workspace (treemap of folders
 * and files by lines and share in near duplicates, histogram of pair distances with the
 * thresholds, largest groups). The data comes from the engine on request (`overview`), again
 * after each report while the panel is open (at most every {@link REFRESH_MS}); the drawing is the
 * webview's (dist/overview.js, src/webview). Strict Content-Security-Policy: the bundled script
 * by nonce, styles inline by nonce, nothing remote. Opening a file or a group member from it opens
 * the editor there.
 */
import * as vscode from 'vscode';
import type { OverviewData } from '../../node/engine/engineProtocol';
import type { IndexService } from '../indexing/indexService';

export const SHOW_OVERVIEW_COMMAND = 'neardup.showOverview';
/** Reports while the panel is open update it at most this often. */
const REFRESH_MS = 500;

/** What the webview says it drew. */
export interface OverviewRendered {
  /** Rectangles of the treemap, bars of the histogram, groups listed. */
  nodes: number;
  bars: number;
  groups: number;
  /** The folder shown (absolute path; '' above several roots). */
  folder: string;
}

function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars[Math.floor(Math.random() * chars.length)];
  return s;
}

function strings() {
  return {
    treemap: vscode.l10n.t('Where the near duplicates are (area: lines; colour: share in near duplicates)'),
    histogram: vscode.l10n.t('Pairs by distance'),
    groups: vscode.l10n.t('Largest groups'),
    files: vscode.l10n.t('files'),
    sections: vscode.l10n.t('sections'),
    distance: vscode.l10n.t('distance'),
    similarity: vscode.l10n.t('similarity'),
    noPairs: vscode.l10n.t('No near duplicates.'),
    foldersOnly: vscode.l10n.t('{0} files: folders only.'),
    node: vscode.l10n.t('{0}: {1} of {2} lines in near duplicates ({3})'),
    group: vscode.l10n.t('{0} copies, {1} lines, distance up to {2}'),
    up: vscode.l10n.t('Up'),
    threshold: vscode.l10n.t('limit for {0}: {1}'),
  };
}

export class OverviewPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private data: OverviewData | undefined;
  private drawn: OverviewRendered | undefined;
  private readonly renderedEmitter = new vscode.EventEmitter<OverviewRendered>();
  /** The webview drew the data (after each update). */
  readonly onDidRender = this.renderedEmitter.event;

  constructor(
    private readonly index: IndexService,
    private readonly extensionUri: vscode.Uri,
  ) {
    this.disposables.push(
      this.renderedEmitter,
      vscode.commands.registerCommand(SHOW_OVERVIEW_COMMAND, () => this.show()),
      index.onDidUpdate(() => this.scheduleRefresh()),
    );
  }

  /** The data last sent to the webview, and what it drew (test API). */
  get state(): { open: boolean; data: OverviewData | undefined; rendered: OverviewRendered | undefined } {
    return { open: !!this.panel, data: this.data, rendered: this.drawn };
  }

  async show(): Promise<void> {
    if (this.panel) {
      this.panel.reveal();
      return;
    }
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const panel = vscode.window.createWebviewPanel('neardup.overview', vscode.l10n.t('NearDup Overview'), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [dist],
      retainContextWhenHidden: false,
    });
    this.panel = panel;
    this.drawn = undefined;
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'neardup.svg');
    panel.webview.html = this.html(panel.webview, vscode.Uri.joinPath(dist, 'overview.js'));
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m));
  }

  private scheduleRefresh(): void {
    if (!this.panel || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, REFRESH_MS);
  }

  private async refresh(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    try {
      this.data = await this.index.overview();
    } catch {
      return; // the engine is restarting: the next report brings it again
    }
    if (this.panel === panel && this.data) void panel.webview.postMessage({ type: 'data', data: this.data, strings: strings() });
  }

  private async onMessage(m: unknown): Promise<void> {
    const msg = m as { type?: string; path?: unknown; startLine?: unknown; endLine?: unknown } & Partial<OverviewRendered>;
    if (msg?.type === 'ready') await this.refresh();
    else if (msg?.type === 'rendered') {
      this.drawn = { nodes: Number(msg.nodes) || 0, bars: Number(msg.bars) || 0, groups: Number(msg.groups) || 0, folder: String(msg.folder ?? '') };
      this.renderedEmitter.fire(this.drawn);
    } else if (msg?.type === 'open' && typeof msg.path === 'string') {
      // Only files of the data sent (never a path the page made up).
      if (!this.data || !this.knows(msg.path)) return;
      const s = Number.isInteger(msg.startLine) ? (msg.startLine as number) : undefined;
      const e = Number.isInteger(msg.endLine) ? (msg.endLine as number) : s;
      const selection = s !== undefined ? new vscode.Range(s - 1, 0, (e ?? s) - 1, 0) : undefined;
      await vscode.window.showTextDocument(vscode.Uri.file(msg.path), { selection, preview: true, viewColumn: vscode.ViewColumn.Beside });
    }
  }

  private knows(p: string): boolean {
    const d = this.data!;
    if (d.groups.some((g) => g.members.some((m) => m.path === p))) return true;
    const stack = [...d.roots];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (!n.children && n.path === p) return true;
      if (n.children) stack.push(...n.children);
    }
    return false;
  }

  private html(webview: vscode.Webview, script: vscode.Uri): string {
    const n = nonce();
    const csp = `default-src 'none'; img-src ${webview.cspSource} data:; style-src 'nonce-${n}'; script-src 'nonce-${n}';`;
    return `<!DOCTYPE html>
<html lang="${vscode.env.language}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${vscode.l10n.t('NearDup Overview')}</title>
<style nonce="${n}">
  body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); padding: 0 12px 24px; }
  h2 { font-size: 1.1em; margin: 18px 0 6px; font-weight: 600; }
  .crumbs button, button.link { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; padding: 0 2px; font: inherit; }
  .crumbs button:hover, button.link:hover { text-decoration: underline; }
  :focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  #treemap g { cursor: pointer; }
  #treemap rect { stroke: var(--vscode-editor-background); stroke-width: 1; }
  #treemap g:focus rect, #treemap g:hover rect { stroke: var(--vscode-focusBorder); stroke-width: 2; }
  #treemap g:focus { outline: none; }
  #treemap text, .axis { fill: var(--vscode-foreground); font-size: 11px; pointer-events: none; }
  .axis.dim, .note { opacity: 0.7; }
  .bar-file { fill: var(--vscode-charts-blue); background: var(--vscode-charts-blue); }
  .bar-section { fill: var(--vscode-charts-orange); background: var(--vscode-charts-orange); }
  .swatch { display: inline-block; width: 10px; height: 10px; }
  .limit { stroke: var(--vscode-foreground); stroke-dasharray: 4 3; opacity: 0.8; }
  .limit-section { stroke: var(--vscode-charts-orange); }
  #groups li { margin: 4px 0; }
  #groups ul { margin: 2px 0 6px; padding-left: 18px; }
</style>
</head>
<body>
<div id="root" role="main"></div>
<script nonce="${n}" src="${webview.asWebviewUri(script)}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.panel?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

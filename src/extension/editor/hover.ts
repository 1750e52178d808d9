/**
 * The hover on a marked range: its twins (path, line range, Hamming distance, similarity), a
 * compact diff of the closest twin's lines against these (the lines that differ, one line of
 * context) and command links *Compare* and *Open twin* (`neardup.openTwin`, registered here).
 * Answers from the marks the host holds; reads only the twin's text (an open document's, or the
 * file's), never asks the engine.
 */
import * as vscode from 'vscode';
import { COMPARE_COMMAND, type CompareLink } from '../commands/compare';
import { IGNORE_DUPLICATE_COMMAND } from '../commands/ignoreDuplicate';
import { cloneLabel, percent } from '../duplicateLabels';
import type { HostTasks } from '../hostTasks';
import { compactDiff, diffBlock, lineDiff } from './compactDiff';
import { textLines, type EditorMarks } from './editorMarks';
import { spanOf, type Mark } from './marks';
import type { ViewTwin } from '../../node/engine/engineProtocol';

export const OPEN_TWIN_COMMAND = 'neardup.openTwin';
/** Twins named per mark, marks shown per hover. */
const MAX_TWINS = 3;
const MAX_MARKS = 2;
/** A file twin's matching regions (located copies) named under it. */
const MAX_REGIONS = 4;
/** Twins larger than this get no diff (the engine's default size limit). */
const MAX_TWIN_BYTES = 2 * 1024 * 1024;

/** The lines of a twin's range (all its lines for a whole file), or undefined when it cannot be read. */
async function twinLines(twin: ViewTwin): Promise<string[] | undefined> {
  const uri = vscode.Uri.file(twin.path);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  let lines: string[];
  if (open) lines = open.getText().split(/\r?\n/);
  else {
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_TWIN_BYTES) return undefined;
      const text = new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
      lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
    } catch {
      return undefined;
    }
  }
  return twin.startLine === undefined ? lines : lines.slice(twin.startLine - 1, twin.endLine ?? twin.startLine);
}

function where(twin: ViewTwin): string {
  const rel = vscode.workspace.asRelativePath(twin.path);
  return twin.startLine === undefined ? rel : `${rel}:${twin.startLine}-${twin.endLine}`;
}

function commandLink(command: string, args: unknown[]): string {
  return `command:${command}?${encodeURIComponent(JSON.stringify(args))}`;
}

/** A code span holding `s` as is (its fence longer than any run of backticks in it). */
function codeSpan(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return /^`|`$/.test(s) ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`;
}

/** Plain text in markdown: its markdown characters escaped. */
const escapeMd = (s: string): string => s.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);

/** Markdown link text: no brackets or backslashes that would end it early. */
const linkText = (s: string) => s.replace(/[\\[\]]/g, (c) => `\\${c}`);

/**
 * Under a file twin, the regions where the two files match (`neardup.locate`: the file pair's
 * `regions`), each with its lines here and there, how it was copied, and a *Compare* of just
 * those lines.
 */
function regionsOf(md: vscode.MarkdownString, here: vscode.Uri, twinUri: vscode.Uri, twin: ViewTwin): void {
  const regions = twin.regions ?? [];
  for (const r of regions.slice(0, MAX_REGIONS)) {
    const link: CompareLink = {
      leftUri: here.toString(),
      rightUri: twinUri.toString(),
      leftLines: [r.self.startLine, r.self.endLine],
      rightLines: [r.other.startLine, r.other.endLine],
    };
    const text = vscode.l10n.t('lines {0}–{1} here, {2}–{3} there: {4}, {5} similar', r.self.startLine, r.self.endLine, r.other.startLine, r.other.endLine, cloneLabel(r.clone), percent(r.similarity));
    md.appendMarkdown(`  - ${escapeMd(text)} · [${linkText(vscode.l10n.t('Compare'))}](${commandLink(COMPARE_COMMAND, [link])})\n`);
  }
  if (regions.length > MAX_REGIONS) md.appendMarkdown(`  - ${escapeMd(vscode.l10n.t('and {0} more matching regions', regions.length - MAX_REGIONS))}\n`);
}

export class MarksHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly marks: EditorMarks,
    private readonly tasks: HostTasks,
  ) {}

  async provideHover(doc: vscode.TextDocument, pos: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!this.marks.enabled) return undefined;
    const marks = this.marks.marksAt(doc, pos.line).slice(0, MAX_MARKS);
    if (marks.length === 0) return undefined;
    // The twins' texts are read first (asynchronously); the hover is then made in one short piece.
    const texts = await Promise.all(marks.map((m) => (m.item.twins.length > 0 ? twinLines(m.item.twins[0]) : Promise.resolve(undefined))));
    return this.tasks.time('editor.hover', () => {
      const md = new vscode.MarkdownString(undefined, true);
      md.isTrusted = { enabledCommands: [COMPARE_COMMAND, OPEN_TWIN_COMMAND, IGNORE_DUPLICATE_COMMAND] };
      marks.forEach((m, i) => {
        if (i > 0) md.appendMarkdown('\n\n---\n\n');
        this.describe(md, doc, m, texts[i], pos.line);
      });
      const span = spanOf(marks[0], textLines(doc)) ?? { start: pos.line, end: pos.line };
      return new vscode.Hover(md, new vscode.Range(span.start, 0, span.end, doc.lineAt(span.end).text.length));
    });
  }

  private describe(md: vscode.MarkdownString, doc: vscode.TextDocument, mark: Mark, twinText: string[] | undefined, focusLine: number): void {
    const span = spanOf(mark, textLines(doc));
    if (!span) return;
    const count = mark.item.twins.length + mark.item.moreTwins;
    md.appendMarkdown(
      mark.kind === 'file'
        ? `**${vscode.l10n.t('NearDup: this whole file — near-duplicate files: {0}', count)}**\n\n`
        : `**${vscode.l10n.t('NearDup: lines {0}–{1} — near duplicates: {2}', span.start + 1, span.end + 1, count)}**\n\n`,
    );
    const hereLines: [number, number] | undefined = mark.kind === 'file' ? undefined : [span.start + 1, span.end + 1];
    for (const twin of mark.item.twins.slice(0, MAX_TWINS)) {
      const twinUri = vscode.Uri.file(twin.path);
      const link: CompareLink = {
        leftUri: doc.uri.toString(),
        rightUri: twinUri.toString(),
        leftLines: hereLines,
        rightLines: twin.startLine === undefined ? undefined : [twin.startLine, twin.endLine ?? twin.startLine],
      };
      const compare = `[${linkText(vscode.l10n.t('Compare'))}](${commandLink(COMPARE_COMMAND, [link])})`;
      const open = `[${linkText(vscode.l10n.t('Open twin'))}](${commandLink(OPEN_TWIN_COMMAND, [twinUri.toString(), twin.startLine ?? 1, twin.endLine ?? twin.startLine ?? 1])})`;
      md.appendMarkdown(`- ${codeSpan(where(twin))} — ${vscode.l10n.t('distance {0}, {1} similar', twin.distance, percent(twin.similarity))} · ${compare} · ${open}\n`);
      regionsOf(md, doc.uri, twinUri, twin);
    }
    const more = count - Math.min(MAX_TWINS, mark.item.twins.length);
    if (more > 0) md.appendMarkdown(`- ${vscode.l10n.t('and {0} more (the NearDup panel lists them)', more)}\n`);
    // Ignore…: a neardup-ignore marker for these lines (the whole file for a file mark), saved
    // files only (their marks are the saved lines).
    if (!doc.isDirty && doc.uri.scheme === 'file') {
      const args = mark.kind === 'file' ? [doc.uri.toString()] : [doc.uri.toString(), span.start + 1, span.end + 1];
      md.appendMarkdown(`\n[${linkText(vscode.l10n.t('Ignore…'))}](${commandLink(IGNORE_DUPLICATE_COMMAND, args)}) ${escapeMd(vscode.l10n.t('(inserts a neardup-ignore marker)'))}\n`);
    }
    const closest = mark.item.twins[0];
    if (!closest) return;
    const name = where(closest);
    md.appendMarkdown('\n');
    if (!twinText) {
      md.appendMarkdown(escapeMd(vscode.l10n.t('The text of {0} cannot be read.', name)));
      return;
    }
    const here: string[] = [];
    for (let l = span.start; l <= span.end; l++) here.push(doc.lineAt(l).text);
    // In a long range (a whole file), the differences from the hovered line on come first.
    const { entries, hiddenChanges } = compactDiff(lineDiff(here, twinText), 1, 12, Math.max(0, focusLine - span.start));
    if (entries.length === 0) {
      md.appendMarkdown(escapeMd(vscode.l10n.t('The lines of {0} are the same as these (whitespace aside).', name)));
      return;
    }
    md.appendMarkdown(escapeMd(vscode.l10n.t('What differs in {0} (+ there, - here):', name)));
    const gap = (n: number, changed: number) => (changed > 0 ? vscode.l10n.t('… {0} lines above, {1} of them differing', n, changed) : vscode.l10n.t('… {0} unchanged lines', n));
    md.appendMarkdown('\n\n' + diffBlock(entries, gap) + '\n');
    if (hiddenChanges > 0) md.appendMarkdown(escapeMd(vscode.l10n.t('… and {0} more differing lines', hiddenChanges)));
  }
}

async function openTwin(uri: unknown, startLine: unknown, endLine: unknown): Promise<void> {
  if (typeof uri !== 'string') return;
  const s = Number.isInteger(startLine) && (startLine as number) >= 1 ? (startLine as number) : 1;
  const e = Number.isInteger(endLine) && (endLine as number) >= s ? (endLine as number) : s;
  const range = new vscode.Range(s - 1, 0, e - 1, 0);
  await vscode.window.showTextDocument(vscode.Uri.parse(uri, true), { selection: range, preview: true });
}

export function registerMarksHover(marks: EditorMarks, tasks: HostTasks): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.languages.registerHoverProvider({ scheme: 'file' }, new MarksHoverProvider(marks, tasks)),
    vscode.commands.registerCommand(OPEN_TWIN_COMMAND, openTwin),
  );
}

/**
 * The HTML report as one self-contained page (`neardup scan --format html`): the Overview's
 * treemap and histogram, drawn by the very script of the extension's Overview webview
 * (dist/overview.js, src/webview) inlined with a small stand-in for the webview's messages, then
 * every group with its pairs, each pair a side-by-side view of its two ranges with the differing
 * lines marked (at most a number of pairs with their text; the rest listed, as the page says).
 *
 * Nothing remote: the scripts and the style are inline and allowed by their SHA-256 hashes in a
 * strict Content-Security-Policy (`default-src 'none'`). Every path and line of file text comes
 * from an untrusted workspace: it is HTML-escaped where printed, and the data the script reads is
 * JSON in a data block with `<` written as `\u003c` (no `</script>` can end it). Pure: no fs.
 */
import type { SideBySideRow } from '../../core/report/lineDiff';
import type { OverviewData } from '../engine/engineProtocol';

/** One side of a pair: where, and its lines (when the page shows text). */
export interface PageLocation {
  path: string;
  /** In a notebook: the cell (1-based); the lines are then those inside the cell. */
  cell?: number;
  startLine?: number;
  endLine?: number;
}

export interface PagePair {
  kind: 'file' | 'section';
  a: PageLocation;
  b: PageLocation;
  distance: number;
  similarity: number;
  clone?: string;
  located?: boolean;
  /** File pairs located with --locate: the matched regions. */
  regions?: Array<{ a: { startLine: number; endLine: number }; b: { startLine: number; endLine: number }; clone: string; similarity: number }>;
  /** The side-by-side rows (absent: the pair is listed without its text). */
  rows?: SideBySideRow[];
  /** Why there is no text, or what was cut ("lines 401–900 not shown"). */
  note?: string;
}

export interface PageGroup {
  kind: 'file' | 'section';
  located?: boolean;
  maxDistance: number;
  members: PageLocation[];
  pairs: PagePair[];
  /** Pairs of the group not listed at all (over the page's cap). */
  morePairs: number;
}

export interface PageInput {
  /** The folder scanned, as the user named it. */
  title: string;
  files: number;
  sections: number;
  pairs: number;
  overview: OverviewData;
  groups: PageGroup[];
  /** Sentences on what the page leaves out (caps, truncated results). */
  notes: string[];
  /** The Overview webview's bundled script (dist/overview.js). */
  overviewScript: string;
}

/** Escapes text for HTML (element content and quoted attribute values). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** JSON that is safe inside a `<script type="application/json">` block. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

// node:crypto on first use: it is bundled with --locate's code, which does not hash (issue 16).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createHash = (algorithm: string) => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);
const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** The strings of the Overview script (the keys of its `Strings`), in English. */
export const PAGE_STRINGS = {
  treemap: 'Where the near duplicates are (area: lines; colour: share in near duplicates)',
  histogram: 'Pairs by distance',
  groups: 'Largest groups',
  files: 'files',
  sections: 'sections',
  distance: 'distance',
  similarity: 'similarity',
  noPairs: 'No near duplicates.',
  foldersOnly: '{0} files: folders only.',
  node: '{0}: {1} of {2} lines in near duplicates ({3})',
  group: '{0} copies, {1} lines, distance up to {2}',
  up: 'Up',
  threshold: 'limit for {0}: {1}',
};

/**
 * Stands in for the VS Code webview API: answers the script's `ready` with the data, records
 * what it drew on <html> (data-rendered-*: read by the tests), and turns "open" into a jump to
 * the file's first group below.
 */
const SHIM = `(function () {
  var page = JSON.parse(document.getElementById('neardup-data').textContent);
  window.acquireVsCodeApi = function () {
    return {
      postMessage: function (m) {
        if (!m) return;
        if (m.type === 'ready') {
          setTimeout(function () { window.dispatchEvent(new MessageEvent('message', { data: { type: 'data', data: page.overview, strings: page.strings } })); }, 0);
        } else if (m.type === 'rendered') {
          var h = document.documentElement;
          h.setAttribute('data-rendered-nodes', String(m.nodes));
          h.setAttribute('data-rendered-bars', String(m.bars));
          h.setAttribute('data-rendered-groups', String(m.groups));
        } else if (m.type === 'open' && typeof m.path === 'string') {
          var id = Object.prototype.hasOwnProperty.call(page.anchors, m.path) ? page.anchors[m.path] : undefined;
          var target = id && document.getElementById(id);
          if (target) { if (target.tagName === 'DETAILS') target.open = true; target.scrollIntoView(); }
        }
      }
    };
  };
})();`;

const STYLE = `
:root { color-scheme: light dark;
  --vscode-foreground: #1f2328; --vscode-editor-background: #ffffff; --vscode-editorWidget-background: #eef1f4;
  --vscode-charts-red: #d1242f; --vscode-charts-blue: #0969da; --vscode-charts-orange: #bc4c00;
  --vscode-textLink-foreground: #0969da; --vscode-focusBorder: #0969da;
  --vscode-font-family: system-ui, -apple-system, "Segoe UI", sans-serif; --vscode-font-size: 14px;
  --del: #ffebe9; --add: #dafbe1; --mono: ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
@media (prefers-color-scheme: dark) { :root {
  --vscode-foreground: #d1d7e0; --vscode-editor-background: #1e1e1e; --vscode-editorWidget-background: #2b3036;
  --vscode-charts-red: #f85149; --vscode-charts-blue: #4493f8; --vscode-charts-orange: #db6d28;
  --vscode-textLink-foreground: #4493f8; --vscode-focusBorder: #4493f8; --del: #4b1d1d; --add: #1b3a26; } }
body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); margin: 0 auto; max-width: 1400px; padding: 0 16px 32px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin: 18px 0 6px; font-weight: 600; }
.crumbs button, button.link { background: none; border: none; color: var(--vscode-textLink-foreground); cursor: pointer; padding: 0 2px; font: inherit; }
:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
#treemap g { cursor: pointer; } #treemap rect { stroke: var(--vscode-editor-background); stroke-width: 1; }
#treemap g:focus rect, #treemap g:hover rect { stroke: var(--vscode-focusBorder); stroke-width: 2; } #treemap g:focus { outline: none; }
#treemap text, .axis { fill: var(--vscode-foreground); font-size: 11px; pointer-events: none; }
.axis.dim, .note { opacity: 0.75; }
.bar-file { fill: var(--vscode-charts-blue); background: var(--vscode-charts-blue); }
.bar-section { fill: var(--vscode-charts-orange); background: var(--vscode-charts-orange); }
.swatch { display: inline-block; width: 10px; height: 10px; }
.limit { stroke: var(--vscode-foreground); stroke-dasharray: 4 3; opacity: 0.8; } .limit-section { stroke: var(--vscode-charts-orange); }
#groups li { margin: 4px 0; } #groups ul { margin: 2px 0 6px; padding-left: 18px; }
details.group { border-top: 1px solid var(--vscode-editorWidget-background); padding: 6px 0; }
details.group > summary { cursor: pointer; font-weight: 600; }
.members { margin: 4px 0; padding-left: 20px; } code { font-family: var(--mono); }
.pair { margin: 10px 0 16px; } .pair h4 { margin: 4px 0; font-weight: 500; font-size: 0.95em; }
table.sbs { border-collapse: collapse; width: 100%; table-layout: fixed; font-family: var(--mono); font-size: 12px; }
table.sbs td { vertical-align: top; padding: 0 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
table.sbs col.n { width: 4em; }
table.sbs td.n { text-align: right; opacity: 0.6; user-select: none; white-space: nowrap; }
table.sbs th { text-align: left; font-weight: 500; padding: 2px 6px; background: var(--vscode-editorWidget-background); overflow-wrap: anywhere; }
tr.changed td.l, tr.left td.l { background: var(--del); } tr.changed td.r, tr.right td.r { background: var(--add); }
td.empty { background: var(--vscode-editorWidget-background); }
`;

/** `path`, `path:10-40`, in a notebook `path:cell3:2-10` (as the JSON report's group members). */
function where(loc: PageLocation): string {
  if (loc.startLine === undefined) return loc.path;
  return `${loc.path}:${loc.cell !== undefined ? `cell${loc.cell}:` : ''}${loc.startLine}-${loc.endLine ?? loc.startLine}`;
}

function pairHtml(p: PagePair, id: string): string {
  const out: string[] = [];
  const how = [p.located ? 'located' : '', p.clone ?? ''].filter(Boolean).join(', ');
  out.push(`<div class="pair" id="${id}" data-pair="${escapeHtml(where(p.a))} | ${escapeHtml(where(p.b))}">`);
  out.push(`<h4><code>${escapeHtml(where(p.a))}</code> ↔ <code>${escapeHtml(where(p.b))}</code> · distance ${p.distance} · similarity ${(p.similarity * 100).toFixed(1)}%${how ? ` · ${escapeHtml(how)}` : ''}</h4>`);
  if (p.regions?.length) {
    out.push('<ul class="regions">');
    for (const r of p.regions) out.push(`<li>lines ${r.a.startLine}–${r.a.endLine} ↔ ${r.b.startLine}–${r.b.endLine} (${escapeHtml(r.clone)}, ${(r.similarity * 100).toFixed(0)}%)</li>`);
    out.push('</ul>');
  }
  if (p.rows) {
    const offA = (p.a.startLine ?? 1) - 1;
    const offB = (p.b.startLine ?? 1) - 1;
    out.push(`<table class="sbs"><colgroup><col class="n"><col><col class="n"><col></colgroup><thead><tr><th colspan="2">${escapeHtml(where(p.a))}</th><th colspan="2">${escapeHtml(where(p.b))}</th></tr></thead><tbody>`);
    for (const r of p.rows) {
      const l = r.left ? `<td class="n">${r.left.line + offA}</td><td class="l">${escapeHtml(r.left.text)}</td>` : '<td class="n"></td><td class="l empty"></td>';
      const rt = r.right ? `<td class="n">${r.right.line + offB}</td><td class="r">${escapeHtml(r.right.text)}</td>` : '<td class="n"></td><td class="r empty"></td>';
      out.push(`<tr class="${r.op}">${l}${rt}</tr>`);
    }
    out.push('</tbody></table>');
  }
  if (p.note) out.push(`<p class="note">${escapeHtml(p.note)}</p>`);
  out.push('</div>');
  return out.join('\n');
}

/** The page, and the ids of the groups (`g1`…) in page order. */
export function renderHtmlPage(input: PageInput): string {
  // A source map comment (development builds) would name a file the page does not have.
  const script = input.overviewScript.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
  // The bundled script never holds "</script" (esbuild escapes it in strings); checked anyway.
  if (/<\/script/i.test(script)) throw new Error('the Overview script holds </script>');
  const anchors: Record<string, string> = Object.create(null) as Record<string, string>;
  const body: string[] = [];
  let pairNo = 0;
  input.groups.forEach((g, i) => {
    const id = `g${i + 1}`;
    for (const m of g.members) anchors[m.path] ??= id;
    const copies = g.members.length;
    const kind = g.located ? `${g.kind === 'file' ? 'files' : 'sections'}, located` : g.kind === 'file' ? 'files' : 'sections';
    body.push(`<details class="group" id="${id}" data-kind="${g.kind}"${i < 10 ? ' open' : ''}>`);
    body.push(`<summary>Group ${i + 1}: ${copies} ${kind}, distance up to ${g.maxDistance}, ${g.pairs.length + g.morePairs} pair${g.pairs.length + g.morePairs === 1 ? '' : 's'}</summary>`);
    body.push('<ul class="members">');
    for (const m of g.members) body.push(`<li><code>${escapeHtml(where(m))}</code></li>`);
    body.push('</ul>');
    for (const p of g.pairs) body.push(pairHtml(p, `p${++pairNo}`));
    if (g.morePairs > 0) body.push(`<p class="note">…and ${g.morePairs} more pair${g.morePairs === 1 ? '' : 's'} not listed.</p>`);
    body.push('</details>');
  });
  // The treemap's files (the overview holds the tree) jump to their first group.
  const data = jsonForScript({ overview: input.overview, strings: PAGE_STRINGS, anchors });
  const csp = `default-src 'none'; script-src ${sha256(SHIM)} ${sha256(script)}; style-src ${sha256(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const title = `NearDup report: ${input.title}`;
  const notes = input.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="NearDup">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p id="summary">${input.files} files, ${input.sections} sections, ${input.pairs} near-duplicate pair${input.pairs === 1 ? '' : 's'} in ${input.groups.length} group${input.groups.length === 1 ? '' : 's'}.</p>
${notes}
</header>
<div id="root" role="main"></div>
<noscript><p class="note">The treemap and the histogram need JavaScript; the groups below do not.</p></noscript>
<section id="all-groups" aria-label="Every group">
<h2>Every group, each pair side by side (differing lines marked)</h2>
${body.join('\n')}
</section>
<script type="application/json" id="neardup-data">${data}</script>
<script>${SHIM}</script>
<script>${script}</script>
</body>
</html>
`;
}

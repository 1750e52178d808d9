// Jupyter notebooks in the extension: a cell copied between two notebooks is a section group whose
// members name the cell (tree labels, diagnostics), and opening a member opens the notebook
// editor with that cell selected. The notebooks are written into the fixture workspace and
// removed afterwards (the later tests see the fixture as it was).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { NearDupApi } from '../../src/extension/extension';
import { closeAllEditors, fixture, getApi, memberNodes, waitForDiagnostics, waitForReport, waitUntil } from './helpers';

const FUNCTION = `def normalise_rows(rows, columns, fill_value=None):
    """Return rows as dicts with every column present."""
    result = []
    for row in rows:
        entry = {}
        for column in columns:
            value = row.get(column, fill_value)
            if isinstance(value, str):
                value = value.strip().lower()
            entry[column] = value
        result.append(entry)
    return result
`;

const notebook = (cells: Array<[string, string]>): string =>
  JSON.stringify(
    {
      cells: cells.map(([type, source]) => ({ cell_type: type, metadata: {}, source: source.split(/(?<=\n)/), ...(type === 'code' ? { outputs: [], execution_count: null } : {}) })),
      metadata: { kernelspec: { language: 'python', name: 'python3', display_name: 'Python 3' } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  );

describe('notebooks', () => {
  let api: NearDupApi;
  const a = () => fixture('notebooks/survey.ipynb');
  const b = () => fixture('notebooks/cleaning.ipynb');

  before(async () => {
    api = await getApi();
    await waitForReport(api, (r) => r.groups.length >= 4, 'the fixture report');
    const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
    await write(a(), notebook([['markdown', '# Survey\n\nWe read the answers and drop the rows without an identifier.\n'], ['code', 'import pandas as pd\nframe = pd.read_csv("answers.csv")\nprint(frame.describe())\n'], ['code', FUNCTION]]));
    await write(b(), notebook([['code', 'import numpy as np\nvalues = np.arange(100).reshape(10, 10)\nprint(values.sum(axis=0), values.mean())\n'], ['code', FUNCTION.replace('.lower()', '.upper()')]]));
  });

  after(async () => {
    await closeAllEditors();
    for (const uri of [a(), b()]) await vscode.workspace.fs.delete(uri);
    await vscode.workspace.fs.delete(fixture('notebooks'), { recursive: true });
    await waitForReport(api, (r) => !r.groups.some((g) => g.members.some((m) => m.path.endsWith('.ipynb'))), 'the notebooks gone from the report');
  });

  it('the copied cell: a section group whose members name their cell; a diagnostic names the cell; opening a member selects the cell', async () => {
    await waitForReport(api, (r) => r.groups.some((g) => g.kind === 'section' && g.members.some((m) => m.path.endsWith('survey.ipynb'))), 'a section group of the notebooks', 30_000);
    const members = memberNodes(api).filter((n) => n.member.path.endsWith('.ipynb'));
    assert.strictEqual(members.length, 2, members.map((n) => n.member.path).join(', '));
    const byName = (name: string) => members.find((n) => n.member.path.endsWith(name))!;
    const itemA = api.tree.getTreeItem(byName('survey.ipynb'));
    const itemB = api.tree.getTreeItem(byName('cleaning.ipynb'));
    assert.match(String(itemA.label), /^survey\.ipynb cell 3:1-\d+$/);
    assert.match(String(itemB.label), /^cleaning\.ipynb cell 2:1-\d+$/);
    assert.strictEqual(itemA.command?.command, 'neardup.openNotebookCell');
    assert.deepStrictEqual(itemA.command?.arguments?.[1], 3);

    const [d] = await waitForDiagnostics(a(), (ds) => ds.length > 0, 'a diagnostic on survey.ipynb');
    assert.match(d.message, /^Cell 3, lines 1–\d+ are a near duplicate of notebooks\/cleaning\.ipynb cell 2:1-\d+/);
    assert.strictEqual(d.range.start.line, 0);

    await vscode.commands.executeCommand(itemA.command!.command, ...(itemA.command!.arguments ?? []));
    const editor = await waitUntil(
      () => {
        const e = vscode.window.activeNotebookEditor;
        return e && e.notebook.uri.toString() === a().toString() ? e : undefined;
      },
      [vscode.window.onDidChangeActiveNotebookEditor, vscode.window.onDidChangeNotebookEditorSelection],
      'the notebook editor of survey.ipynb',
    );
    assert.strictEqual(editor.notebook.cellCount, 3);
    await waitUntil(() => editor.selection.start === 2, [vscode.window.onDidChangeNotebookEditorSelection], 'cell 3 selected');
    assert.strictEqual(editor.notebook.cellAt(editor.selection.start).document.getText().trimEnd(), FUNCTION.trimEnd());
  });
});

/**
 * Opening a place in a Jupyter notebook: a notebook's sections are cells (their lines are not
 * lines of its JSON file), so the notebook editor opens with the cell selected and revealed; when
 * no notebook editor opens the file, the file opens as it would otherwise.
 */
import * as vscode from 'vscode';

/** Internal (hidden from the command palette): (uri, cell) with the cell 1-based. */
export const OPEN_CELL_COMMAND = 'neardup.openNotebookCell';

export async function openNotebookCell(uri: vscode.Uri, cell: number): Promise<void> {
  try {
    const doc = await vscode.workspace.openNotebookDocument(uri);
    const index = Math.max(0, Math.min(cell - 1, doc.cellCount - 1));
    const range = new vscode.NotebookRange(index, index + 1);
    const editor = await vscode.window.showNotebookDocument(doc, { selections: [range], preview: true });
    editor.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  } catch {
    await vscode.commands.executeCommand('vscode.open', uri);
  }
}

export function registerOpenNotebookCell(): vscode.Disposable {
  return vscode.commands.registerCommand(OPEN_CELL_COMMAND, (uri: unknown, cell: unknown) =>
    uri instanceof vscode.Uri && typeof cell === 'number' ? openNotebookCell(uri, cell) : undefined,
  );
}

import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext) {
  // Placeholder: the real wiring lands with the extension issue.
  context.subscriptions.push(
    vscode.commands.registerCommand('neardup.findNearDuplicates', () => undefined),
  );
  return {};
}

export function deactivate() {}

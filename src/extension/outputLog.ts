/**
 * The "NearDup" output channel: one line per event worth knowing (skipped files, settings that
 * were corrected, engine errors). Never a popup.
 */
import * as vscode from 'vscode';

export class OutputLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor() {
    this.channel = vscode.window.createOutputChannel('NearDup', { log: true });
  }

  info(message: string): void {
    this.channel.info(message);
  }

  warn(message: string): void {
    this.channel.warn(message);
  }

  error(message: string): void {
    this.channel.error(message);
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

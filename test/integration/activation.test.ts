import * as assert from 'assert';
import * as vscode from 'vscode';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require('../../package.json') as { publisher: string; name: string };

const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`; // neardup.neardup

describe('activation', () => {
  it(`the extension ${EXTENSION_ID} is installed in the extension host`, () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
  });

  it('activates without throwing', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.strictEqual(ext.isActive, true);
  });

  it('registers the command neardup.findNearDuplicates', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(
      commands.includes('neardup.findNearDuplicates'),
      'command neardup.findNearDuplicates is not registered',
    );
  });

  it('opens the fixture workspace', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1, 'expected exactly one workspace folder');
    assert.strictEqual(folders[0].uri.scheme, 'file');
  });
});

/**
 * `neardup`, the command (dist/cli.js): runs the CLI's bundle, dist/cliMain.js (src/cli/cli.ts),
 * and its lazy part dist/cliExtras.js when it asks for it, with the code caches the build made
 * beside them (codeCache.ts). Only Node's built-ins here: this file is compiled at every start.
 */
import * as path from 'node:path';
import { runCli } from './codeCache';

runCli(path.join(__dirname, 'cliMain.js'));

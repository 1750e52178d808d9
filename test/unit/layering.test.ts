import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every import/require specifier of a TypeScript file. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs: string[] = [];
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) specs.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return specs;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(p));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SRC = path.join(__dirname, '..', '..', 'src');
const CORE = path.join(SRC, 'core');

/** A path under src/ with '/' separators. */
const rel = (p: string): string => path.relative(SRC, p).split(path.sep).join('/');

/**
 * The room of a source file: under core/ and node/ the folder below them (`core/index`), or
 * `core` for core's own files; elsewhere the top folder (`extension`, with `extension/commands`).
 */
function roomOf(file: string): string {
  const parts = rel(file).split('/');
  if ((parts[0] === 'core' || parts[0] === 'node') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0];
}

/** The relative imports of a file, resolved to the .ts files they name. */
function localImports(file: string): string[] {
  const out: string[] = [];
  for (const spec of importsOf(file)) {
    if (!spec.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), spec);
    // A data file bundled as bytes (the browser worker's wasm/neardup_kernel.wasm): no code.
    if (spec.endsWith('.wasm')) {
      assert.ok(fs.existsSync(base), `${rel(file)} imports '${spec}', which does not exist`);
      continue;
    }
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((p) => fs.existsSync(p));
    assert.ok(target, `${rel(file)} imports '${spec}', which does not exist`);
    out.push(target);
  }
  return out;
}

/**
 * Each room's README.md says what it owns and, on a line `May import: …`, the rooms it may import
 * (backquoted; `core/*` is every room of core; "nothing"). Those lines are the rule this test holds
 * the code to, so the documentation and the arrows cannot drift apart.
 */
function allowedArrows(): Map<string, string[]> {
  const rooms = new Map<string, string[]>();
  for (const f of tsFiles(SRC)) {
    const room = roomOf(f);
    if (rooms.has(room)) continue;
    const readme = path.join(SRC, room, 'README.md');
    assert.ok(fs.existsSync(readme), `room ${room} has no README.md saying what it owns and may import`);
    const line = fs.readFileSync(readme, 'utf8').split('\n').find((l) => l.startsWith('May import:'));
    assert.ok(line, `src/${room}/README.md has no "May import:" line`);
    rooms.set(room, [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]));
  }
  return rooms;
}

describe('layering', () => {
  it('src/core imports nothing but other core modules (no vscode, fs, worker_threads, node:*)', () => {
    const files = tsFiles(path.join(SRC, 'core'));
    assert.ok(files.length > 5);
    for (const f of files) {
      for (const spec of importsOf(f)) {
        const target = path.resolve(path.dirname(f), spec);
        assert.ok(spec.startsWith('.') && target.startsWith(CORE + path.sep), `${path.relative(SRC, f)} imports '${spec}'`);
      }
    }
  });

  it('only src/extension imports vscode', () => {
    for (const f of tsFiles(SRC)) {
      if (f.startsWith(path.join(SRC, 'extension') + path.sep)) continue;
      assert.ok(!importsOf(f).includes('vscode'), `${path.relative(SRC, f)} imports vscode`);
    }
  });

  it('src/extension never imports the tokeniser or hashing code (the host thread must not hash)', () => {
    const dir = path.join(SRC, 'extension');
    if (!fs.existsSync(dir)) return;
    const forbidden = /core\/(text|fingerprint|sections)\/|node\/workers\/fingerprintFile$/;
    // One exception: the comment lines of the quick fix "Ignore this duplicate" (markers and
    // comment syntax only; what it pulls in is checked below).
    const allowed = /core\/text\/ignoreMarkerEdit$/;
    let exceptions = 0;
    for (const f of tsFiles(dir)) {
      for (const spec of importsOf(f)) {
        if (allowed.test(spec)) exceptions++;
        else assert.ok(!forbidden.test(spec), `${path.relative(SRC, f)} imports '${spec}'`);
      }
    }
    assert.ok(exceptions > 0, 'the scanner sees the exception (guard against a vacuous pass)');
    // Everything ignoreMarkerEdit.ts imports, transitively: no tokeniser, hash, fold or fingerprint.
    const seen = new Set<string>();
    const todo = [path.join(SRC, 'core', 'text', 'ignoreMarkerEdit.ts')];
    while (todo.length) {
      const f = todo.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      todo.push(...localImports(f));
    }
    const reached = [...seen].map(rel).sort();
    assert.deepEqual(reached, ['core/text/comments.ts', 'core/text/ignoreMarkerEdit.ts', 'core/text/ignoreMarkers.ts', 'core/text/languageTable.ts', 'core/text/languages.ts', 'core/types.ts']);
  });

  it('no network or process-spawning modules anywhere in src (http, https, http2, net, tls, dgram, dns, child_process, cluster), but git for the CLI\'s --changed-since and python3 for join --engine dask', () => {
    const forbidden = /^(node:)?(http|https|http2|net|tls|dgram|dns|child_process|cluster)(\/.*)?$/;
    const files = tsFiles(SRC);
    assert.ok(files.length > 40);
    // The one exception: cli/changedFiles.ts runs git through execFile (no shell) with fixed
    // arguments, for `neardup scan --changed-since`. Nothing in the extension runs a program.
    const gitRunner = path.join(SRC, 'cli', 'changedFiles.ts');
    const runner = fs.readFileSync(gitRunner, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.deepEqual(importsOf(gitRunner).filter((s) => forbidden.test(s)), ['node:child_process']);
    assert.match(runner, /import \{ execFile \} from 'node:child_process'/);
    assert.doesNotMatch(runner, /\b(exec|execSync|spawn|spawnSync|execFileSync|fork)\s*\(|shell\s*:/);
    assert.equal((runner.match(/\bexecFile\s*\(/g) ?? []).length, 1);
    assert.match(runner, /execFile\(\s*'git',/);
    // The second: node/shards/daskJoin.ts starts the repository's Dask job for `neardup join
    // --engine dask`: python3 and the job's path, by execFile (no shell), its input on stdin.
    const daskRunner = path.join(SRC, 'node', 'shards', 'daskJoin.ts');
    const dask = fs.readFileSync(daskRunner, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    assert.deepEqual(importsOf(daskRunner).filter((s) => forbidden.test(s)), ['node:child_process']);
    assert.match(dask, /import \{ execFile \} from 'node:child_process'/);
    assert.doesNotMatch(dask, /\b(exec|execSync|spawn|spawnSync|execFileSync|fork)\s*\(|shell\s*:/);
    assert.equal((dask.match(/\bexecFile\s*\(/g) ?? []).length, 1);
    assert.match(dask, /execFile\(PYTHON, \[job\],/);
    assert.match(dask, /const PYTHON = fs\.existsSync\('\/usr\/bin\/python3'\) \? '\/usr\/bin\/python3' : 'python3';/);
    for (const f of files) {
      if (f === gitRunner || f === daskRunner) continue;
      for (const spec of importsOf(f)) assert.ok(!forbidden.test(spec), `${path.relative(SRC, f)} imports '${spec}'`);
      // Also no global fetch / WebSocket / XMLHttpRequest.
      const text = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      assert.ok(!/\b(fetch|WebSocket|XMLHttpRequest|EventSource)\s*\(/.test(text), `${path.relative(SRC, f)} uses the network`);
    }
  });

  // Three places may write (the third below): the fingerprint cache (in the extension's storage) and the CLI's
  // `--write-baseline FILE` (cli/baseline.ts: the one file the user names on the command line,
  // through a temporary file beside it and a rename; nothing is written without that flag, which
  // test/unit/cli/cliSecurity.test.ts checks). No other file may write, nor may these two grow
  // new kinds of writes unnoticed (each has its own count below).
  // Besides: the command *Export Report…* (extension/overview/exportReport.ts) writes the HTML
  // report once, through vscode.workspace.fs, onto the file the user chose in the save dialog; and
  // the quick fix *Add to baseline* (extension/baseline/addToBaseline.ts) writes the folder's
  // baseline file and names it in `.neardup.json`, in a trusted workspace only.
  it('src writes files only in fingerprintCache.ts (the cache, in the extension storage), cli/baseline.ts (--write-baseline), node/shards/writeShard.ts (fingerprints --out), cli/process/codeCache.ts (the build\'s code caches, beside the bundles) and exportReport.ts (the save dialog\'s choice); every other open is read-only', () => {
    const writes = /\b(?:fs|fsp|promises)\.(?:writeFile|appendFile|mkdir|mkdtemp|rename|rm|rmdir|unlink|createWriteStream|copyFile|cp|symlink|link|chmod|chown|utimes|lutimes|truncate|write|writev)\w*\s*\(/;
    let cacheWrites = 0;
    const baselineWrites: string[] = [];
    const shardWrites: string[] = [];
    const exportWrites: string[] = [];
    const baselineFixWrites: string[] = [];
    const stdoutWrites: string[] = [];
    const codeCacheWrites: string[] = [];
    for (const f of tsFiles(SRC)) {
      const text = fs.readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const rel = path.relative(SRC, f).split(path.sep).join('/');
      for (const line of text.split('\n')) {
        if (writes.test(line)) {
          if (rel === 'node/engine/fingerprintCache.ts') cacheWrites++;
          else if (rel === 'cli/baseline.ts') baselineWrites.push(/\.(\w+)\s*\(/.exec(line.slice(line.search(writes)))![1]);
          else if (rel === 'node/shards/writeShard.ts') shardWrites.push(/\.(\w+)\s*\(/.exec(line.slice(line.search(writes)))![1]);
          else if (rel === 'extension/overview/exportReport.ts') exportWrites.push(line.trim());
          else if (rel === 'extension/baseline/addToBaseline.ts') baselineFixWrites.push(line.trim());
          else if (rel === 'cli/commands/cliOutput.ts') stdoutWrites.push(line.trim());
          else if (rel === 'cli/process/codeCache.ts') codeCacheWrites.push(/\.(\w+)\s*\(/.exec(line.slice(line.search(writes)))![1]);
          else assert.fail(`${rel} writes: ${line.trim()}`);
        }
        if (/\.open(Sync)?\s*\(/.test(line) && /\b(fs|fsp)\./.test(line)) assert.match(line, /O_RDONLY/, `${rel} opens a file for writing: ${line.trim()}`);
      }
    }
    assert.ok(cacheWrites >= 3, 'the scanner sees the cache writes (guard against a vacuous pass)');
    // The CLI's report onto stdout (file descriptor 1) when stdout is a file: what process.stdout
    // does there, without its stream (cli/commands/cliOutput.ts writeOut); no other write.
    assert.deepEqual(stdoutWrites, ["for (const piece of typeof output === 'string' ? [output] : output) fs.writeSync(1, piece);"], 'cli/commands/cliOutput.ts writes only the report onto stdout');
    // The baseline writer: the temporary file, its rename onto the named file, its removal on failure.
    assert.deepEqual(baselineWrites.sort(), ['renameSync', 'rmSync', 'writeFileSync'], 'cli/baseline.ts writes only the baseline file');
    // The code caches (the build asks, NEARDUP_CODE_CACHE_WRITE=1): a temporary file beside the bundle, its rename onto the bundle's cache, its removal on failure.
    assert.deepEqual(codeCacheWrites.sort(), ['renameSync', 'rmSync', 'writeFileSync'], 'cli/process/codeCache.ts writes only a bundle\'s cache');
    const codeCache = fs.readFileSync(path.join(SRC, 'cli', 'process', 'codeCache.ts'), 'utf8');
    assert.match(codeCache, /if \(env\.NEARDUP_CODE_CACHE_WRITE === '1'\) \{\s*process\.once\('exit'/, 'the caches are written only when asked');
    // The shard writer (`neardup fingerprints --out FILE`): a temporary file beside FILE, its rename, its removal on failure.
    assert.deepEqual(shardWrites.sort(), ['createWriteStream', 'renameSync', 'rmSync'], 'node/shards/writeShard.ts writes only the shard named by --out');
    // The export: one write, onto the save dialog's answer, after a return when there is none.
    assert.deepEqual(exportWrites, ['await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(html));']);
    const exporter = fs.readFileSync(path.join(SRC, 'extension', 'overview', 'exportReport.ts'), 'utf8');
    assert.match(exporter, /const target = await vscode\.window\.showSaveDialog\(\{[\s\S]*?\}\);\s*if \(!target\) return;/);
    assert.equal((exporter.match(/\btarget\s*=/g) ?? []).length, 1, 'target is assigned once');
    // Add to baseline: the baseline file and `.neardup.json`, after the workspace's trust is checked.
    assert.deepEqual(baselineFixWrites, [
      'await vscode.workspace.fs.writeFile(baselineUri, new TextEncoder().encode(made.text));',
      'await vscode.workspace.fs.writeFile(configUri, new TextEncoder().encode(next));',
    ]);
    const fix = fs.readFileSync(path.join(SRC, 'extension', 'baseline', 'addToBaseline.ts'), 'utf8');
    assert.ok(fix.indexOf('if (!vscode.workspace.isTrusted) {') > 0 && fix.indexOf('if (!vscode.workspace.isTrusted) {') < fix.indexOf('vscode.workspace.fs.writeFile'), 'trust is checked before any write');
    assert.match(fix, /const configUri = vscode\.Uri\.joinPath\(folder, PROJECT_CONFIG_FILE\);/);
  });

  it('the indexing path never pops up a notification (crashes, cache faults and skips go to the output channel)', () => {
    const popup = /\bshow(Error|Warning|Information)Message\s*\(/;
    const allowed = new Set(['extension/commands/findNearDuplicates.ts', 'extension/commands/compare.ts', 'extension/commands/ignoreDuplicate.ts', 'extension/settings.ts', 'extension/overview/exportReport.ts', 'extension/web/webExtension.ts', 'extension/baseline/addToBaseline.ts']);
    let seen = 0;
    for (const f of tsFiles(SRC)) {
      const rel = path.relative(SRC, f).split(path.sep).join('/');
      const uses = popup.test(fs.readFileSync(f, 'utf8'));
      if (allowed.has(rel)) seen += uses ? 1 : 0;
      else assert.ok(!uses, `${rel} shows a notification`);
    }
    assert.ok(seen > 0, 'the scanner sees the commands’ messages (guard against a vacuous pass)');
  });

  it('package.json capabilities are honest: virtual workspaces (the browser entry reads through vscode.workspace.fs; the desktop skips non-file folders and logs it); untrusted workspaces supported (no workspace code runs, nothing is written into it, no network)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(SRC, '..', 'package.json'), 'utf8'));
    assert.equal(pkg.capabilities.virtualWorkspaces.supported, true);
    assert.equal(pkg.browser, './dist/web/extension.js');
    assert.equal(pkg.capabilities.untrustedWorkspaces.supported, true);
    // The browser's index reads every file through vscode.workspace.fs (any file system)…
    const webIndex = fs.readFileSync(path.join(SRC, 'extension', 'web', 'webIndex.ts'), 'utf8');
    assert.match(webIndex, /vscode\.workspace\.fs\.readFile\(uri\)/);
    assert.match(webIndex, /vscode\.workspace\.findFiles\(/);
    // …while the desktop's engine reads from disk: it keeps to file folders and says why once.
    const desktopSettings = fs.readFileSync(path.join(SRC, 'extension', 'settings.ts'), 'utf8');
    assert.match(desktopSettings, /filter\(\(f\) => f\.uri\.scheme === 'file'\)/);
    assert.match(fs.readFileSync(path.join(SRC, 'extension', 'extension.ts'), 'utf8'), /folders of a virtual file system/);
  });

  // The two bundles of VS Code for the Web, built with esbuild.js's own options: every module they
  // are made of (src and node_modules), and every import in them, is free of Node built-ins; the
  // web extension host's bundle never tokenises or hashes (that is the worker's).
  it('the browser bundles (dist/web/extension.js, dist/web/engineWorker.js) pull no Node built-in, and the web extension host does not hash', async function () {
    this.timeout(60_000);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { browserBuildOptions } = require(path.join(SRC, '..', 'esbuild.js')) as { browserBuildOptions(): import('esbuild').BuildOptions[] };
    const builtins = new Set(require('node:module').builtinModules as string[]);
    const isBuiltin = (spec: string) => spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]);
    const options = browserBuildOptions();
    assert.deepEqual(options.map((o) => o.outfile).sort(), ['dist/web/engineWorker.js', 'dist/web/extension.js']);
    const inputsOf: Record<string, string[]> = {};
    for (const o of options) {
      assert.equal(o.platform, 'browser', `${o.outfile} is built for the browser`);
      const result = await esbuild.build({ ...o, absWorkingDir: path.join(SRC, '..'), write: false, metafile: true, outfile: `out/layering/${path.basename(String(o.outfile))}` });
      const inputs = Object.keys(result.metafile.inputs);
      inputsOf[String(o.outfile)] = inputs;
      for (const [file, input] of Object.entries(result.metafile.inputs)) {
        assert.ok(!isBuiltin(file), `${o.outfile} holds ${file}`);
        for (const imp of input.imports.filter((i) => i.path !== '<runtime>')) assert.ok(!isBuiltin(imp.path) && !(imp.external && imp.path !== 'vscode'), `${o.outfile}: ${file} imports '${imp.path}'`);
      }
      // The same, read from the sources the bundle is made of (type-only imports included).
      for (const file of inputs.filter((f) => f.startsWith('src/') && f.endsWith('.ts'))) {
        for (const spec of importsOf(path.join(SRC, '..', file))) assert.ok(!isBuiltin(spec), `${file} (in ${o.outfile}) imports '${spec}'`);
      }
    }
    const worker = inputsOf['dist/web/engineWorker.js'];
    const host = inputsOf['dist/web/extension.js'];
    // Guards against a vacuous pass: the worker is the engine (kernel, jieba-wasm, the report).
    for (const f of ['src/web/engineWorker.ts', 'src/core/wasm/wasmKernel.ts', 'src/core/fingerprint/decodedDocument.ts', 'src/core/report/report.ts', 'wasm/neardup_kernel.wasm']) assert.ok(worker.includes(f), `the worker bundle holds ${f}`);
    assert.ok(worker.some((f) => f.startsWith('node_modules/jieba-wasm/pkg/web/')), 'the worker bundle holds jieba-wasm\'s web build');
    assert.ok(host.includes('src/extension/web/webExtension.ts'));
    const hashing = host.filter((f) => /^src\/(core\/(text|fingerprint|sections|wasm)\/|web\/webEngine)/.test(f));
    assert.deepEqual(hashing, [], 'the web extension host neither tokenises nor hashes');
  });

  it('each room imports only the rooms its README allows (core at the bottom, extension, CLI and workers at the top)', () => {
    const allowed = allowedArrows();
    assert.ok(allowed.size >= 12, `rooms found: ${[...allowed.keys()].join(', ')}`);
    assert.deepEqual(allowed.get('core'), [], 'core/types.ts imports nothing');
    const wrong: string[] = [];
    let arrows = 0;
    for (const f of tsFiles(SRC)) {
      const from = roomOf(f);
      for (const target of localImports(f)) {
        const to = roomOf(target);
        if (to === from) continue;
        arrows++;
        const ok = allowed.get(from)!.some((a) => a === to || (a.endsWith('/*') && to.startsWith(a.slice(0, -1))) || (a === 'core/*' && to === 'core'));
        if (!ok) wrong.push(`${rel(f)} (${from}) imports ${rel(target)} (${to})`);
      }
    }
    assert.ok(arrows > 50, 'the scanner sees the arrows between rooms (guard against a vacuous pass)');
    assert.deepEqual(wrong, []);
  });

  it('no import circle anywhere in src (type-only imports included)', () => {
    const files = tsFiles(SRC);
    const edges = new Map(files.map((f) => [f, localImports(f)]));
    const state = new Map<string, 1 | 2>(); // 1 = on the current path, 2 = done
    const circles: string[] = [];
    // Iterative depth-first search: a circle is an edge back to a file on the current path.
    for (const root of files) {
      if (state.has(root)) continue;
      const stack: { file: string; next: number }[] = [{ file: root, next: 0 }];
      state.set(root, 1);
      while (stack.length) {
        const top = stack[stack.length - 1];
        const out = edges.get(top.file)!;
        if (top.next === out.length) {
          state.set(top.file, 2);
          stack.pop();
          continue;
        }
        const to = out[top.next++];
        if (state.get(to) === 1) {
          const from = stack.findIndex((e) => e.file === to);
          circles.push([...stack.slice(from).map((e) => rel(e.file)), rel(to)].join(' → '));
        } else if (!state.has(to)) {
          state.set(to, 1);
          stack.push({ file: to, next: 0 });
        }
      }
    }
    assert.deepEqual(circles, []);
  });

  it('no folder under src holds more than 12 files, and no file more than 600 lines', () => {
    const walk = (dir: string): void => {
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      const files = entries.filter((e) => e.isFile());
      assert.ok(files.length <= 12, `${rel(dir) || 'src'} holds ${files.length} files`);
      for (const e of entries) if (e.isDirectory()) walk(path.join(dir, e.name));
    };
    walk(SRC);
    for (const f of tsFiles(SRC)) {
      const lines = fs.readFileSync(f, 'utf8').split('\n').length;
      assert.ok(lines <= 600, `${rel(f)} has ${lines} lines`);
    }
  });

  it('no C source or header of native/ has more than 650 lines', () => {
    const native = path.join(SRC, '..', 'native');
    const files = fs.readdirSync(native).filter((f) => f.endsWith('.c') || f.endsWith('.h'));
    assert.ok(files.includes('kernel.c') && files.includes('wasm.c'), `native/ holds ${files.join(', ')}`);
    for (const f of files) {
      const lines = fs.readFileSync(path.join(native, f), 'utf8').split('\n').length;
      assert.ok(lines <= 650, `native/${f} has ${lines} lines`);
    }
  });

  it('every source file opens with a comment saying what it owns', () => {
    for (const f of tsFiles(SRC)) {
      const text = fs.readFileSync(f, 'utf8').replace(/^#!.*\n/, '').trimStart();
      assert.ok(/^(\/\*\*?\s*\n?\s*\*?\s*\S|\/\/ \S)/.test(text), `${rel(f)} does not open with a comment`);
    }
  });

  it('the import scanner itself sees imports (guard against a vacuous pass)', () => {
    assert.ok(importsOf(path.join(SRC, 'cli', 'cli.ts')).includes('commander'));
    assert.ok(importsOf(path.join(SRC, 'cli', 'commands', 'cliOutput.ts')).includes('node:fs'));
  });

  it('docs/architecture.md names every room folder under src (so the picture cannot drift when a room is added)', () => {
    const doc = fs.readFileSync(path.join(SRC, '..', 'docs', 'architecture.md'), 'utf8');
    const mermaid = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(mermaid, 'docs/architecture.md has a ```mermaid block');
    const folders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!e.isDirectory()) continue;
        folders.push(path.join(dir, e.name));
        walk(path.join(dir, e.name));
      }
    };
    walk(SRC);
    assert.ok(folders.length >= 15, `folders found: ${folders.map(rel).join(', ')}`);
    const missing: string[] = [];
    for (const dir of folders) {
      const name = rel(dir);
      // Every folder has its paragraph, named `src/<folder>/`.
      if (!doc.includes(`\`src/${name}/\``)) missing.push(`\`src/${name}/\` (paragraph)`);
      // Every folder that holds code is a box of the diagram, labelled with its path under src.
      const holdsCode = fs.readdirSync(dir).some((f) => f.endsWith('.ts'));
      if (holdsCode && !mermaid.includes(`["${name}"]`)) missing.push(`["${name}"] (diagram)`);
    }
    assert.deepEqual(missing, []);
  });
});

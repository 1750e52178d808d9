// Reads a platform .vsix back and says what is wrong with it for its target: every native file's
// header (scripts/lib/binaryHeader.js), exactly its own jieba binary, the WebAssembly kernel, the
// native kernel only where it belongs, no idf.txt, no source maps, the manifest's target, the
// size limit. Used by scripts/package-all.js after each package and by its unit test.
'use strict';
const fs = require('fs');
// yauzl: the zip reader vsce itself depends on (a devDependency of ours through @vscode/vsce).
const yauzl = require('yauzl');
const { readBinaryHeader, binaryProblems } = require('./binaryHeader');

/** The most a platform package may weigh, in bytes. */
const MAX_PACKAGE_BYTES = 6 * 1000 * 1000;

/**
 * The entries of a .vsix: Map from path to { size, data? }; the contents are read for native
 * binaries, the WebAssembly kernel and the manifest (what the checks look into).
 */
function readVsix(file) {
  const wanted = (name) => /\.(node|wasm)$/.test(name) || name === 'extension.vsixmanifest';
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        if (!wanted(entry.fileName)) {
          entries.set(entry.fileName, { size: entry.uncompressedSize });
          return zip.readEntry();
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, { size: entry.uncompressedSize, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/**
 * What is wrong with the package `file` for target row `row` (scripts/lib/platformTargets.js);
 * `nativeKernel` says whether dist/neardup_kernel.node must be in it (true) or must not (false).
 * Returns { problems: string[], nodeFiles: [{ path, header }], bytes }.
 */
async function checkPackage(file, row, { nativeKernel }) {
  const entries = await readVsix(file);
  const bytes = fs.statSync(file).size;
  const problems = [];
  const nodeFiles = [];
  for (const [name, entry] of entries) {
    if (!name.endsWith('.node')) continue;
    const header = readBinaryHeader(entry.data);
    nodeFiles.push({ path: name, header });
    if (!row.binary) problems.push(`${name}: a native binary in the ${row.target} package, which must have none`);
    else for (const p of binaryProblems(header, row.binary)) problems.push(`${name} ${p}`);
  }
  const jiebaBinaries = nodeFiles.map((f) => f.path).filter((p) => p.startsWith('extension/node_modules/'));
  const ownJieba = row.jieba ? [`extension/node_modules/@node-rs/jieba-${row.jieba}/jieba.${row.jieba}.node`] : [];
  if (jiebaBinaries.join() !== ownJieba.join()) {
    problems.push(`jieba binaries ${JSON.stringify(jiebaBinaries)}, expected exactly ${JSON.stringify(ownJieba)}`);
  }
  if (row.jieba) {
    for (const f of ['index.js', 'dict.txt', 'package.json']) {
      if (!entries.has(`extension/node_modules/@node-rs/jieba/${f}`)) problems.push(`@node-rs/jieba/${f} is missing`);
    }
  }
  const wasm = entries.get('extension/dist/neardup_kernel.wasm');
  if (!wasm) problems.push('the WebAssembly kernel dist/neardup_kernel.wasm is missing');
  else if (wasm.data.readUInt32BE(0) !== 0x0061736d) problems.push('dist/neardup_kernel.wasm is not WebAssembly');
  const hasNative = entries.has('extension/dist/neardup_kernel.node');
  if (nativeKernel && !hasNative) problems.push('the native kernel dist/neardup_kernel.node is missing');
  if (!nativeKernel && hasNative) problems.push(`dist/neardup_kernel.node is in the ${row.target} package, which cannot have it`);
  for (const name of entries.keys()) {
    if (/(^|\/)idf\.txt$/.test(name)) problems.push(`${name}: jieba's unused idf.txt`);
    if (name.endsWith('.map')) problems.push(`${name}: a source map`);
  }
  const manifest = entries.get('extension.vsixmanifest');
  const declared = manifest ? /TargetPlatform="([^"]*)"/.exec(manifest.data.toString('utf8')) : null;
  if (!declared || declared[1] !== row.target) problems.push(`manifest TargetPlatform is ${declared ? declared[1] : 'missing'}, not ${row.target}`);
  if (bytes >= MAX_PACKAGE_BYTES) problems.push(`${bytes} bytes, over the ${MAX_PACKAGE_BYTES}-byte limit`);
  return { problems, nodeFiles, bytes, entries: [...entries.keys()] };
}

/** Unpacks every file of a .vsix under `dir` (the extension itself lands in `dir/extension`). */
function extractVsix(file, dir) {
  const path = require('path');
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry) => {
        const to = path.resolve(dir, entry.fileName);
        if (!to.startsWith(path.resolve(dir) + path.sep)) return reject(new Error(`${entry.fileName} leaves the folder`));
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          fs.mkdirSync(path.dirname(to), { recursive: true });
          const out = fs.createWriteStream(to);
          out.on('error', reject);
          out.on('finish', () => zip.readEntry());
          stream.pipe(out);
        });
      });
      zip.readEntry();
    });
  });
}

module.exports = { checkPackage, readVsix, extractVsix, MAX_PACKAGE_BYTES };

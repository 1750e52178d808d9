/**
 * A region finder's test corpus from this repository's own sources: some files with another
 * file's block or one of their own pasted in, optionally a file twice (identical documents), and
 * two prose files sharing a paragraph — as region documents (tokenised by the native kernel when
 * it is built). Used by the tests of the region finder on workers and on threads.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regionDocument, type RegionDocument } from '../../../src/core/regions/document';
import { nativeKernel } from '../../../src/node/workers/nativeKernel';
import { mulberry32, proseText } from './corpus';
import { REPO } from './engineBundle';

export function pastedSources(seed: number, dirs: readonly string[], options: { twinOf?: number } = {}): RegionDocument[] {
  const rnd = mulberry32(seed);
  const files: Array<{ path: string; text: string }> = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(path.join(REPO, dir)).sort()) {
      if (name.endsWith('.ts')) files.push({ path: `${dir}/${name}`, text: fs.readFileSync(path.join(REPO, dir, name), 'utf8') });
    }
  }
  const block = (text: string, lines: number) => {
    const all = text.split('\n');
    const from = Math.floor(rnd() * Math.max(1, all.length - lines));
    return all.slice(from, from + lines).join('\n');
  };
  const paste = (host: string, b: string) => {
    const lines = host.split('\n');
    const at = Math.floor(rnd() * lines.length);
    return [...lines.slice(0, at), b, ...lines.slice(at)].join('\n');
  };
  const out = files.map((f, i) => {
    let text = f.text;
    if (i % 3 === 0) text = paste(text, block(files[(i + 5) % files.length].text, 25)); // another file's block
    if (i % 7 === 0) text = paste(text, block(text, 20)); // a repeat inside the file
    return regionDocument(text, f.path, { kernel: nativeKernel() });
  });
  if (options.twinOf !== undefined) out.push(regionDocument(files[options.twinOf].text, 'twin.ts', { kernel: nativeKernel() }));
  const para = proseText(rnd, 120);
  out.push(regionDocument(`${proseText(rnd, 300)}\n\n${para}\n\n${proseText(rnd, 200)}`, 'a.md'));
  out.push(regionDocument(`${proseText(rnd, 250)}\n\n${para}\n`, 'b.md'));
  return out;
}

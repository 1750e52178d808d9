/**
 * How a located region stands next to the SimHash section pairs of its two files, one rule for
 * the CLI's `--locate` (node/locate/locate.ts) and the extension's engine (node/engine/regions):
 * a section already says a region (samePlace), or located regions split a section pair into the
 * separate copies it holds (splitsSection, gathered region by region in SectionSplits); the keys
 * of a side and of a pair's two sides.
 */

type Lines = { startLine: number; endLine: number };

/** A place of a file (a section's or region's side, a group member). */
type Place = { path: string; startLine?: number; endLine?: number };

/** A side's key: its path and lines. */
export const sideKey = (loc: Place): string => `${loc.path}\0${loc.startLine}\0${loc.endLine}`;

/** The key of a pair's two sides, in either order (a split section pair and its two-member group share it). */
export const sidesKey = (x: Place, y: Place): string => [sideKey(x), sideKey(y)].sort().join('\n');

/** Lines two inclusive ranges share. */
const shared = (s1: number, e1: number, s2: number, e2: number): number => Math.max(0, Math.min(e1, e2) - Math.max(s1, s2) + 1);

/**
 * A section `x` already says region `y`: it holds at least 80 % of the region's lines, and the
 * region at least half of the section's (a region much tighter than its section is kept).
 */
export function samePlace(x: Lines, y: Lines): boolean {
  const s = shared(x.startLine, x.endLine, y.startLine, y.endLine);
  return s >= 0.8 * (y.endLine - y.startLine + 1) && 2 * s >= x.endLine - x.startLine + 1;
}

/** Lines of the union of inclusive ranges. */
function unionLines(ranges: Lines[]): number {
  const sorted = ranges.slice().sort((x, y) => x.startLine - y.startLine);
  let n = 0;
  let end = -Infinity;
  for (const r of sorted) {
    const from = Math.max(r.startLine, end + 1);
    if (r.endLine >= from) n += r.endLine - from + 1;
    end = Math.max(end, r.endLine);
  }
  return n;
}

/** A region's side lies inside a section's side (± 1 line): only such regions can split it (splitsSection). */
export const withinSection = (s: Lines, r: Lines): boolean => r.startLine >= s.startLine - 1 && r.endLine <= s.endLine + 1;

/**
 * Located regions split a SimHash section pair `x` (side a, side b; the regions in the same
 * order): two or more of them lie inside it on both sides (± 1 line) and together hold at least
 * half of its lines on each side. Separate copies that happen to lie next to each other on both
 * sides (a paragraph pasted before one the two files share) make one look-alike section pair;
 * the regions say where each copy is, the section pair only that the sections are alike.
 */
export function splitsSection(x: { a: Lines; b: Lines }, regions: ReadonlyArray<{ a: Lines; b: Lines }>): boolean {
  const inside = regions.filter((r) => withinSection(x.a, r.a) && withinSection(x.b, r.b));
  if (inside.length < 2) return false;
  const holds = (s: Lines, side: Lines[]) => 2 * unionLines(side.map((r) => ({ startLine: Math.max(r.startLine, s.startLine), endLine: Math.min(r.endLine, s.endLine) }))) >= s.endLine - s.startLine + 1;
  return holds(x.a, inside.map((r) => r.a)) && holds(x.b, inside.map((r) => r.b));
}

/** A side with its path and lines. */
type PlaceLines = { path: string } & Lines;

/**
 * The section pairs that located regions split (splitsSection), gathered region by region: the one
 * loop of the CLI and the engine. Each region is offered the section pairs of its two files (by
 * any key, e.g. an index); only a region inside a section pair on both sides (± 1 line, either
 * order of its sides) is listed for it (many regions × many section pairs of two files: no lists).
 */
export class SectionSplits<K> {
  private readonly inside = new Map<K, { section: { a: Lines; b: Lines }; regions: Array<{ a: Lines; b: Lines }> }>();

  /** Region (sides `a`, `b`) beside section pair `key` of the same two files. */
  add(key: K, section: { a: PlaceLines; b: PlaceLines }, a: PlaceLines, b: PlaceLines): void {
    if (section.a.path === a.path && withinSection(section.a, a) && withinSection(section.b, b)) this.list(key, section).push({ a, b });
    if (section.a.path === b.path && withinSection(section.a, b) && withinSection(section.b, a)) this.list(key, section).push({ a: b, b: a });
  }

  /** The keys of the section pairs the regions added split. */
  split(): Set<K> {
    const out = new Set<K>();
    for (const [key, { section, regions }] of this.inside) if (regions.length >= 2 && splitsSection(section, regions)) out.add(key);
    return out;
  }

  private list(key: K, section: { a: Lines; b: Lines }): Array<{ a: Lines; b: Lines }> {
    let e = this.inside.get(key);
    if (!e) this.inside.set(key, (e = { section, regions: [] }));
    return e.regions;
  }
}

/**
 * A large report crosses from the engine to the extension host in parts. Every message is
 * deserialised by the host in one task: a report of 100,000 files (thousands of groups and items,
 * ~2 MB) would take 25–60 ms there; parts of at most {@link REPORT_PART_WEIGHT} entries take a few.
 *
 * Wire format: `reportPart` events (index 0, 1, …) with slices of the groups, items and cleared
 * paths, then the `report` event with the rest and `parts` = how many came before it. A small
 * report is one `report` event, as it always was.
 */
import type { EngineEvent, ViewReport } from './engineProtocol';

/** Entries per message: a group or item counts 1 + its members or twins, a cleared path 1. */
export const REPORT_PART_WEIGHT = 2000;

type ReportPart = Extract<EngineEvent, { type: 'reportPart' }>;
type ReportEvent = Extract<EngineEvent, { type: 'report' }>;

/** The events that carry `report`: its parts, then the report event itself. */
export function splitReport(report: ViewReport, maxWeight = REPORT_PART_WEIGHT): Array<ReportPart | ReportEvent> {
  const parts: ReportPart[] = [];
  let cur: Pick<ViewReport, 'groups' | 'items' | 'clearedPaths'> = { groups: [], items: [], clearedPaths: [] };
  let weight = 0;
  const add = (w: number) => {
    if (weight > 0 && weight + w > maxWeight) {
      parts.push({ type: 'reportPart', generation: report.generation, index: parts.length, ...cur });
      cur = { groups: [], items: [], clearedPaths: [] };
      weight = 0;
    }
    weight += w;
  };
  for (const g of report.groups) {
    add(1 + g.members.length);
    cur.groups.push(g);
  }
  for (const i of report.items) {
    add(1 + i.twins.length);
    cur.items.push(i);
  }
  for (const p of report.clearedPaths) {
    add(1);
    cur.clearedPaths.push(p);
  }
  if (parts.length === 0) return [{ type: 'report', report }];
  return [...parts, { type: 'report', report: { ...report, ...cur }, parts: parts.length }];
}

/**
 * Puts reports together again on the receiving side. Each part is appended as it arrives (work
 * proportional to the part). A part 0 starts a new report; parts of a report that never ended
 * (the engine died half-way) are dropped by {@link reset} or by the next part 0.
 */
export class ReportAssembler {
  private generation = -1;
  private count = 0;
  private groups: ViewReport['groups'] = [];
  private items: ViewReport['items'] = [];
  private cleared: string[] = [];

  /**
   * Takes one event: undefined while parts are coming, the whole report at its `report` event, or
   * `lost` when that report does not match the parts received (some went missing).
   */
  add(e: ReportPart | ReportEvent): ViewReport | 'lost' | undefined {
    if (e.type === 'reportPart') {
      if (e.index === 0) this.reset();
      if (e.index !== this.count || (e.index > 0 && e.generation !== this.generation)) {
        this.reset();
        this.count = -1; // poisoned until the next part 0
        return undefined;
      }
      this.generation = e.generation;
      this.count++;
      append(this.groups, e.groups);
      append(this.items, e.items);
      append(this.cleared, e.clearedPaths);
      return undefined;
    }
    const parts = e.parts ?? 0;
    if (parts === 0) {
      // Parts of an unfinished report before it: that report's changes are missing, unless this
      // one replaces everything.
      const stale = this.count !== 0;
      this.reset();
      return stale && !e.report.full ? 'lost' : e.report;
    }
    const ok = this.count === parts && this.generation === e.report.generation;
    if (!ok) {
      this.reset();
      return 'lost';
    }
    const r = e.report;
    append(this.groups, r.groups);
    append(this.items, r.items);
    append(this.cleared, r.clearedPaths);
    const whole: ViewReport = { ...r, groups: this.groups, items: this.items, clearedPaths: this.cleared };
    this.groups = [];
    this.items = [];
    this.cleared = [];
    this.reset();
    return whole;
  }

  /** Drops the parts received so far. */
  reset(): void {
    this.generation = -1;
    this.count = 0;
    this.groups = [];
    this.items = [];
    this.cleared = [];
  }
}

function append<T>(to: T[], from: readonly T[]): void {
  for (const x of from) to.push(x);
}

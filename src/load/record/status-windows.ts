/**
 * One operation's answers by HTTP status: the count over the run (OperationStats `byStatus`) and
 * per histogram window, in the window of the answer (RunResult `windows.responses`). Statuses
 * 0–999 find their column by index (no Map update per answer); a column is made once per status
 * seen and grows by a push per new window.
 */
import { fold } from './fold-windows.js';
import { WindowIndex } from './window-index.js';

const STATUS_SLOTS = 1000;

interface Column {
  total: number;
  perWindow: number[];
}

export class StatusWindows {
  private readonly byCode: (Column | undefined)[] = new Array<Column | undefined>(STATUS_SLOTS);
  /** Statuses outside 0–999 (never from a well-behaved server). */
  private readonly other = new Map<number, Column>();

  private readonly index: WindowIndex;

  constructor(windowMs: number) {
    this.index = new WindowIndex(windowMs);
  }

  add(atMs: number, status: number): void {
    const i = this.index.of(atMs);
    let c = this.find(status);
    if (!c) {
      c = { total: 0, perWindow: [] };
      if (slotted(status)) this.byCode[status] = c;
      else this.other.set(status, c);
    }
    c.total++;
    const a = c.perWindow;
    while (a.length <= i) a.push(0);
    a[i]!++;
  }

  /** Answers with `status` so far. */
  total(status: number): number {
    return this.find(status)?.total ?? 0;
  }

  /** Every status seen, with its count so far. */
  totals(): Map<number, number> {
    return new Map(this.columns().map(([s, c]) => [s, c.total]));
  }

  /** Windows 0 to `n - 1` of every status seen, keyed by the status as a string (as `byStatus`). */
  result(n: number): Record<string, number[]> {
    return Object.fromEntries(this.columns().map(([s, c]) => [String(s), fold(c.perWindow, n)]));
  }

  private find(status: number): Column | undefined {
    return slotted(status) ? this.byCode[status] : this.other.get(status);
  }

  /** Every status seen, in increasing order. */
  private columns(): [number, Column][] {
    const cols: [number, Column][] = [...this.other];
    this.byCode.forEach((c, s) => c && cols.push([s, c]));
    return cols.sort((x, y) => x[0] - y[0]);
  }
}

const slotted = (status: number) => status >= 0 && status < STATUS_SLOTS && Number.isInteger(status);

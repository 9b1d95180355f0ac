/**
 * One operation's answers per histogram window and HTTP status (RunResult `windows.responses`),
 * counted in the window of the answer. Statuses 0–999 find their column by index (no Map update
 * per answer); a column is made once per status seen and grows by a push per new window.
 */
import { fold } from './fold-windows.js';

const STATUS_SLOTS = 1000;

export class StatusWindows {
  private readonly byCode: (number[] | undefined)[] = new Array<number[] | undefined>(STATUS_SLOTS);
  /** Statuses outside 0–999 (never from a well-behaved server). */
  private readonly other = new Map<number, number[]>();

  constructor(private readonly windowMs: number) {}

  add(atMs: number, status: number): void {
    const i = Math.floor(atMs / this.windowMs);
    let a = status >= 0 && status < STATUS_SLOTS && Number.isInteger(status) ? this.byCode[status] : this.other.get(status);
    if (!a) {
      a = [];
      if (status >= 0 && status < STATUS_SLOTS && Number.isInteger(status)) this.byCode[status] = a;
      else this.other.set(status, a);
    }
    while (a.length <= i) a.push(0);
    a[i]!++;
  }

  /** Windows 0 to `n - 1` of every status seen, keyed by the status as a string (as `byStatus`). */
  result(n: number): Record<string, number[]> {
    const cols: [number, number[]][] = [...this.other];
    this.byCode.forEach((a, s) => a && cols.push([s, a]));
    cols.sort((x, y) => x[0] - y[0]);
    return Object.fromEntries(cols.map(([s, a]) => [String(s), fold(a, n)]));
  }
}

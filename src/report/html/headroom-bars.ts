/**
 * Headroom as horizontal bars: each limit's peak use (rate and concurrency per operation, queue
 * depth against the queue throttle, running workers against workersMax), with marks at 80 % and
 * 100 %. Plain HTML and CSS; the bar spans 0–125 % (beyond: clipped, the figure says how far).
 */
import { groupDigits } from '../../lib/group-digits.js';
import type { RunResult } from '../run-result.js';
import { esc } from './escape.js';

const SCALE = 1.25;
const at = (share: number) => `${((100 * Math.min(share, SCALE)) / SCALE).toFixed(2)}%`;

function bar(label: string, peak: number | null, limit: number | null): string {
  const name = `<span class="hr-name">${esc(label)}</span>`;
  if (peak === null) return `<div class="hr-row">${name}<span class="hr-none">not observed</span></div>`;
  if (!limit) return `<div class="hr-row">${name}<span class="hr-none">peak ${groupDigits(peak)}, no limit</span></div>`;
  const share = peak / limit;
  const level = share > 1 ? 'over' : share > 0.8 ? 'hot' : 'ok';
  return (
    `<div class="hr-row">${name}<span class="hr-track"><span class="hr-bar hr-${level}" style="width:${at(share)}"></span>` +
    `<span class="hr-mark" style="left:${at(0.8)}"></span><span class="hr-mark hr-mark-100" style="left:${at(1)}"></span></span>` +
    `<span class="hr-figure">${Math.round(100 * share)} % (${groupDigits(peak)} of ${groupDigits(limit)})</span></div>`
  );
}

export function headroomBars(r: RunResult): string {
  const h = r.headroom;
  const rows = [
    ...h.operations.flatMap((o) => [
      bar(`/${o.operation} rate per 10 s`, o.peakPer10s, o.ratePer10s),
      bar(`/${o.operation} in flight`, o.peakInFlight, o.concurrency),
    ]),
    bar('queue depth vs queue throttle', h.peakQueueDepth, h.queueThrottleAt),
    bar('running workers vs workersMax', h.peakRunningWorkers, h.workersMax),
  ];
  return (
    `<section id="headroom"><h2>Headroom</h2><p class="note">Peak use of each limit over the run; marks at 80 % and 100 %.</p>` +
    `<div class="hr">${rows.join('')}</div></section>`
  );
}

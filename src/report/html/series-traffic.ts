/** Charts of the traffic: requests/s by operation, 429s/s by cause, jobs finished per second. */
import type { RunResult } from '../run-result.js';
import { note, sortedKeys, total, type ChartSlot } from './chart-slot.js';
import { grouping, pointNote, pointXs, ratePerSec } from './downsample.js';

/** By operation from `windows.requests` (version 3), else all operations from the timeline. */
export function requestsChart(r: RunResult): ChartSlot {
  const byOp = r.windows?.requests;
  if (byOp && sortedKeys(byOp).length) {
    const ops = sortedKeys(byOp);
    const g = grouping(Math.max(...ops.map((o) => byOp[o]!.length)), r.windows!.windowMs);
    return {
      kind: 'chart',
      spec: {
        id: 'requests',
        title: 'Requests/s by operation',
        unit: 'req/s',
        x: pointXs(g),
        subtitle: `every attempt, 429 re-sends included; ${pointNote(g, 'mean')}`,
        series: ops.map((op) => ({ label: op, values: ratePerSec(byOp[op]!, g) })),
      },
    };
  }
  const t = r.timeline;
  if (!t.requests.length) return note('requests', 'Requests/s', 'No requests were sent in this run.');
  const g = grouping(t.requests.length, t.windowMs);
  return {
    kind: 'chart',
    spec: {
      id: 'requests',
      title: 'Requests/s',
      unit: 'req/s',
      x: pointXs(g),
      subtitle: `all operations (${r.version < 3 ? `report version ${r.version} has` : 'this report has'} no requests per operation over time); ${pointNote(g, 'mean')}`,
      series: [
        { label: 'all operations', values: ratePerSec(t.requests, g) },
        { label: '2xx answers', values: ratePerSec(t.responses2xx, g) },
      ],
    },
  };
}

const COLOURS = { rate: '#d62728', concurrency: '#ff7f0e', queue: '#9467bd', unknown: '#7f7f7f' };
const CAUSES = [
  ['rate', 'limitedRate'],
  ['concurrency', 'limitedConcurrency'],
  ['queue', 'limitedQueue'],
  ['unknown', 'limitedUnknown'],
] as const;

/** 429s stacked by the limit hit; a note when there were none. */
export function limitedChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  const title = '429s/s by cause';
  const causes = CAUSES.filter(([, col]) => total(t[col]) > 0);
  if (!causes.length) return note('limited', title, 'No 429s in this run: no limit was hit.');
  const g = grouping(t.requests.length, t.windowMs);
  const how = r.target.causes === 'reported' ? 'causes as the simulator reported them' : 'causes inferred by the client';
  const none = CAUSES.filter(([c, col]) => c !== 'unknown' && total(t[col]) === 0).map(([c]) => c);
  return {
    kind: 'chart',
    spec: {
      id: 'limited',
      title,
      unit: '429/s',
      x: pointXs(g),
      subtitle: `stacked; ${how}${none.length ? `; none by ${none.join(' or ')}` : ''}; ${pointNote(g, 'mean')}`,
      series: causes.map(([c, col]) => ({ label: c, values: ratePerSec(t[col], g), stacked: true, color: COLOURS[c] })),
    },
  };
}

/** Jobs whose terminal status the client read, per second: completed and failed. */
export function jobsChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  if (total(t.jobsCompleted) + total(t.jobsFailed) === 0) return note('jobs', 'Jobs finished/s', 'No job finished in this run.');
  const g = grouping(t.requests.length, t.windowMs);
  return {
    kind: 'chart',
    spec: {
      id: 'jobs',
      title: 'Jobs finished/s',
      unit: 'jobs/s',
      x: pointXs(g),
      subtitle: `terminal statuses read by the client; ${pointNote(g, 'mean')}`,
      series: [
        { label: 'completed', values: ratePerSec(t.jobsCompleted, g), color: '#2ca02c' },
        { label: 'failed', values: ratePerSec(t.jobsFailed, g), color: '#d62728' },
      ],
    },
  };
}

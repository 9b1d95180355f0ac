/**
 * The endpoint over time: queue length and workers by state against workersMax (`windows.endpoint`,
 * version 3), else the deepest queue per window from the timeline.
 */
import type { WorkerState } from '../../contract/sim-events.js';
import type { RunResult } from '../run-result.js';
import { note, type ChartSlot } from './chart-slot.js';
import type { ChartSeries } from './chart-spec.js';
import { grouping, maxPerPoint, meanPerPoint, pointNote, pointXs } from './downsample.js';

/** Stacking order, bottom up, and colours. */
const STATES: readonly (readonly [WorkerState, string])[] = [
  ['running', '#2ca02c'],
  ['idle', '#98df8a'],
  ['initializing', '#1f77b4'],
  ['throttled', '#ff7f0e'],
  ['unhealthy', '#d62728'],
];

export function endpointChart(r: RunResult): ChartSlot {
  const e = r.windows?.endpoint;
  const title = 'Queue and workers';
  if (e) {
    const g = grouping(e.queueLength.length, r.windows!.windowMs);
    const x = pointXs(g);
    const workers: ChartSeries[] = STATES.filter(([s]) => e.workers[s]?.some((v) => v > 0)).map(([s, color]) => ({
      label: `workers ${s}`,
      values: meanPerPoint(e.workers[s]!, g),
      stacked: true,
      color,
    }));
    const how = e.source === 'simulator' ? 'time averages from the simulator' : 'means of the /health answers (gaps: no answer)';
    return {
      kind: 'chart',
      spec: {
        id: 'endpoint',
        title: 'Queue and workers by state',
        unit: 'count',
        x,
        subtitle: `${how}; workers stacked by state; ${pointNote(g, 'mean')}`,
        series: [
          ...workers,
          { label: 'workersMax', values: x.map(() => r.headroom.workersMax), dash: true, color: '#555555' },
          { label: 'queue length', values: meanPerPoint(e.queueLength, g), color: '#3366cc', width: 2 },
          { label: 'jobs in system', values: meanPerPoint(e.jobsInSystem, g), color: '#990099' },
        ],
      },
    };
  }
  const t = r.timeline;
  const g = grouping(t.queueDepthMax.length, t.windowMs);
  const depth = maxPerPoint(t.queueDepthMax, g);
  if (depth.every((v) => v === null)) return note('endpoint', title, 'The queue was not observed in this run (the target does not show it).');
  return {
    kind: 'chart',
    spec: {
      id: 'endpoint',
      title: 'Queue depth (maximum)',
      unit: 'jobs',
      x: pointXs(g),
      subtitle: `the deepest queue seen in each window (${r.version < 3 ? `report version ${r.version} has` : 'this report has'} no workers over time); ${pointNote(g, 'max')}`,
      series: [{ label: 'queue depth, max', values: depth, color: '#3366cc' }],
    },
  };
}

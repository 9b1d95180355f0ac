/**
 * The workers on each GPU type over the run (`windows.endpoint.byGpu`: an endpoint that lists its
 * gpus; none for other runs): stacked by type, then by state, against workersMax. A worker waiting
 * for room on every type is on none (the "Queue and workers" chart shows it as throttled).
 */
import { WORKER_STATES } from '../../contract/sim-events.js';
import type { RunResult } from '../run-result.js';
import type { ChartSlot } from './chart-slot.js';
import type { ChartSeries } from './chart-spec.js';
import { grouping, meanPerPoint, pointNote, pointXs } from './downsample.js';

/** Per GPU type in priority order (up to 3), a hue; per state (WORKER_STATES order: running, idle, initializing, throttled, unhealthy) a shade. */
const PALETTES = [
  ['#08519c', '#6baed6', '#c6dbef', '#fd8d3c', '#a50f15'],
  ['#006d2c', '#74c476', '#c7e9c0', '#fdae6b', '#de2d26'],
  ['#54278f', '#9e9ac8', '#dadaeb', '#fdd0a2', '#fb6a4a'],
];

export function gpuCharts(r: RunResult): ChartSlot[] {
  const e = r.windows?.endpoint;
  if (!e?.byGpu?.length) return [];
  const g = grouping(e.queueLength.length, r.windows!.windowMs);
  const x = pointXs(g);
  const series: ChartSeries[] = e.byGpu.flatMap((t, i) =>
    WORKER_STATES.flatMap((s, k) =>
      t.workers[s]?.some((v) => v > 0)
        ? [{ label: `${t.gpu} ${s}`, values: meanPerPoint(t.workers[s]!, g), stacked: true, color: PALETTES[i % PALETTES.length]![k]! }]
        : [],
    ),
  );
  const how = e.source === 'simulator' ? 'time averages from the simulator' : 'means of the /health answers (gaps: no answer)';
  return [
    {
      kind: 'chart',
      spec: {
        id: 'workers-by-gpu',
        title: 'Workers by GPU type',
        unit: 'workers',
        x,
        subtitle: `${how}; stacked by GPU type (in priority order), then by state; a worker waiting for room on every type is on none; ${pointNote(g, 'mean')}`,
        series: [...series, { label: 'workersMax', values: x.map(() => r.headroom.workersMax), dash: true, color: '#555555', reference: true }],
      },
    },
  ];
}

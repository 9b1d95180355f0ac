/**
 * report.md's "Workers and cost" by GPU type (an endpoint that lists its `gpus`: report.json
 * `workers.byGpu`): per type, in priority order, the workers placed on it, their seconds by state,
 * their billed seconds and, with prices, the type's prices and its cost per run. Nothing without
 * `byGpu`. Pure.
 */
import type { GpuWorkers } from './run-result.js';

const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** The paragraph and table; `table` is report.md's table builder (head, rows → lines). */
export function gpuTableLines(byGpu: readonly GpuWorkers[] | undefined, table: (head: string[], rows: (string | number)[][]) => string[]): string[] {
  if (!byGpu?.length) return [];
  const priced = byGpu.some((g) => g.cost);
  return [
    `By GPU type (endpoint.gpus, in priority order): a worker starts on the first type with room and is billed at that type's price; time a worker waited throttled for room on every type is on no type (in the totals above only).`,
    '',
    ...table(
      [
        'GPU type',
        'workers started',
        'worker-seconds running / idle / initializing / throttled / unhealthy',
        'billed seconds flex / active',
        ...(priced ? ['prices per second flex / active', 'cost per run'] : []),
      ],
      byGpu.map((g) => {
        const s = g.secondsByState;
        return [
          g.gpu,
          g.started,
          [s.running, s.idle, s.initializing, s.throttled, s.unhealthy].map(num).join(' / '),
          `${g.billedSeconds.flex} / ${num(g.billedSeconds.active)}`,
          ...(priced ? (g.cost ? [`$${g.cost.prices.flexPerSec} / $${g.cost.prices.activePerSec}`, `$${g.cost.perRun.toFixed(4)}`] : ['–', '–']) : []),
        ];
      }),
    ),
  ];
}

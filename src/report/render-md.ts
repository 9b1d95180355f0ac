/**
 * report.md: what a person reads after a run — per-operation table, 429s by cause, percentiles,
 * jobs, streams (TTFT, ITL, TPOT, tokens, goodput), multi-turn sessions, webhooks, arrivals, headroom against every limit, the runner's failed `/health` reads, workers and cost, thresholds, after the verdict
 * (PASS / FAIL / INVALID, 429s by cause, limits above 80 %). Pure: render(result).
 */
import { fineMs } from './fine-ms.js';
import { gpuTableLines } from './gpu-table-md.js';
import { healthFailures } from './health-failures.js';
import { scaleOf, type EncodedHistogram } from './histogram.js';
import type { RunResult, ShardSection } from './run-result.js';
import { verdict, verdictLines } from './verdict.js';
import { turnsTable } from './turns-table.js';

const fmt = (n: number | null | undefined): string => (n === null || n === undefined ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(2));
const pctOf = (a: number, b: number | null): string => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
const table = (head: string[], rows: (string | number)[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.map(String).join(' | ')} |`),
  '',
];
const lat = (h: EncodedHistogram) => [h.summary.p50, h.summary.p90, h.summary.p99, h.summary.max].map(fmt);

export function renderMarkdown(r: RunResult): string {
  const out: string[] = [];
  const s = r.scenario;
  // The verdict first (verdict.ts): its line is the file's first line.
  out.push(verdictLines(verdict(r)).join('  \n'), '');
  out.push(`# loadlab ${r.kind}: ${s.name}`, '');
  const ac = r.kind === 'blast' ? r.wallClock?.autocannon : undefined;
  if (ac) out.push(`autocannon, closed model: ${ac.connections} connections, **${fmt(ac.requestsPerSec)} requests/s** on average.`, '');
  out.push(
    `Target **${r.target.kind}**${r.target.url ? ` (${r.target.url})` : ''}, endpoint \`${s.endpointId}\`, seed ${s.seed}, ` +
      `${fmt(s.durationMs / 1000)} s of traffic, ${fmt(r.elapsedMs / 1000)} s ${r.target.kind === 'http' ? 'wall' : 'virtual'} time in all.`,
    '',
  );
  if (r.shard) out.push(shardLine(r.shard), '');
  if (r.interrupted)
    out.push(`**Interrupted by the user at t=${fmt(Math.floor(r.interrupted.atMs / 1000))} s**: every figure below covers the run up to then.`, '');
  const failed = r.thresholds.filter((t) => !t.ok).length;
  if (r.thresholds.length)
    out.push(failed ? `**${failed} of ${r.thresholds.length} thresholds failed.**` : `All ${r.thresholds.length} thresholds passed.`, '');

  out.push('## Operations', '', 'Latency in ms: response = intended send → answer; service = actual send → answer.', '');
  out.push(
    ...table(
      ['operation', 'requests', 'by status', '429 rate / conc / queue / ?', '429 re-sent', 'timeouts', 'resp p50', 'p90', 'p99', 'max', 'service p99'],
      Object.entries(r.operations).map(([op, o]) => [
        op,
        o.requests,
        Object.entries(o.byStatus)
          .map(([k, v]) => `${k}×${v}`)
          .join(' '),
        `${o.limited.rate} / ${o.limited.concurrency} / ${o.limited.queue} / ${o.limited.unknown}`,
        o.retried429,
        o.clientTimeouts,
        ...lat(o.responseMs),
        fmt(o.serviceMs.summary.p99),
      ]),
    ),
  );
  out.push(
    `429 causes are ${r.target.causes === 'reported' ? 'as reported by the simulator' : '**inferred** by the client (a real deployment does not say which limit it hit)'}.`,
    '',
  );
  const lb = r.operations.lb?.balancerFailed;
  if (lb) {
    const parts = Object.entries(lb).map(([cause, n]) => `${cause} ${n}`);
    out.push(
      `Load-balancing endpoint: requests its balancer ended rather than a worker answering them (503 no-workers, 504 timeout, 502 dropped, 400 worker-timeout, 404 worker-gone): ${parts.join(', ')}.`,
      '',
    );
  }

  out.push('## Flows', '');
  out.push(
    ...table(
      ['flow', 'behaviour', 'arrival', 'sessions', 'outcomes'],
      Object.entries(r.flows).map(([n, f]) => [
        n,
        f.behaviour,
        f.users === undefined ? f.arrival : `${f.arrival} (${f.users} users)`,
        f.sessions,
        Object.entries(f.outcomes)
          .map(([k, v]) => `${k} ${v}`)
          .join(', '),
      ]),
    ),
  );

  out.push(...flowJobTable(r));
  out.push(...streamTable(r));
  out.push(...turnsTable(r));

  const j = r.jobs;
  out.push('## Jobs', '');
  out.push(
    ...table(
      ['measure', 'value'],
      [
        ['accepted', j.accepted],
        [
          'final status seen (per job)',
          Object.entries(j.finalStatus)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || '–',
        ],
        ...(j.outcomes
          ? [
              [
                'every accepted job once, by outcome',
                Object.entries(j.outcomes)
                  .map(([k, v]) => `${k} ${v}`)
                  .join(', ') || '–',
              ],
            ]
          : []),
        ...(j.purged !== undefined ? [['purged (removed by /purge-queue)', j.purged]] : []),
        ['queue delay p50 / p90 / p99 / max (ms)', lat(j.queueDelayMs).join(' / ')],
        ['execution p50 / p90 / p99 / max (ms)', lat(j.executionMs).join(' / ')],
        ['retention expiries seen (404 for a known job)', j.retentionExpiriesSeen],
        ['re-queued by /retry', j.retriedByClient],
        ['cancelled (cancel latency p99 ms)', `${j.cancelled} (${fmt(j.cancelLatencyMs.summary.p99)})`],
        ['stream calls / chunks', `${r.streams.calls} / ${r.streams.chunks}`],
      ],
    ),
  );

  const w = r.webhooks;
  const turnedAway = (w.refused ?? 0) + (w.malformed ?? 0);
  if (w.attempts || turnedAway) {
    out.push('## Webhooks', '');
    out.push(
      ...table(
        ['attempts', 'delivered', 'failed attempts', 'retries', 'gave up', 'lateness p50 / p99 / max (ms)'],
        [
          [
            w.attempts,
            w.delivered,
            w.failedAttempts,
            w.retries,
            w.gaveUp,
            lat(w.latenessMs)
              .filter((_, i) => i !== 1)
              .join(' / '),
          ],
        ],
      ),
    );
    if (turnedAway)
      out.push(
        `The receiver turned away ${w.refused ?? 0} request(s) (404: not a POST to its URL with the token) and ${w.malformed ?? 0} malformed POST(s) (400, or 413 over 1 MiB); none is counted above.`,
        '',
      );
  }

  const a = r.arrivals;
  // A closed flow's users send when their last session ended: its sessions are arrivals with no schedule to fall behind.
  const closed = Object.values(r.flows).some((f) => f.users !== undefined);
  out.push(closed ? '## Arrivals' : '## Arrivals (open model)', '');
  if (closed)
    out.push(
      "A closed flow's session is intended when its user sends (its last session's end plus the think time): late counts only the client's own delay in sending it.",
      '',
    );
  out.push(
    ...table(
      ['intended', 'sent', 'late', 'dropped', 'send lag p99 / max (ms)'],
      [[a.intended, a.sent, a.late, a.dropped, `${fmt(a.sendLagMs.summary.p99)} / ${fmt(a.sendLagMs.summary.max)}`]],
    ),
  );

  const h = r.headroom;
  out.push('## Headroom', '', 'Peaks seen against each limit (rate: most requests sent in one 10 s window).', '');
  out.push(
    ...table(
      ['operation', 'peak / 10 s', 'rate limit / 10 s', 'use', 'peak in flight', 'concurrency limit', 'use'],
      h.operations.map((o) => [
        o.operation,
        o.peakPer10s,
        fmt(o.ratePer10s),
        pctOf(o.peakPer10s, o.ratePer10s),
        o.peakInFlight,
        fmt(o.concurrency),
        pctOf(o.peakInFlight, o.concurrency),
      ]),
    ),
  );
  out.push(
    ...table(
      ['resource', 'peak', 'limit', 'use'],
      [
        [
          'queue depth (throttling starts at)',
          fmt(h.peakQueueDepth),
          h.queueThrottleAt,
          h.peakQueueDepth === null ? '–' : pctOf(h.peakQueueDepth, h.queueThrottleAt),
        ],
        [
          'running workers (workersMax)',
          fmt(h.peakRunningWorkers),
          h.workersMax,
          h.peakRunningWorkers === null ? '–' : pctOf(h.peakRunningWorkers, h.workersMax),
        ],
      ],
    ),
  );

  out.push(...healthLines(r));
  out.push(...workersTable(r));

  if (r.thresholds.length) {
    out.push('## Thresholds', '');
    if (r.aborted) out.push(`Aborted at ${r.aborted.atMs / 1000} s by \`${r.aborted.threshold}\` (abortOnFail).`, '');
    out.push(
      ...table(
        ['threshold', 'value', 'result'],
        r.thresholds.map((t) => [`\`${t.expr}\``, thresholdValue(t), t.ok ? 'pass' : '**FAIL**']),
      ),
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** The runner's own /health reads, when some failed: how many, and why. */
function healthLines(r: RunResult): string[] {
  const h = r.healthSampling;
  if (!h || (!h.errors && !h.stopped)) return [];
  const causes = healthFailures(h);
  return [
    `The runner read \`/health\` every ${fmt(h.everyMs / 1000)} s: ${h.answered} of ${h.requests} reads gave a sample, ${h.errors} did not${causes ? ` (${causes})` : ''}.` +
      (h.stopped ? ` **Sampling stopped**: ${h.stopped}; the endpoint's queue and workers are missing from then on.` : ' Sampling went on after each failure.'),
    '',
  ];
}

/** The value, the window that broke an `every` threshold, or why there is none. */
function thresholdValue(t: RunResult['thresholds'][number]): string {
  if (t.window) return `${t.window.value} in ${t.window.fromMs / 1000}–${t.window.toMs / 1000} s`;
  return t.value === null && t.reason ? `– (${t.reason})` : fmt(t.value);
}

/**
 * Each flow's job times (version 2), p50 / p95 / p99 / max: the statistics thresholds most often
 * name. The cold-start column only when the run measured it (in-process, asked for): absent is
 * not 0.
 */
function flowJobTable(r: RunResult): string[] {
  const flows = Object.entries(r.flows).flatMap(([n, f]) => (f.jobs ? [[n, f.jobs] as const] : []));
  if (!flows.length) return [];
  const cold = flows.some(([, j]) => j.coldStartMs);
  const q = (h: EncodedHistogram | undefined) => (h ? [h.summary.p50, h.summary.p95, h.summary.p99, h.summary.max].map(fmt).join(' / ') : '–');
  return [
    'Job times per flow in ms, p50 / p95 / p99 / max (one sample per terminal status read).',
    '',
    ...table(
      ['flow', 'turnaround', 'queue delay', 'execution', ...(cold ? ['cold start'] : [])],
      flows.map(([n, j]) => [n, q(j.turnaroundMs), q(j.queueDelayMs), q(j.executionMs), ...(cold ? [q(j.coldStartMs)] : [])]),
    ),
  ];
}

/**
 * Each streaming flow's streamed answers: TTFT, ITL, TPOT, tokens/s per request (p50 / p95 / p99 /
 * max), prompt tokens sent, output tokens and the run's output tokens/s, goodput against the flow's targets.
 */
function streamTable(r: RunResult): string[] {
  const flows = Object.entries(r.flows).flatMap(([n, f]) => (f.stream ? [[n, f.stream] as const] : []));
  if (!flows.length) return [];
  // Times kept to 0.01 ms print their fraction (fine-ms.ts); older reports' whole ms, and tokens/s, as they are.
  const q = (h: EncodedHistogram) => [h.summary.p50, h.summary.p95, h.summary.p99, h.summary.max].map((v) => (scaleOf(h) > 1 ? fineMs(v) : fmt(v))).join(' / ');
  const secs = r.elapsedMs / 1000;
  const targets = (g: NonNullable<(typeof flows)[number][1]['goodputTargets']>) =>
    [g.ttftMs !== undefined ? `TTFT ≤ ${g.ttftMs}` : '', g.tpotMs !== undefined ? `TPOT ≤ ${g.tpotMs}` : ''].filter(Boolean).join(', ') || 'none';
  return [
    '## Streams',
    '',
    'Streamed answers per flow, p50 / p95 / p99 / max. Prompt tokens: of the requests sent (4 characters a token); tokens: output tokens received. TTFT: intended send → first content chunk (ms); ITL: each gap between content chunks (ms); ' +
      "TPOT: (last − first chunk) / (tokens − 1) (ms); tokens/s per request: tokens / (last chunk − intended send); output tokens/s: all tokens / the run's length. " +
      (flows.some(([, st]) => scaleOf(st.itlMs) > 1) ? 'Times are kept to 0.01 ms.' : 'Times are whole ms (a report from before 0.01 ms stream times).'),
    '',
    ...table(
      ['flow', 'streamed (broken)', 'prompt tokens', 'tokens', 'output tokens/s', 'TTFT', 'ITL', 'TPOT', 'tokens/s per request', 'goodput'],
      flows.map(([n, st]) => [
        n,
        `${st.requests} (${st.broken})`,
        st.promptTokens ?? '–',
        st.tokens,
        secs > 0 ? fmt(Math.round((st.tokens / secs) * 100) / 100) : '–',
        q(st.ttftMs),
        q(st.itlMs),
        q(st.tpotMs),
        q(st.tokensPerS),
        st.good === undefined || !st.goodputTargets ? '–' : `${pctOf(st.good, st.requests)} (${targets(st.goodputTargets)})`,
      ]),
    ),
  ];
}

/**
 * Workers and cost (in-process runs): worker-seconds by state, billed seconds, and with prices the
 * cost per run, per hour and per 1 000 completed jobs (docs/plan.md "Cost" says how workers are billed);
 * then, for an endpoint that lists its GPU types, the same per type (gpu-table-md.ts).
 */
function workersTable(r: RunResult): string[] {
  const w = r.workers;
  if (!w) return [];
  const c = w.cost;
  const usd = (v: number | null) => (v === null ? '– (no job completed)' : `$${v.toFixed(4)}`);
  const p = c?.prices;
  return [
    '## Workers and cost',
    '',
    `Billed as \`loadlab plan\` bills (docs/plan.md "Cost"): flex workers per second, rounded up, from start to stop (idle tail included), ${billedText(w)}; ${w.workersMin} active worker${w.workersMin === 1 ? '' : 's'} (workersMin) for the whole run.`,
    '',
    ...table(
      ['measure', 'value'],
      [
        ['workers started', w.started],
        ...(w.unhealthyOnStart ? [['workers unhealthy on start (past initTimeoutMs)', w.unhealthyOnStart]] : []),
        [
          'worker-seconds running / idle / initializing / throttled / unhealthy',
          [w.secondsByState.running, w.secondsByState.idle, w.secondsByState.initializing, w.secondsByState.throttled, w.secondsByState.unhealthy]
            .map(fmt)
            .join(' / '),
        ],
        ['billed seconds flex / active', `${w.billedSeconds.flex} / ${w.billedSeconds.active}`],
        ...(c && p
          ? [
              w.byGpu?.length
                ? ['prices per second flex / active', `each GPU type's (below${p.priceBook ? `; price book ${p.priceBook}: ${p.asOf}` : ''})`]
                : ['prices per second flex / active', `$${p.flexPerSec} / $${p.activePerSec} (${pricesSource(p)})`],
              ['cost per run', usd(c.perRun)],
              ['cost per hour', usd(c.perHour)],
              ['cost per 1 000 completed jobs', usd(c.per1000Jobs)],
            ]
          : [['cost', 'no prices (give --gpu NAME or --price-flex/--price-active)']]),
      ],
    ),
    ...gpuTableLines(w.byGpu, table),
  ];
}

/** What time a bill counts: from its `billing` rule (a report without one was billed under the earlier rule). */
export function billedText(w: Pick<NonNullable<RunResult['workers']>, 'billing'>): string {
  const b = w.billing;
  if (!b) return 'initializing and unhealthy time included, throttled time not (the rule before 2026; this report does not name its rule)';
  return b.initializing
    ? 'initializing time included (endpoint.billing.initializing: true), throttled and unhealthy time not'
    : 'initializing, throttled and unhealthy time not billed (endpoint.billing.initializing: false)';
}

/** Where prices come from: a GPU in a price book, or given as numbers. */
export function pricesSource(p: { gpu?: string; asOf?: string; priceBook?: string }): string {
  if (!p.gpu) return 'given';
  return p.priceBook ? `${p.gpu}, price book ${p.priceBook}: ${p.asOf}` : `${p.gpu}, as of ${p.asOf}`;
}

/** "shard I of N" (or the shards a merge holds), and the common wall start when given. */
function shardLine(sh: ShardSection): string {
  const which =
    sh.count === 1
      ? 'the whole run (one shard)'
      : sh.indices.length === 1
        ? `**shard ${sh.indices[0]} of ${sh.count}**: arrivals k of each flow with k mod ${sh.count} = ${sh.indices[0]} (of a closed flow: its users i with i mod ${sh.count} = ${sh.indices[0]})`
        : sh.indices.length === sh.count
          ? `**all ${sh.count} shards**, merged`
          : `**shards ${sh.indices.join(', ')} of ${sh.count}**, merged`;
  const at = sh.startAtMs === undefined ? '' : `; time 0 at ${new Date(sh.startAtMs).toISOString()} (--start-at)`;
  return `This report covers ${which}${at}.`;
}

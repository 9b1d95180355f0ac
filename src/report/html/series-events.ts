/** Charts of rare events, counted per point: webhook failures, retention expiries seen. */
import type { RunResult } from '../run-result.js';
import { note, total, type ChartSlot } from './chart-slot.js';
import { grouping, pointNote, pointSpan, pointXs, sumPerPoint } from './downsample.js';

import { groupDigits as group } from '../../lib/group-digits.js';

export function webhooksChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  const w = r.webhooks;
  const title = 'Webhook failures';
  if (w.attempts === 0 && total(t.webhookFailures) === 0) return note('webhooks', title, 'No webhooks in this run.');
  if (total(t.webhookFailures) === 0) {
    return note('webhooks', title, `No webhook attempt failed: ${group(w.attempts)} attempts, ${group(w.delivered)} delivered.`);
  }
  const g = grouping(t.webhookFailures.length, t.windowMs);
  return { kind: 'chart', spec: {
    id: 'webhooks', title, unit: `per ${pointSpan(g)}`, x: pointXs(g),
    subtitle: `failed attempts (${group(w.failedAttempts)} of ${group(w.attempts)} attempts, ${group(w.gaveUp)} jobs given up; attempts per window are not recorded); ${pointNote(g, 'sum')}`,
    series: [{ label: 'failed attempts', values: sumPerPoint(t.webhookFailures, g), color: '#d62728' }],
  } };
}

export function expiriesChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  const title = 'Retention expiries seen';
  if (total(t.expiriesSeen) === 0) return note('expiries', title, 'No retention expiries seen in this run (no 404 for a known job).');
  const g = grouping(t.expiriesSeen.length, t.windowMs);
  return { kind: 'chart', spec: {
    id: 'expiries', title, unit: `per ${pointSpan(g)}`, x: pointXs(g),
    subtitle: `404 for a job known to exist: its result expired before the client read it; ${pointNote(g, 'sum')}`,
    series: [{ label: 'expiries seen', values: sumPerPoint(t.expiriesSeen, g), color: '#8c564b' }],
  } };
}

/** Charts of rare events, counted per point: webhook attempts and failures, retention expiries seen. */
import type { RunResult } from '../run-result.js';
import { note, total, type ChartSlot } from './chart-slot.js';
import { grouping, pointNote, pointSpan, pointXs, sumPerPoint } from './downsample.js';

import { groupDigits as group } from '../../lib/group-digits.js';

export function webhooksChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  const w = r.webhooks;
  const attempts = t.webhookAttempts;
  const title = attempts ? 'Webhook attempts and failures' : 'Webhook failures';
  if (w.attempts === 0 && total(t.webhookFailures) === 0) return note('webhooks', title, 'No webhooks in this run.');
  // A report older than version 3 has no attempts per window: then only failures, and only if any.
  if (!attempts && total(t.webhookFailures) === 0) {
    return note('webhooks', title, `No webhook attempt failed: ${group(w.attempts)} attempts, ${group(w.delivered)} delivered.`);
  }
  const g = grouping(t.webhookFailures.length, t.windowMs);
  const totals = `${group(w.failedAttempts)} of ${group(w.attempts)} attempts failed, ${group(w.gaveUp)} jobs given up`;
  return {
    kind: 'chart',
    spec: {
      id: 'webhooks',
      title,
      unit: `per ${pointSpan(g)}`,
      x: pointXs(g),
      subtitle: `${totals}${attempts ? '' : '; attempts per window are not in this report'}; ${pointNote(g, 'sum')}`,
      series: [
        ...(attempts ? [{ label: 'attempts', values: sumPerPoint(attempts, g), color: '#1f77b4' }] : []),
        { label: 'failed attempts', values: sumPerPoint(t.webhookFailures, g), color: '#d62728' },
      ],
    },
  };
}

export function expiriesChart(r: RunResult): ChartSlot {
  const t = r.timeline;
  const title = 'Retention expiries seen';
  if (total(t.expiriesSeen) === 0) return note('expiries', title, 'No retention expiries seen in this run (no 404 for a known job).');
  const g = grouping(t.expiriesSeen.length, t.windowMs);
  return {
    kind: 'chart',
    spec: {
      id: 'expiries',
      title,
      unit: `per ${pointSpan(g)}`,
      x: pointXs(g),
      subtitle: `404 for a job known to exist: its result expired before the client read it; ${pointNote(g, 'sum')}`,
      series: [{ label: 'expiries seen', values: sumPerPoint(t.expiriesSeen, g), color: '#8c564b' }],
    },
  };
}

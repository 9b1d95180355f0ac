/** report.json's job accounting as a user reads it: every accepted job once, purged ones included. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'loadlab-jobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a run with /purge-queue, /retry and held runsync: categories sum to accepted; purged, finalStatus per job', () => {
  const f = join(dir, 'purges.json');
  writeFileSync(
    f,
    JSON.stringify({
      name: 'purges',
      seed: 5,
      durationMs: 60_000,
      drainMs: 120_000,
      endpoint: { id: 'ep', workersMax: 1, jobDurationMs: 2000, workload: { failureProbability: 0.4 } },
      traffic: [
        {
          name: 'poll',
          arrival: { process: 'poisson', ratePerSec: 1 },
          client: { behaviour: 'run-poll', retryFailed: 1, poll: { baseMs: 1000, factor: 1, maxMs: 1000, jitter: 0 } },
        },
        { name: 'sync', arrival: { process: 'poisson', ratePerSec: 0.5 }, client: { behaviour: 'runsync', waitMs: 60_000 } },
        { name: 'purge', arrival: { process: 'constant', ratePerSec: 0.1 }, client: { behaviour: 'purge-queue' } },
      ],
      thresholds: ['jobs_purged > 10'],
    }),
  );
  const out = join(dir, 'out');
  const r = spawnSync('node', ['bin/loadlab.js', 'run', f, '--out', out], { encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const { accepted, outcomes, purged, finalStatus, retriedByClient } = rep.jobs;
  expect(Object.values(outcomes as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(accepted);
  expect(purged).toBe(outcomes.purged);
  expect(purged).toBeGreaterThan(10);
  expect(rep.flows.sync.outcomes.purged).toBeGreaterThan(0);
  expect(retriedByClient).toBeGreaterThan(0);
  // Per job: each job session ends once, so the statuses equal the categories of that name.
  for (const [k, v] of Object.entries(finalStatus)) expect(outcomes[k]).toBe(v);
  const sessions = rep.flows.poll.sessions + rep.flows.sync.sessions - (rep.flows.poll.outcomes.rejected ?? 0) - (rep.flows.sync.outcomes.rejected ?? 0);
  expect(accepted).toBe(sessions);
  expect(r.stdout).toContain(
    `jobs: ${accepted} accepted; ${Object.entries(outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')};`,
  );
  const md = readFileSync(join(out, 'report.md'), 'utf8');
  expect(md).toMatch(/\| every accepted job once, by outcome \| .*purged \d+/);
  expect(md).toMatch(/\| purged \(removed by \/purge-queue\) \| \d+ \|/);
});

/**
 * `loadlab demo`: a minute of mixed traffic on the embedded simulator, in virtual time, with a
 * summary. It shows the core working end to end before any scenario file is written.
 */
import type { CommandModule } from 'yargs';
import { Api } from '../../api/api.js';
import { parseSimConfig } from '../../sim/config.js';
import { Simulator } from '../../sim/simulator.js';

interface DemoArgs {
  seed: number;
  seconds: number;
  rate: number;
}

export function runDemo(a: DemoArgs): string {
  const parsed = parseSimConfig({
    seed: a.seed,
    endpoints: [{ id: 'demo', workersMax: 3, jobDurationMs: { dist: 'lognormal', medianMs: 800, p95Ms: 3000 }, coldStartMs: { dist: 'lognormal', medianMs: 1500, p95Ms: 6000 } }],
  });
  if (!parsed.ok) throw new Error('built-in demo config is invalid');
  const sim = new Simulator(parsed.config);
  const api = new Api(sim, { apiKeys: [] });
  const byStatus = new Map<number, number>();
  const finished = new Map<string, number>();
  let limited = 0;
  sim.bus.on((e) => {
    if (e.type === 'job.finished') finished.set(e.status, (finished.get(e.status) ?? 0) + 1);
    if (e.type === 'request.limited') limited++;
  });
  const arrivals = sim.random.stream('arrivals');
  const gapMs = 1000 / a.rate;
  const endMs = a.seconds * 1000;
  const submit = () => {
    api.handle({ method: 'POST', path: '/v2/demo/run', authorization: 'demo', body: { input: { prompt: 'hello' } } }, (r) => {
      byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    });
    const next = sim.nowMs + Math.round(-gapMs * Math.log(1 - arrivals.next()));
    if (next < endMs) sim.sched.at(next, submit);
  };
  sim.sched.at(0, submit);
  sim.runUntil(endMs + 600_000);
  const h = sim.endpoints.get('demo')!.health();
  const lines = [
    `loadlab demo: ${a.seconds} s of Poisson /run traffic at ${a.rate}/s on a simulated endpoint (workersMax 3, seed ${a.seed})`,
    `  responses: ${[...byStatus].map(([s, n]) => `${s}×${n}`).join(', ')}   requests limited: ${limited}`,
    `  jobs: ${[...finished].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `  health at the end: ${JSON.stringify(h)}`,
    `  virtual time simulated: ${(sim.nowMs / 1000).toFixed(0)} s in ${sim.sched.eventsRun} events`,
  ];
  return lines.join('\n');
}

export const demoCommand: CommandModule<object, DemoArgs> = {
  command: 'demo',
  describe: 'Run built-in mixed traffic on the embedded simulator and print a summary',
  builder: (y) =>
    y
      .option('seed', { type: 'number', default: 1, describe: 'Seed of every random stream' })
      .option('seconds', { type: 'number', default: 60, describe: 'Virtual seconds of traffic' })
      .option('rate', { type: 'number', default: 2, describe: 'Jobs per virtual second' }),
  handler: (a) => {
    console.log(runDemo(a));
  },
};

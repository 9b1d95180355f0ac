/**
 * How flat a simulator core's growth can be on this machine (issue 2: "jobs/s should stay flat"
 * from 100 to 10 000 jobs/s). sim-throughput's workload run by the leanest loop that keeps the
 * same state: jobs and workers as indices into typed arrays, a timing wheel of int lists, a LIFO
 * idle-worker stack, each job's record (submit, start, end, worker) kept for 30 min of
 * retention. No API, no scaling, no objects per job, no garbage. At 100 jobs/s about 130 jobs
 * run at once, at 10 000/s about 13 000: what this loop loses between the two is what the
 * machine's caches cost any design that keeps this state.
 * Beside it, each round times the same loop with a job-shaped and a worker-shaped object touched
 * where the core touches its own (the object layout's share), and sim-core.ts (the real core,
 * no API) at the same rate and job count; each in its own process, alternating, so the three
 * growth curves come from one moment. Random numbers come from the simulator's own streams and
 * samplers (the same cost per job in all three).
 * Usage: node dist/bench/core-ceiling.js [jobs=2000000] [runs=3]
 *        (child: … --child lean|objects|core RATE JOBS)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sampler } from '../src/sampling/registry.js';
import { RandomSource } from '../src/lib/random.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';
import { simCore } from './sim-core.js';

const RETENTION_MS = 30 * 60_000;
const WHEEL = 1 << 14;
/** Record fields per job: submitted, started, ended (virtual ms), worker number. */
const REC = 4;

/** The first used slot at or after ms `from` (wrapping once), or -1. */
function nextUsed(used: Int32Array, from: number): number {
  const words = used.length;
  const f = from & (WHEEL - 1);
  let wi = f >>> 5;
  let bits = used[wi]! & (-1 << (f & 31));
  for (let n = 0; n <= words; n++) {
    if (bits !== 0) return (wi << 5) | (31 - Math.clz32(bits & -bits));
    wi = (wi + 1) % words;
    bits = used[wi]!;
  }
  return -1;
}

/** A job shaped like the core's `Job` (job.ts: 18 fields). */
function jobObject(seq: number, now: number) {
  return {
    id: '',
    seq,
    kind: 'run',
    status: 'IN_QUEUE',
    input: undefined as unknown,
    s3Config: undefined,
    submittedAtMs: now,
    enqueuedAtMs: now,
    startedAtMs: 0,
    executionTimeMs: 0,
    output: undefined as unknown,
    error: undefined,
    expiresAtMs: now + 86_400_000,
    worker: -1,
    prev: undefined,
    next: undefined,
    x: undefined,
  };
}

/** A worker shaped like the core's `Worker` (worker.ts: 18 fields). */
function workerObject(n: number) {
  return {
    state: 'idle',
    job: -1,
    idleSinceMs: 0,
    runEnd: 'complete',
    name: undefined,
    poolPrev: undefined,
    poolNext: undefined,
    poolSeq: n,
    atMs: 0,
    seq: 0,
    idx: -1,
    wheel: false,
    prev: undefined,
    next: undefined,
    arg: undefined,
    prefix: 'bench-w',
    n,
    fn: undefined,
  };
}

/**
 * The lean loop; `objects`: it also keeps a job-shaped object per job (made at arrival, dropped
 * at the end) and a worker-shaped object per worker, and touches them where the core does (start
 * and end of a run): what the core's object layout alone costs, nothing else added.
 */
function lean(ratePerSec: number, jobs: number, objects: boolean): { nsPerJob: number; checksum: number } {
  const random = new RandomSource(1);
  const arrivals = random.stream('arrivals');
  const duration = sampler({ dist: 'lognormal', medianMs: 1000, p95Ms: 3000 }, random.stream('service'));
  const workers = Math.ceil(ratePerSec * 2.5) + 10;
  const rec = new Float64Array(jobs * REC);
  const next = new Int32Array(jobs).fill(-1);
  const heads = new Int32Array(WHEEL).fill(-1);
  const tails = new Int32Array(WHEEL).fill(-1);
  const used = new Int32Array(WHEEL >>> 5); // bit s: slot s holds jobs (the loop skips empty ms)
  const idle = new Int32Array(workers);
  for (let w = 0; w < workers; w++) idle[w] = workers - 1 - w;
  let idleTop = workers;
  const queue = new Int32Array(jobs); // FIFO of jobs waiting for a worker (none with enough workers)
  let qHead = 0;
  let qTail = 0;
  let retainedFrom = 0; // oldest job still retained
  let checksum = 0;
  const meanGapMs = 1000 / ratePerSec;
  const jobObjects: (ReturnType<typeof jobObject> | undefined)[] = objects ? new Array(jobs).fill(undefined) : [];
  const workerObjects = objects ? Array.from({ length: workers }, (_, n) => workerObject(n)) : [];

  const start = (j: number, now: number) => {
    const w = idle[--idleTop]!;
    rec[j * REC + 1] = now;
    rec[j * REC + 3] = w;
    if (objects) {
      const o = jobObjects[j]!;
      o.status = 'IN_PROGRESS';
      o.startedAtMs = now;
      o.worker = w;
      const wo = workerObjects[w]!;
      wo.state = 'running';
      wo.job = j;
      wo.seq++;
    }
    const at = now + Math.max(1, duration()); // a later slot than the one being run
    const s = at & (WHEEL - 1); // durations stay far below the wheel's 16 s span here
    if (tails[s]! < 0) {
      heads[s] = j;
      used[s >>> 5]! |= 1 << (s & 31);
    } else next[tails[s]!] = j;
    tails[s] = j;
  };

  const t0 = process.hrtime.bigint();
  let sent = 0;
  let arrivalAt = 0;
  for (let now = 0; sent < jobs || qHead < qTail || idleTop < workers; now++) {
    // Jobs ending at `now`: the worker goes back to the stack and takes a waiting job, if any.
    const s = now & (WHEEL - 1);
    for (let j = heads[s]!; j >= 0; ) {
      const n = next[j]!;
      rec[j * REC + 2] = now;
      checksum += rec[j * REC + 1]! - rec[j * REC]!;
      if (objects) {
        const o = jobObjects[j]!;
        o.status = 'COMPLETED';
        o.executionTimeMs = now - o.startedAtMs;
        jobObjects[j] = undefined;
        const wo = workerObjects[o.worker]!;
        wo.state = 'idle';
        wo.job = -1;
        wo.idleSinceMs = now;
      }
      idle[idleTop++] = rec[j * REC + 3]!;
      if (qHead < qTail) start(queue[qHead++]!, now);
      j = n;
    }
    if (heads[s]! >= 0) {
      heads[s] = tails[s] = -1;
      used[s >>> 5]! &= ~(1 << (s & 31));
    }
    // Arrivals due at `now`.
    while (sent < jobs && arrivalAt < now + 1) {
      const j = sent++;
      rec[j * REC] = now;
      if (objects) jobObjects[j] = jobObject(j, now);
      if (idleTop > 0) start(j, now);
      else queue[qTail++] = j;
      arrivalAt += -meanGapMs * Math.log(1 - arrivals.next());
    }
    // Retention: results older than 30 min are dropped (their records left as they are).
    while (retainedFrom < sent && rec[retainedFrom * REC + 2]! > 0 && rec[retainedFrom * REC + 2]! + RETENTION_MS <= now) retainedFrom++;
    // Skip to the next ms with work: the next arrival or the next used slot, whichever is first.
    const due = sent < jobs ? Math.floor(arrivalAt) : Infinity;
    const slot = nextUsed(used, now + 1);
    const to = Math.min(due, slot < 0 ? Infinity : now + 1 + ((slot - ((now + 1) & (WHEEL - 1)) + WHEEL) & (WHEEL - 1)));
    if (to === Infinity) {
      if (qHead < qTail || idleTop < workers) throw new Error('lean core: jobs left with nothing scheduled');
      break;
    }
    now = to - 1;
  }
  const ns = Number(process.hrtime.bigint() - t0);
  return { nsPerJob: ns / jobs, checksum: checksum + retainedFrom };
}

function main(): void {
  const jobs = Number(process.argv[2] ?? 2_000_000);
  const runs = Number(process.argv[3] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const rates = [100, 1000, 10_000];
  const models = ['lean', 'objects', 'core'];
  const ns = new Map<string, number[]>();
  // Each measurement in its own process; within a round the rates and models alternate, so a slow
  // moment of the machine hits every column rather than one.
  for (let r = 0; r < runs; r++) {
    for (const rate of rates) {
      for (const model of r % 2 === 0 ? models : [...models].reverse()) {
        const out = spawnSync(process.execPath, [self, '--child', model, String(rate), String(jobs)], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const key = `${model} ${rate}`;
        ns.set(key, [...(ns.get(key) ?? []), (JSON.parse(out.stdout.trim()) as { nsPerJob: number }).nsPerJob]);
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const m = (model: string, rate: number) => median(ns.get(`${model} ${rate}`)!);
  console.log(`Growth with the arrival rate, ${jobs} jobs per run, median of ${runs} alternating runs (ns per job of wall time):`);
  console.log('| rate | lean ns/job | vs 100/s | lean + job and worker objects ns/job | vs 100/s | sim-core ns/job | vs 100/s |');
  console.log('|---|---|---|---|---|---|---|');
  for (const rate of rates) {
    const cells = models.map((model) => `${m(model, rate).toFixed(0)} | ${(m(model, 100) / m(model, rate)).toFixed(2)}`);
    console.log(`| ${rate}/s | ${cells.join(' | ')} |`);
  }
  const names: Record<string, string> = { lean: 'lean loop', objects: 'lean loop + job and worker objects', core: 'sim-core' };
  for (const model of models) {
    const growth = (m(model, 100) / m(model, 10_000)).toFixed(2);
    recordFigure(
      'core-ceiling',
      `${names[model]}: ns per job at 100 → 10 000 jobs/s (growth)`,
      `${formatNumber(m(model, 100))} → ${formatNumber(m(model, 10_000))} ns (${growth})`,
      model === 'core' ? 'flat: 1.00' : undefined,
    );
  }
}

async function child(model: string, rate: number, jobs: number): Promise<void> {
  if (model === 'core') {
    console.log(JSON.stringify({ nsPerJob: ((await simCore(rate, jobs)).wallSeconds * 1e9) / jobs }));
    return;
  }
  // The checksum (queue delays read back at each run's end, as the core reads a job's times) is
  // printed so that those reads are part of what is measured.
  console.log(JSON.stringify(lean(rate, jobs, model === 'objects')));
}

if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
else main();

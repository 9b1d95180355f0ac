/**
 * The HTTP generator of `loadlab run`: against a trivial local node:http server (its own
 * process), the highest open-model rate whose arrivals go out with p99 send lag under 5 ms
 * (GENERATOR_P99_MS: the generator paces on a whole-ms timer, so about 1 ms of lag is its design)
 * and are all answered, next to autocannon's closed-model maximum against the same server in the
 * same run, and undici's own ceilings beside them (spin-paced, p99 under 1 ms): a closed loop on
 * a bare undici Pool (same connections, no runner), also as a ratio to autocannon, and an open
 * loop on a bare Pool at each step's rate (what undici itself holds in an open model here), and
 * the same open loop on raw sockets (socket-ceiling.ts: what is left below undici). Send lag is
 * measured in fractional ms: intended time of each arrival → the moment undici writes its
 * request to the socket (the lag to the moment it was handed to undici is printed too; undici
 * may write later).
 *
 * On a shared machine the operating system alone stalls any process for a few ms now and then;
 * the load average is printed, the floor (p99 lag at 500/s, the generator nearly idle) first,
 * and a second figure takes "held" as p99 ≤ floor + 1 ms. A rate counts as held only if every
 * lower step held too. autocannon and the bare undici loop are measured before and after the
 * steps; ratios divide by the higher of each. Each step is a fresh run whose pool connections
 * are opened before its clock starts (`preconnect`, no request sent); each step also prints the
 * p99 of the arrivals after its first 0.5 s and the scavenges (young-generation GCs) it saw; the
 * headline uses the whole step.
 * Usage:
 *   node dist/bench/runner-http.js [secondsPerStep=3]
 */
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import type { Dispatcher } from 'undici';
import { DEFAULT_CONNECTIONS, HttpTarget, type HttpTargetOptions } from '../src/load/targets/http/http-target.js';
import { runScenario } from '../src/load/run-scenario.js';
import { scenarioSchema } from '../src/load/scenario/schema.js';
import { socketOpen } from './socket-ceiling.js';
import { closedModel, startTrivialServer } from './trivial-server.js';
import { undiciClosed, undiciOpen } from './undici-ceiling.js';
import { formatNumber } from './figures-table.js';
import { recordFigure } from './figures.js';

/**
 * A HttpTarget that measures each arrival's send lag: from its intended time (the event's time
 * on the target's queue, fractional ms) to the moment undici writes its request to the socket
 * (the handler's `onConnect`, which undici calls just before); and the lag to the moment it was
 * handed to undici (`pool.dispatch`), which undici 7 may write a little later (on a keep-alive
 * socket that was idle, after the event loop's poll phase). It watches by wrapping its pool's
 * `dispatch` and each request handler's `onConnect` once (handlers are reused): the target
 * itself has no hook for it.
 */
class LagTarget extends HttpTarget {
  /** Preallocated (no garbage of their own during the run), per arrival: */
  readonly lags: Float64Array;
  readonly handed: Float64Array;
  readonly times: Float64Array;
  n = 0;
  /** Which arrival each handler in flight carries (a handler is reused: the set stays small). */
  private readonly marks = new Map<Dispatcher.DispatchHandler, number>();
  constructor(url: string, opts: HttpTargetOptions, arrivals: number) {
    super(url, opts);
    this.lags = new Float64Array(arrivals + 16);
    this.handed = new Float64Array(arrivals + 16);
    this.times = new Float64Array(arrivals + 16);
    const dispatch = this.pool.dispatch.bind(this.pool);
    this.pool.dispatch = (wire, x) => {
      this.handing(x);
      return dispatch(wire, x);
    };
  }
  private handing(x: Dispatcher.DispatchHandler): void {
    const at = this.queue.runningAtMs;
    const i = this.n;
    if (i < this.lags.length) {
      this.handed[i] = this.now() - at;
      this.lags[i] = Infinity; // until written
      this.times[i] = at;
      this.n++;
    }
    if (!this.marks.has(x)) {
      // undici calls onConnect just before it writes the request to the socket.
      const onConnect = x.onConnect!.bind(x);
      x.onConnect = (abort) => {
        this.written(this.marks.get(x)!);
        onConnect(abort);
      };
    }
    this.marks.set(x, i);
  }
  private written(i: number): void {
    if (i < this.n && this.lags[i] === Infinity) this.lags[i] = this.now() - this.times[i]!;
  }
}

/** Scavenges (minor GCs) seen, with their total pause: each one holds every send due meanwhile. */
const scavenges = { count: 0, ms: 0, observer: undefined as PerformanceObserver | undefined };

function observeScavenges(): void {
  scavenges.observer ??= new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if ((e as unknown as { detail?: { kind?: number } }).detail?.kind !== perfConstants.NODE_PERFORMANCE_GC_MINOR) continue;
      scavenges.count++;
      scavenges.ms += e.duration;
    }
  });
  scavenges.observer.observe({ entryTypes: ['gc'] });
}

interface Step {
  ratePerSec: number;
  /** Intended time → written to the socket. */
  p99LagMs: number;
  /** Intended time → handed to undici. */
  p99HandedMs: number;
  /** p99 of the arrivals after the step's first 0.5 s (sockets open, code warm). */
  p99SteadyMs: number;
  scavenges: number;
  scavengeMs: number;
  maxLagMs: number;
  answered: number;
  intended: number;
  ok: boolean;
  /** All answered and p99 within `floor + 1 ms`. */
  okOverFloor: boolean;
}

/** The generator's send lag counts as held below this p99 (ms), the lateness target of generator-vs-peers. */
const GENERATOR_P99_MS = 5;

export async function openModel(url: string, ratePerSec: number, seconds: number, connections: number, floorMs = 0): Promise<Step> {
  const sc = scenarioSchema.parse({
    name: 'http-generator',
    durationMs: seconds * 1000,
    drainMs: 5000,
    endpoint: { id: 'ep' },
    traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec }, client: { behaviour: 'health', timeoutMs: 5000 } }],
  });
  let t: LagTarget | undefined;
  observeScavenges();
  const gc0 = { count: scavenges.count, ms: scavenges.ms };
  const r = await runScenario(sc, {
    target: () =>
      (t = new LagTarget(`${url}/v2`, { url: `${url}/v2`, apiKey: 'k', endpointId: 'ep', connections, preconnect: connections }, ratePerSec * seconds)),
  });
  const all = t!.lags.subarray(0, t!.n);
  const times = t!.times.subarray(0, t!.n);
  if (process.env.LAGDEBUG) {
    const per: Record<number, number> = {};
    all.forEach((l, i) => {
      const s = Math.floor(times[i]! / 250);
      per[s] = Math.max(per[s] ?? 0, +l.toFixed(2));
    });
    console.log('max lag per 250 ms', JSON.stringify(per));
  }
  const steady = all.filter((_, i) => times[i]! >= 500).sort();
  const lags = all.slice().sort();
  const p99 = lags[Math.floor(lags.length * 0.99)] ?? 0;
  const handed = t!.handed.subarray(0, t!.n).slice().sort();
  const p99Steady = steady[Math.floor(steady.length * 0.99)] ?? 0;
  const answered = r.operations.health?.byStatus['200'] ?? 0;
  const intended = r.arrivals.intended;
  const allAnswered = answered >= intended * 0.999;
  return {
    ratePerSec,
    p99LagMs: +p99.toFixed(3),
    p99HandedMs: +(handed[Math.floor(handed.length * 0.99)] ?? 0).toFixed(3),
    p99SteadyMs: +p99Steady.toFixed(3),
    maxLagMs: +(lags.at(-1) ?? 0).toFixed(3),
    scavenges: scavenges.count - gc0.count,
    scavengeMs: +(scavenges.ms - gc0.ms).toFixed(1),
    answered,
    intended,
    ok: p99 < GENERATOR_P99_MS && allAnswered,
    okOverFloor: p99 <= floorMs + 1 && allAnswered,
  };
}

/**
 * The generator's pool: `loadlab run`'s default. An open model needs connections for its
 * concurrency (rate × response time) plus headroom; with 64 a stall of the server or of the
 * generator filled them at 20 000/s and arrivals queued in the pool (handed to undici on time,
 * written hundreds of ms late).
 */
const OPEN_CONNECTIONS = DEFAULT_CONNECTIONS;

/**
 * The closed-model maxima with 10 and with 64 connections, the better one each: autocannon's,
 * and a bare undici Pool's (undici's own ceiling), measured alternately.
 */
async function closedMax(url: string, seconds: number): Promise<{ autocannon: number; undici: number }> {
  const a10 = await closedModel(url, 10, seconds);
  const u10 = await undiciClosed(url, 10, seconds);
  const u64 = await undiciClosed(url, 64, seconds);
  const a64 = await closedModel(url, 64, seconds);
  return { autocannon: Math.max(a10, a64), undici: Math.max(u10, u64) };
}

function describe(s: Step, bare: { p99LagMs: number; ok: boolean }, sock: { p99LagMs: number; ok: boolean }): string {
  const verdict = s.ok ? 'held' : s.okOverFloor ? 'held over the floor' : 'not held';
  return `  open model ${s.ratePerSec}/s: p99 send lag ${s.p99LagMs} ms (handed to undici ${s.p99HandedMs}; after the first 0.5 s ${s.p99SteadyMs}; max ${s.maxLagMs}; ${s.scavenges} scavenges, ${s.scavengeMs} ms), ${s.answered}/${s.intended} answered → ${verdict}; bare undici open loop p99 ${bare.p99LagMs} ms → ${bare.ok ? 'held' : 'not held'}; raw socket open loop p99 ${sock.p99LagMs} ms → ${sock.ok ? 'held' : 'not held'}`;
}

const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (import.meta.url === `file://${process.argv[1]}`) {
  const seconds = Number(process.argv[2] ?? 3);
  console.log(`load average ${loadAverage()} (1, 5, 15 min) on ${cpus().length} CPUs: on a shared machine the figures mean little above ~1.5`);
  const { url, child } = await startTrivialServer();
  try {
    const before = await closedMax(url, seconds);
    const closedBefore = before.autocannon;
    console.log(`closed model (max of 10 and 64 connections): autocannon ${closedBefore} requests/s, bare undici Pool ${before.undici}`);
    // Warm-up, not counted: the code at a high rate (optimised for it), then at a low one.
    await openModel(url, Math.round(closedBefore / 200) * 100, 2, OPEN_CONNECTIONS);
    await openModel(url, 2000, 1, OPEN_CONNECTIONS);
    const floor = (await openModel(url, 500, seconds, OPEN_CONNECTIONS)).p99LagMs;
    console.log(`floor: p99 send lag at 500/s (the generator idle; what the machine's scheduling costs) ${floor} ms`);
    // Rates as fractions of the closed-model maximum, each step a fresh run (its sockets opened
    // before its clock starts). A rate counts as held only if every lower step held too.
    const steps: Step[] = [];
    /** The bare undici open loop at the same rates, right after each step. */
    const bare: { ratePerSec: number; ok: boolean }[] = [];
    const sockets: { ratePerSec: number; ok: boolean }[] = [];
    const run = async (f: number): Promise<Step> => {
      const rate = Math.round((closedBefore * f) / 100) * 100;
      const st = await openModel(url, rate, seconds, OPEN_CONNECTIONS, floor);
      const b = await undiciOpen(url, rate, seconds, OPEN_CONNECTIONS);
      const k = await socketOpen(url, rate, seconds, OPEN_CONNECTIONS);
      console.log(describe(st, b, k));
      steps.push(st);
      bare.push({ ratePerSec: rate, ok: b.ok });
      sockets.push({ ratePerSec: rate, ok: k.ok });
      return st;
    };
    let lastKept = 0;
    for (const f of [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2]) {
      const st = await run(f);
      // Kept up: every arrival answered within the run and no growing backlog (p99 lag < 50 ms).
      if (st.answered < st.intended * 0.999 || st.p99LagMs >= 50) break;
      lastKept = f;
    }
    // Half a step above the highest that held, to narrow the figure.
    const upTo = <S extends { ratePerSec: number }>(of: S[], ok: (st: S) => boolean): number => {
      let f = 0;
      for (const st of [...of].sort((x, y) => x.ratePerSec - y.ratePerSec))
        if (ok(st)) f = st.ratePerSec;
        else break;
      return f;
    };
    const heldUpTo = (ok: (st: Step) => boolean): number => upTo(steps, ok);
    const h = heldUpTo((st) => st.ok) / closedBefore;
    if (h > 0 && h + 0.05 <= lastKept + 0.1) await run(h + 0.05);
    const after = await closedMax(url, seconds);
    const closed = Math.max(closedBefore, after.autocannon);
    const undici = Math.max(before.undici, after.undici);
    console.log(
      `closed model again after the steps: autocannon ${after.autocannon} requests/s, bare undici Pool ${after.undici}; the ratios below divide by the higher of each`,
    );
    console.log(`bare undici Pool closed loop (undici's own ceiling, no runner): ${undici} requests/s = ${(undici / closed).toFixed(2)} × autocannon`);
    recordFigure('runner-http', 'autocannon closed-model maximum (trivial server)', `${formatNumber(closed)} req/s`);
    recordFigure('runner-http', 'send-lag floor: p99 at 500 req/s', `${floor} ms`);
    const rel = (rate: number) => `${formatNumber(rate)} req/s = ${(rate / closed).toFixed(2)}×`;
    recordFigure('runner-http', `generator open model, p99 send lag < ${GENERATOR_P99_MS} ms, × autocannon`, rel(heldUpTo((st) => st.ok)));
    recordFigure(
      'runner-http',
      'generator open model, kept up (all answered, p99 < 50 ms), × autocannon',
      rel(heldUpTo((st) => st.answered >= st.intended * 0.999 && st.p99LagMs < 50)),
    );
    const line = (what: string, rate: number) =>
      console.log(`open-model maximum ${what}: ${rate} requests/s = ${(rate / closed).toFixed(2)} × autocannon (${(rate / undici).toFixed(2)} × bare undici)`);
    line(
      `with p99 send lag < ${GENERATOR_P99_MS} ms`,
      heldUpTo((st) => st.ok),
    );
    line(
      `with p99 send lag ≤ floor + 1 ms (${(floor + 1).toFixed(2)} ms)`,
      heldUpTo((st) => st.okOverFloor),
    );
    line(
      'kept up (all answered, p99 lag < 50 ms)',
      heldUpTo((st) => st.answered >= st.intended * 0.999 && st.p99LagMs < 50),
    );
    const bareHeld = upTo(bare, (b) => b.ok);
    const bareAll = bare.length > 0 && bare.every((b) => b.ok);
    console.log(
      `bare undici open loop (undici's own open-model ceiling, no runner) with p99 send lag < 1 ms: ${bareAll ? '≥ ' : ''}${bareHeld} requests/s = ${(bareHeld / closed).toFixed(2)} × autocannon; the generator's: ${(heldUpTo((st) => st.ok) / Math.max(bareHeld, 1)).toFixed(2)} × of it`,
    );
    const sockHeld = upTo(sockets, (k) => k.ok);
    recordFigure('runner-http', 'bare undici open loop, p99 send lag < 1 ms, × autocannon', `${bareAll ? '≥ ' : ''}${rel(bareHeld)}`);
    recordFigure(
      'runner-http',
      'raw socket open loop, p99 send lag < 1 ms, × autocannon',
      `${sockets.length > 0 && sockets.every((k) => k.ok) ? '≥ ' : ''}${rel(sockHeld)}`,
    );
    console.log(
      `raw socket open loop (the socket's own ceiling, no HTTP client) with p99 send lag < 1 ms: ${sockets.length > 0 && sockets.every((k) => k.ok) ? '≥ ' : ''}${sockHeld} requests/s = ${(sockHeld / closed).toFixed(2)} × autocannon`,
    );
    console.log(`floor ${floor} ms; load average at the end ${loadAverage()}`);
  } finally {
    child.kill('SIGTERM');
  }
}

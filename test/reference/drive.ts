/**
 * Runs one case on the real core (through the in-process API) and on the reference model, step by
 * step, and reports the first step where they answer differently: a request's status code and
 * body (error bodies by `code` and `cause`), an answer to a held request (when and what), the
 * `/health` body, and every job's status body (or its absence).
 *
 * Core job ids are mapped to model ids (`#index`) by submission order. The core is read without
 * requests for the per-step checks (`ep.jobs.get`, `ep.status`, `ep.health`), so that checking
 * uses up no rate budget.
 */
import { isDeepStrictEqual } from 'node:util';
import type { ApiRequest, ApiResponse } from '../../src/api/types.js';
import { harness, KEY } from '../helpers/harness.js';
import { coreConfig, modelConfig, requestsOf, type RefCase } from './commands.js';
import { RefModel, type RefRequest } from './model.js';

export type CaseResult = { ok: true; steps: number } | { ok: false; step: number; what: string; core: unknown; model: unknown };

interface Late {
  req: number;
  atMs: number;
  status: number;
  body: unknown;
  /** An OpenAI completion's answer as the model writes it (chatOf). */
  chat?: unknown;
  /** A load-balancing endpoint's answer as the model writes it (lbOf). */
  lb?: unknown;
}

/**
 * A load-balancing endpoint's answer as the model writes it: the body the worker or the balancer
 * gave and the worker its X-Runpod-Worker-Id names (none when no worker had the request); an API
 * error (a malformed header) by code.
 */
function lbOf(res: ApiResponse): { status: number; body: unknown } {
  const b = JSON.parse(JSON.stringify(res.body ?? null)) as Record<string, unknown>;
  if (typeof b.code === 'string') return { status: res.status, body: { code: b.code } };
  const worker = res.headers?.['x-runpod-worker-id'];
  return { status: res.status, body: { answer: b, ...(worker !== undefined ? { worker } : {}) } };
}

/**
 * A 200 OpenAI answer as the model writes it: plain, the finish reason and token count; streamed
 * (events with the virtual ms each was sent), each token's instant, how the stream ended (finish
 * reason, or the error code) and the usage chunk's count if any; with prefix caching the usage's
 * cached prompt tokens (`cached`).
 */
function chatOf(res: ApiResponse, nowMs: number): unknown {
  if (res.status !== 200) return undefined;
  const events = res.feed ? res.feed.events : res.sse;
  if (!events) {
    const b = res.body as { choices: { finish_reason: string }[]; usage: { completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } } };
    const cached = b.usage.prompt_tokens_details?.cached_tokens;
    return { finish: b.choices[0]!.finish_reason, tokens: b.usage.completion_tokens, ...(cached !== undefined ? { cached } : {}) };
  }
  const at = res.feed ? res.feed.atMs : events.map(() => nowMs);
  const out: Record<string, unknown> = { tokensAt: [], end: undefined };
  events.forEach((e, i) => {
    if (e === '[DONE]') return;
    const c = JSON.parse(e);
    if (c.error) out.end = c.error.code;
    else if (c.usage) {
      out.usage = c.usage.completion_tokens;
      if (c.usage.prompt_tokens_details) out.cached = c.usage.prompt_tokens_details.cached_tokens;
    } else if (c.choices[0].finish_reason) out.end = c.choices[0].finish_reason;
    else (out.tokensAt as number[]).push(at[i]!);
  });
  return out;
}

const UNKNOWN_ID = 'no-such-job';
/** FACTS "Response bodies": a UUID v4 shape with `-u1`; `/runsync` ids start with `sync-`. */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-u1$/;
const SYNC_ID = /^sync-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-u1$/;

/** `tally`: counts answers by operation, status and job status or error code (coverage). */
export function runCase(generated: RefCase, tally?: Map<string, number>): CaseResult {
  // Plain JSON, as a kept regression is (fast-check builds some objects without a prototype).
  const c = JSON.parse(JSON.stringify(generated)) as RefCase;
  const h = harness(coreConfig(c.config), { seed: c.config.seed });
  if (c.config.listen) h.sim.bus.on(() => {});
  const model = new RefModel(modelConfig(c.config));
  const ep = h.ep;
  const coreIds: string[] = [];
  const indexOf = new Map<string, number>();
  const late: Late[] = [];
  let reqNo = 0;
  let withdrawn = 0;

  /** A core body as the model writes it: plain JSON, ids as `#index`, errors by code (OpenAI's `error.code`) and cause. */
  const norm = (r: { status: number; body?: unknown; chat?: unknown; lb?: unknown }): { status: number; body: unknown } => {
    if (r.chat !== undefined) return { status: r.status, body: r.chat };
    if (r.lb !== undefined) return { status: r.status, body: r.lb };
    const b = JSON.parse(JSON.stringify(r.body ?? null)) as Record<string, unknown> | null;
    if (r.status !== 200 && b) {
      const code = typeof b.error === 'object' && b.error !== null ? (b.error as { code: unknown }).code : b.code;
      return { status: r.status, body: b.cause ? { code, cause: b.cause } : { code } };
    }
    if (b && typeof b.id === 'string') b.id = indexOf.has(b.id) ? `#${indexOf.get(b.id)}` : `?${b.id}`;
    return { status: r.status, body: b };
  };

  const send = (r: RefRequest, n: number): ApiResponse | undefined => {
    const id = 'job' in r ? (r.job < 0 ? UNKNOWN_ID : coreIds[r.job]!) : undefined;
    const path =
      r.op === 'lb' ? `/lb/ep${r.path}` : r.op === 'openai' ? '/v2/ep/openai/v1/chat/completions' : `/v2/ep/${r.op}${id !== undefined ? `/${id}` : ''}`;
    const method = r.op === 'health' || r.op === 'status' || r.op === 'status-sync' || (r.op === 'lb' && r.path === '/ping') ? 'GET' : 'POST';
    const query: Record<string, string> = {};
    if ((r.op === 'runsync' || r.op === 'status-sync') && r.wait !== undefined) query.wait = String(r.wait);
    if (r.op === 'status' && r.ttl !== undefined) query.ttl = String(r.ttl);
    const req: ApiRequest = {
      method,
      path,
      query,
      authorization: `Bearer ${KEY}`,
      ...('body' in r ? { body: r.body } : {}),
      ...(r.op === 'lb' && r.affinity !== undefined ? { workerAffinity: r.affinity } : {}),
    };
    let now: ApiResponse | undefined;
    let sync = true;
    h.api.handle(req, (res) => {
      if (sync) now = res;
      else if (r.op === 'lb') late.push({ req: n, atMs: h.sim.nowMs, status: res.status, body: undefined, lb: lbOf(res).body });
      // A streamed answer counts once its stream ended (the model answers then).
      else if (res.feed)
        res.feed.listen(
          () => {},
          () => late.push({ req: n, atMs: h.sim.nowMs, status: res.status, body: undefined, chat: chatOf(res, h.sim.nowMs) }),
        );
      else late.push({ req: n, atMs: h.sim.nowMs, status: res.status, body: res.body, chat: r.op === 'openai' ? chatOf(res, h.sim.nowMs) : undefined });
    });
    sync = false;
    return now;
  };

  for (let step = 0; step < c.cmds.length; step++) {
    const cmd = c.cmds[step]!;
    const fail = (what: string, core: unknown, m: unknown): CaseResult => ({ ok: false, step, what, core, model: m });
    if (cmd.t === 'advance') {
      model.advance(cmd.ms);
      h.advance(cmd.ms);
    }
    for (const r of requestsOf(cmd, model.jobs.length, () => model.newestFailed())) {
      const n = reqNo++;
      const jobsBefore = model.jobs.length;
      const seqBefore = ep.jobs.endSeq;
      const m = model.request(r, n);
      const core = send(r, n);
      if (ep.jobs.endSeq !== seqBefore) {
        const id = ep.jobs.idOf(ep.jobs.objectAt(ep.jobs.endSeq - 1)!);
        if (!(r.op === 'runsync' ? SYNC_ID : RUN_ID).test(id) || indexOf.has(id)) return fail(`request ${n} (${r.op}): id`, id, 'a new id of its kind');
        indexOf.set(id, coreIds.length);
        coreIds.push(id);
      }
      if (model.jobs.length !== jobsBefore + (coreIds.length - jobsBefore)) {
        return fail(`request ${n} (${r.op}): jobs accepted`, coreIds.length, model.jobs.length);
      }
      const got = core && (r.op === 'lb' ? lbOf(core) : norm(core));
      if (tally) countAnswer(tally, r.op, got ?? { status: 0, body: { status: 'held' } });
      if (!isDeepStrictEqual(got, m)) return fail(`request ${n} (${JSON.stringify(r)}) answer`, got, m);
    }
    const coreLate = late.splice(0).map((l) => ({ req: l.req, atMs: l.atMs, ...norm(l) }));
    if (tally) for (const l of coreLate) countAnswer(tally, 'late', l);
    const modelLate = model.late.splice(0);
    if (!near(coreLate, modelLate)) return fail('answers to held requests', coreLate, modelLate);
    if (ep.engines.preemptions !== model.preemptions) return fail('preemptions (KV cache)', ep.engines.preemptions, model.preemptions);
    if (tally && model.preemptions > 0) tally.set('preemptions', (tally.get('preemptions') ?? 0) + 1);
    const health = JSON.parse(JSON.stringify(ep.health()));
    if (!isDeepStrictEqual(health, model.health())) return fail('/health', health, model.health());
    if (tally && health.workers.unhealthy > 0) tally.set('steps with an unhealthy worker', (tally.get('steps with an unhealthy worker') ?? 0) + 1);
    if (tally) countGpus(tally, health.workers);
    if (tally && model.withdrawn > withdrawn)
      tally.set('waiting workers withdrawn', (tally.get('waiting workers withdrawn') ?? 0) + model.withdrawn - withdrawn);
    withdrawn = model.withdrawn;
    for (let k = 0; k < coreIds.length; k++) {
      const j = ep.jobs.get(coreIds[k]!);
      const core = j && norm({ status: 200, body: ep.status(j) }).body;
      const m = model.peek(k);
      if (!isDeepStrictEqual(core, m)) return fail(`job #${k} at ${model.nowMs} ms`, core ?? 'unknown', m ?? 'unknown');
    }
  }
  return { ok: true, steps: c.cmds.length };
}

/**
 * Deep equality of plain JSON where numbers may differ by 1e-6: an engine's token instants are
 * exact sums on one side and `t0 + k × d` on the other (equal on the generated grid; the tolerance
 * keeps the comparison about semantics should a case leave it). Whole-ms values differ by 1 or more.
 */
function near(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 1e-6;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => near(x, b[i]));
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  const ka = Object.keys(a);
  const o = b as Record<string, unknown>;
  return ka.length === Object.keys(o).length && ka.every((k) => Object.hasOwn(o, k) && near((a as Record<string, unknown>)[k], o[k]));
}

/** Counts answers by operation, status code and job status or error code (coverage figures). */
function countAnswer(tally: Map<string, number>, op: string, a: { status: number; body: unknown }): void {
  const b = (a.body ?? {}) as Record<string, unknown>;
  // A load-balancing endpoint's answer: by the balancer's error, or the worker's.
  const lb = b.answer as Record<string, unknown> | undefined;
  if (lb !== undefined) {
    const key = `${op} ${a.status} ${String(lb.error ?? 'answered')}${b.worker !== undefined ? ' by a worker' : ''}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    return;
  }
  const chat = b.end !== undefined ? `stream ${String(b.end)}` : b.finish !== undefined ? `plain ${String(b.finish)}` : undefined;
  const key = `${op} ${a.status} ${chat ?? String(b.cause ?? b.code ?? b.status ?? '')}`;
  tally.set(key, (tally.get(key) ?? 0) + 1);
  if (typeof b.cached === 'number' && b.cached > 0) tally.set('answers with cached prompt tokens', (tally.get('answers with cached prompt tokens') ?? 0) + 1);
}

/** Counts steps with a worker waiting for a host, and with workers placed on a type after the first (coverage figures). */
function countGpus(tally: Map<string, number>, w: { throttled: number; byGpu?: Record<string, Record<string, number>> }): void {
  const up = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  if (w.byGpu === undefined) return;
  up('steps with gpus');
  if (w.throttled > 0) up('steps with a worker waiting for a host');
  const placed = Object.values(w.byGpu).map((c) => Object.values(c).reduce((a, b) => a + b, 0));
  if (placed.slice(1).some((n) => n > 0)) up('steps with a worker on a fallback type');
}

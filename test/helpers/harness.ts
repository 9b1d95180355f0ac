/**
 * In-process test harness: a simulator and its API, with requests whose answers are captured
 * synchronously (`r.res` is set the moment the core answers, in virtual time).
 */
import { Api } from '../../src/api/api.js';
import type { ApiRequest, ApiResponse, Pending } from '../../src/api/types.js';
import type { SimEvent } from '../../src/contract/sim-events.js';
import type { WebhookDelivery, WebhookResult } from '../../src/contract/webhooks.js';
import { parseSimConfig, type EndpointConfigInput, type SimConfigInput } from '../../src/contract/endpoint-config.js';
import { Simulator } from '../../src/sim/simulator.js';

export const KEY = 'test-key';

export interface Reply {
  res: ApiResponse | undefined;
  /** Virtual time of the answer. */
  atMs: number | undefined;
  pending: Pending;
  /** The JSON body (throws if not answered yet). */
  readonly body: any;
  readonly status: number;
}

export function harness(endpoint: Partial<EndpointConfigInput> = {}, sim: Partial<SimConfigInput> = {}) {
  const parsed = parseSimConfig({ seed: 1, apiKeys: [KEY], endpoints: [{ id: 'ep', ...endpoint }], ...sim });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const s = new Simulator(parsed.config);
  const api = new Api(s);
  function capture(method: string, path: string, send: (respond: (res: ApiResponse) => void) => Pending): Reply {
    const r: Reply = {
      res: undefined,
      atMs: undefined,
      pending: { abort() {} },
      get body() {
        if (!this.res) throw new Error(`${method} ${path}: not answered yet`);
        return this.res.body;
      },
      get status() {
        if (!this.res) throw new Error(`${method} ${path}: not answered yet`);
        return this.res.status;
      },
    };
    r.pending = send((res) => {
      r.res = res;
      r.atMs = s.nowMs;
    });
    return r;
  }
  function req(method: string, path: string, body?: unknown, query?: Record<string, string>, authorization: string | undefined = `Bearer ${KEY}`): Reply {
    const r: Reply = {
      res: undefined,
      atMs: undefined,
      pending: { abort() {} },
      get body() {
        if (!this.res) throw new Error(`${method} ${path}: not answered yet`);
        return this.res.body;
      },
      get status() {
        if (!this.res) throw new Error(`${method} ${path}: not answered yet`);
        return this.res.status;
      },
    };
    const full = path.startsWith('/v2/') ? path : `/v2/ep${path}`;
    r.pending = api.handle({ method, path: full, query, authorization, body }, (res) => {
      r.res = res;
      r.atMs = s.nowMs;
    });
    return r;
  }
  const ep = s.endpoints.get('ep')!;
  return {
    sim: s,
    api,
    ep,
    req,
    run: (input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => req('POST', '/run', { input, ...extra }),
    /** POST /runsync (held until the job ends or `?wait=`). */
    runsync: (input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, query?: Record<string, string>) =>
      req('POST', '/runsync', { input, ...extra }, query),
    /** Any request as the transport would build it (`rawBody`, `bodyBytes`, odd headers); path taken as is. */
    raw: (r: ApiRequest) => capture(r.method, r.path, (respond) => api.handle(r, respond)),
    /** Records every domain event from now on. */
    events: () => {
      const seen: SimEvent[] = [];
      s.bus.on((e) => seen.push(e));
      return seen;
    },
    /**
     * Installs a function-based webhook sender that records each attempt (virtual time, delivery)
     * and answers `answer(delivery)` synchronously (default 200).
     */
    webhooks: (answer: (d: WebhookDelivery) => WebhookResult = () => ({ httpStatus: 200 })) => {
      const attempts: { atMs: number; delivery: WebhookDelivery }[] = [];
      s.webhookSender = {
        send(d, done) {
          attempts.push({ atMs: s.nowMs, delivery: d });
          done(answer(d));
        },
      };
      return attempts;
    },
    status: (id: string, query?: Record<string, string>) => req('GET', `/status/${id}`, undefined, query),
    advance: (ms: number) => s.advance(ms),
    at: (ms: number) => s.runUntil(ms),
  };
}

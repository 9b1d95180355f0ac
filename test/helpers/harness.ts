/**
 * In-process test harness: a simulator and its API, with requests whose answers are captured
 * synchronously (`r.res` is set the moment the core answers, in virtual time).
 */
import { Api } from '../../src/api/api.js';
import type { ApiResponse, Pending } from '../../src/api/types.js';
import { parseSimConfig, type EndpointConfigInput, type SimConfigInput } from '../../src/sim/config.js';
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
    status: (id: string, query?: Record<string, string>) => req('GET', `/status/${id}`, undefined, query),
    advance: (ms: number) => s.advance(ms),
    at: (ms: number) => s.runUntil(ms),
  };
}

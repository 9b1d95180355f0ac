import { z } from 'zod';
import { callOptions, commonFields, failureOutcome } from './common.js';
import { compileTemplate } from './template.js';
import { affinityField, StickyWorker } from './affinity.js';
import { balancerEnded, jobEnded } from './submit.js';
import { call, defineBehaviour } from './types.js';
import type { HttpMethod, TargetRequest } from '../targets/target.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const satisfies readonly HttpMethod[];

/**
 * `http`: one plain HTTP request per arrival to a load-balancing endpoint's worker (a custom
 * worker's own route): `method` `path` under the endpoint's base, with a JSON `body`. The expected
 * status ends the session `COMPLETED` (a request a worker served, counted as a job); a 5xx ends it
 * `FAILED` (a job the worker failed; the balancer's 504: `TIMED_OUT`), any other answer as a failed
 * request does (`rejected`, `timeout`). The balancer's own answers (no workers, timeout, dropped)
 * are also counted by cause (report.json `operations.lb.balancerFailed`).
 */
export const httpRequest = defineBehaviour({
  schema: z.strictObject({
    behaviour: z
      .literal('http')
      .meta({ description: "Client behaviour: one HTTP request per arrival to a load-balancing endpoint's worker (method, path, body, expected status)." }),
    on429: commonFields.on429,
    timeoutMs: commonFields.timeoutMs,
    method: z
      .enum(METHODS)
      .default('POST')
      .meta({ description: 'HTTP method. Default: POST.', examples: ['POST', 'GET', 'PUT'] }),
    path: z
      .string()
      .regex(/^\/[^?#\s]*$/, 'a path starting with "/", without query, fragment or spaces')
      .default('/')
      .meta({
        description: "Path under the endpoint's base (`/lb/{id}` in the simulator, `https://{id}.api.runpod.ai` on RunPod). Default: /.",
        examples: ['/generate', '/v1/embeddings'],
      }),
    query: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'Query parameters, sent as they are. Default: none.', examples: [{ mode: 'fast' }] }),
    body: z
      .unknown()
      .optional()
      .meta({
        description:
          'JSON body; strings (keys and values) may hold {{seq}} (the session number) and {{flow}} (the flow name). In the simulator, body.sim steers the custom worker (durationMs, fail, output, outputBytes, crash). Default: none (no body).',
        examples: [{ prompt: 'hello #{{seq}}' }, { prompt: 'x', sim: { durationMs: 2000 } }],
      }),
    ...affinityField,
    expectStatus: z
      .number()
      .int()
      .min(100)
      .max(599)
      .default(200)
      .meta({ description: 'The status of a served request: the session ends COMPLETED on it. Default: 200.', examples: [200, 201, 204] }),
  }),
  operation: () => 'lb',
  create: (spec, env) => {
    const o = callOptions(spec, env);
    const body = spec.body === undefined ? undefined : compileTemplate(spec.body, env.flow.replaceAll('"', ''));
    const bodyBytes = spec.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(spec.body));
    // One request object for every session when the body is constant: a target may keep its own form of it.
    const make = (seq: number): TargetRequest & { bodyBytes: number } => ({
      op: 'lb',
      method: spec.method,
      path: spec.path,
      balancer: true,
      timeoutMs: spec.timeoutMs,
      bodyBytes,
      ...(spec.query ? { query: spec.query } : {}),
      ...(body ? { body: body(seq) } : {}),
    });
    const shared = body === undefined || body.constant ? make(0) : undefined;
    // Against a URL, served requests are kept for `loadlab calibrate` (balancer-observations.ts).
    const obs = env.rec.observations?.balancer;
    // `affinity`: every request asks for the worker of the flow's latest answer (affinity.ts).
    const worker = spec.affinity === undefined ? undefined : new StickyWorker(spec.affinity);
    return (s) => {
      const req = shared ?? make(s.seq);
      call(env, s, o, worker ? worker.request(req) : req, (r, x) => {
        worker?.answered(r.workerId);
        if (r.status === spec.expectStatus) {
          const now = env.target.now();
          obs?.served({ kind: 'http', sentMs: x.sentMs, responseAtMs: now, endMs: now, inFlightSent: x.inFlightAtSend, workerId: r.workerId });
          return jobEnded(env, s, 'COMPLETED');
        }
        if (balancerEnded(env, s, r)) return;
        // Another 5xx: a worker took the request and failed it (the simulator's custom worker answers 500).
        if (r.status >= 500) return jobEnded(env, s, 'FAILED');
        s.end(r.status >= 200 && r.status < 300 ? 'rejected' : failureOutcome(r));
      });
    };
  },
});

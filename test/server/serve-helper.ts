/**
 * A real `serve` instance on 127.0.0.1:0 (manual clock unless told otherwise) and a small HTTP
 * client over undici. Shared by test/server, test/conformance and test/clients.
 */
import { request } from 'undici';
import { parseSimConfig, type EndpointConfigInput, type SimConfigInput } from '../../src/contract/endpoint-config.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/server.js';

export const KEY = 'test-key';

const ROUTE_PREFIX = /^\/(run|runsync|status|status-sync|stream|cancel|retry|purge-queue|health|requests|openai)(\/|\?|$)/;

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON (undefined when the body is not JSON). */
  body: any;
}

export interface CallOptions {
  /** Authorization header; `null` sends none. Default `Bearer KEY`. */
  auth?: string | null;
  headers?: Record<string, string>;
  /** Raw body (sent as is). */
  raw?: string | Buffer;
}

export type Served = Awaited<ReturnType<typeof serve>>;

export async function serve(endpoint: Partial<EndpointConfigInput> = {}, sim: Partial<SimConfigInput> = {}, opts: Partial<Omit<ServeOptions, 'config'>> = {}) {
  const parsed = parseSimConfig({ seed: 1, apiKeys: [KEY], endpoints: [{ id: 'ep', ...endpoint }], ...sim });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  const s: RunningServer = await startServer({ config: parsed.config, port: 0, clock: 'manual', ...opts });
  async function call(method: string, path: string, body?: unknown, o: CallOptions = {}): Promise<Res> {
    // Route names alone (`/run`, `/status/x`) are relative to endpoint `ep`; anything else is a full path.
    const url = ROUTE_PREFIX.test(path) ? `${s.baseUrl}/ep${path}` : s.origin + path;
    const headers: Record<string, string> = { ...o.headers };
    const auth = o.auth === undefined ? `Bearer ${KEY}` : o.auth;
    if (auth !== null) headers.authorization = auth;
    let payload: string | Buffer | undefined = o.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const r = await request(url, { method: method as 'GET', headers, body: payload });
    const text = await r.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.statusCode, headers: r.headers, text, body: json };
  }
  return {
    s,
    call,
    run: (input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => call('POST', '/run', { input, ...extra }),
    status: (id: string, q = '') => call('GET', `/status/${id}${q}`),
    advance: async (ms: number) => {
      const r = await call('POST', '/_sim/advance', { ms });
      if (r.status !== 200) throw new Error(`advance: ${r.status} ${r.text}`);
      return r.body.now as number;
    },
    now: async () => (await call('GET', '/_sim/clock')).body.now as number,
    close: () => s.close(),
  };
}

/**
 * Path segments named like built-in properties (`constructor`, `__proto__`, `toString`, …) are
 * plain unknown names: every one answers a JSON 4xx in every position of a path, with or without
 * a key, and the server answers the next request as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type Served } from './serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve();
});
afterAll(() => t.close());

const names = [...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype)])];
const positions = (x: string) => [`/v2/${x}`, `/v2/ep/${x}`, `/v2/ep/status/${x}`, `/v2/ep/${x}/x`, `/_sim/${x}`, `/${x}`, `/v2/ep/health?${x}=1`];

describe('built-in property names in a path', () => {
  it.each(names)('%s answers 4xx JSON everywhere, with and without a key', async (name) => {
    for (const path of positions(name)) {
      for (const auth of [undefined, null]) {
        for (const method of ['GET', 'POST']) {
          const r = await t.call(method, path, undefined, { auth });
          if (path.includes('?') || path.startsWith('/v2/ep/status/')) {
            // A known route: a job id or a query key of that name is data (404 job, or the route's answer).
            expect(r.status, `${method} ${path}`).toBeLessThan(500);
          } else {
            expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
            expect(r.status, `${method} ${path}`).toBeLessThan(500);
          }
          expect(r.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
          if (r.status >= 400) expect(typeof r.body.code, `${method} ${path}`).toBe('string');
        }
      }
    }
    expect((await t.call('GET', '/health')).status).toBe(200);
  });
});

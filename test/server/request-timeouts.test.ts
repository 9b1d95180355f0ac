/**
 * A request whose head or body does not arrive in time is answered 408 with the JSON error body
 * (not node's bare 400), and the connection is closed. Short timeouts on this server; the test
 * waits for the server's own answer, never on a timer of its own.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEY, serve, type Served } from './serve-helper.js';
import { codeOf, rawExchange } from './raw-http.js';

let t: Served;
beforeAll(async () => {
  t = await serve({}, {}, { bounds: { headersTimeoutMs: 500, requestTimeoutMs: 1000 } });
});
afterAll(() => t.close());

it('slow headers: 408 SRV_ERR_REQUEST_TIMEOUT', async () => {
  const a = await rawExchange(t.s.port, (s) => s.write('GET /v2/ep/health HTTP/1.1\r\nhost: x\r\n'));
  expect(a.status).toBe(408);
  expect(a.head).toMatch(/content-type: application\/json/i);
  expect(codeOf(a)).toBe('SRV_ERR_REQUEST_TIMEOUT');
});

it('slow body: 408 SRV_ERR_REQUEST_TIMEOUT', async () => {
  const a = await rawExchange(t.s.port, (s) =>
    s.write(`POST /v2/ep/run HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"input":`),
  );
  expect(a.status).toBe(408);
  expect(codeOf(a)).toBe('SRV_ERR_REQUEST_TIMEOUT');
  expect((await t.call('GET', '/health')).status).toBe(200);
});

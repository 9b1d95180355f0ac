/**
 * An exception nobody expected (a bug) answers a JSON 500 without a stack or the error's message,
 * and the server goes on answering.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type Served } from './serve-helper.js';

let t: Served;
beforeAll(async () => {
  t = await serve();
});
afterAll(() => t.close());

it('answers 500 SRV_ERR_INTERNAL and lives on', async () => {
  const api = t.s.api;
  // serve's request path: the head is prepared, then the prepared route handles the body.
  const handlePrepared = api.handlePrepared;
  api.handlePrepared = () => {
    throw new Error('boom: secret-token-123');
  };
  try {
    const r = await t.call('GET', '/health');
    expect(r.status).toBe(500);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body).toEqual({ error: 'internal error', code: 'SRV_ERR_INTERNAL' });
    expect(r.text).not.toContain('secret-token-123');
    expect(r.text).not.toContain('.ts:');
  } finally {
    api.handlePrepared = handlePrepared;
  }
  expect((await t.call('GET', '/health')).status).toBe(200);
});

/** `loadlab serve`'s /metrics carries the process's memory (PROCESS_METRIC), read at scrape time. */
import { afterEach, describe, expect, it } from 'vitest';
import { PROCESS_METRIC } from '../../src/contract/metric-names.js';
import { serve, type Served } from '../server/serve-helper.js';

let t: Served | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The value of an unlabelled sample in exposition text, or undefined. */
function sample(text: string, name: string): number | undefined {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

describe('serve /metrics: process memory', () => {
  it('exports resident memory and V8 heap in use as gauges, in bytes', async () => {
    t = await serve({});
    const m = (await t.call('GET', '/metrics', undefined, { auth: null })).text;
    for (const name of [PROCESS_METRIC.residentMemory, PROCESS_METRIC.heapUsed]) {
      expect(m).toContain(`# TYPE ${name} gauge`);
      // A Node process holds at least a few MB; far below that means the value is not bytes.
      expect(sample(m, name), name).toBeGreaterThan(4 * 1024 * 1024);
    }
    expect(sample(m, PROCESS_METRIC.residentMemory)!).toBeGreaterThanOrEqual(sample(m, PROCESS_METRIC.heapUsed)!);
  });

  it('reads the heap again at every scrape', async () => {
    t = await serve({});
    const first = sample((await t.call('GET', '/metrics', undefined, { auth: null })).text, PROCESS_METRIC.heapUsed)!;
    const hold = Array.from({ length: 200_000 }, (_, i) => ({ i })); // ≥ 6 MB of live objects
    const second = sample((await t.call('GET', '/metrics', undefined, { auth: null })).text, PROCESS_METRIC.heapUsed)!;
    expect(hold.length).toBe(200_000);
    expect(second).not.toBe(first);
  });
});

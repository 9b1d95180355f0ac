/**
 * Reading large results costs serve no memory per read: a synthetic output (`input.sim.outputBytes`)
 * is streamed, never built, and other large answers wait for their turn at a server-wide bound
 * of response bytes in flight. The text a client gets is byte for byte what the API answers.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, serve } from './serve-helper.js';
import { startServeChild, type ServeChild } from './serve-child.js';

const MiB = 1024 * 1024;
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

let XS = Buffer.alloc(64 * 1024, 0x78);

/** Reads a body chunk by chunk: its length, its first and last bytes, and whether the middle is all `x`. */
async function scan(body: AsyncIterable<Buffer>, headBytes: number, tailBytes: number) {
  let length = 0;
  let head = '';
  let tail = Buffer.alloc(0);
  let others = 0;
  for await (const c of body) {
    const start = Math.max(0, headBytes - length);
    if (start > 0) head += c.subarray(0, start).toString('latin1');
    // Compared in one call against a run of `x` (a byte loop over 1.3 GB takes half a minute).
    if (XS.length < c.length - start) XS = Buffer.alloc(c.length - start, 0x78);
    if (!c.subarray(start).equals(XS.subarray(0, c.length - start))) for (let i = start; i < c.length; i++) if (c[i] !== 0x78) others++;
    length += c.length;
    tail = Buffer.concat([tail, c]).subarray(-tailBytes);
  }
  // `others` counts the tail's bytes too (the closing quote and the rest after the output).
  return { length, head, tail: tail.toString('latin1'), others };
}

describe('a synthetic output read over HTTP', () => {
  it('is the same text the API answers in-process, streamed or not', async () => {
    const t = await serve();
    try {
      const id = (await t.run({ sim: { outputBytes: 300_000, durationMs: 0 } })).body.id as string;
      await t.advance(1);
      const viaHttp = await t.call('GET', `/status/${id}`);
      const inProcess = await t.s.api.call({ method: 'GET', path: `/v2/ep/status/${id}`, authorization: `Bearer ${KEY}` });
      expect(typeof (inProcess.body as { output: unknown }).output).toBe('string');
      expect(viaHttp.text).toBe(JSON.stringify(inProcess.body));
      expect(Number(viaHttp.headers['content-length'])).toBe(Buffer.byteLength(viaHttp.text));
      let answered = false;
      const sync = t.call('POST', '/runsync', { input: { sim: { outputBytes: 70_000, durationMs: 0 } } }).finally(() => {
        answered = true;
      });
      while (!answered) await t.advance(1); // the runsync may reach the server after an advance
      expect((await sync).body.output).toBe('x'.repeat(70_000));
      // A running job's latest chunk (its progress output) is synthetic too.
      const running = (await t.run({ sim: { outputBytes: 300_000, chunks: 3, durationMs: 3000 } })).body.id as string;
      await t.advance(1500);
      const progress = await t.call('GET', `/status/${running}`);
      const progressInProcess = await t.s.api.call({ method: 'GET', path: `/v2/ep/status/${running}`, authorization: `Bearer ${KEY}` });
      expect(progress.body.status).toBe('IN_PROGRESS');
      expect(progress.body.output).toBe('x'.repeat(100_000));
      expect(progress.text).toBe(JSON.stringify(progressInProcess.body));
    } finally {
      await t.close();
    }
  });
});

describe('memory of serve (child process) under concurrent reads of large results', () => {
  let c: ServeChild;
  beforeAll(async () => {
    c = await startServeChild(['--clock', 'manual', '--api-key', KEY]);
  });
  afterAll(() => c.stop());

  const submit = async (input: unknown) => {
    const r = await request(`${c.origin}/v2/ep/run`, { method: 'POST', headers: auth, body: JSON.stringify({ input }) });
    const id = ((await r.body.json()) as { id: string }).id;
    const a = await request(`${c.origin}/_sim/advance`, { method: 'POST', headers: auth, body: '{"ms":1}' });
    await a.body.dump();
    return id;
  };

  it('20 concurrent reads of one 64 MiB synthetic output raise RSS by < 200 MB', async () => {
    const bytes = 64 * MiB;
    const id = await submit({ sim: { outputBytes: bytes, durationMs: 0 } });
    const before = c.rssMb();
    const reads = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const r = await request(`${c.origin}/v2/ep/status/${id}`, { headers: auth });
        return scan(r.body, 200, 64);
      }),
    );
    const after = c.rssMb();
    console.log(`20 reads of a 64 MiB output: serve RSS ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB`);
    for (const r of reads) {
      expect(r.head).toMatch(new RegExp(`^\\{"id":"${id}","status":"COMPLETED","delayTime":\\d+,"executionTime":\\d+,"workerId":"[^"]+","output":"x`));
      expect(r.tail).toMatch(/x"\}$/);
      expect(r.length - r.head.indexOf('"output":"') - '"output":"'.length - 2).toBe(bytes);
      expect(r.others).toBe(2); // the quote and brace closing the body; every other byte after the head is `x`
    }
    expect(after.peak - before.rss).toBeLessThan(200);
  });

  it('20 concurrent reads of one 8 MiB echoed input raise RSS by < 200 MB', async () => {
    const id = await submit({ text: 'y'.repeat(8 * MiB), sim: { durationMs: 0 } });
    const before = c.rssMb();
    const lengths = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const r = await request(`${c.origin}/v2/ep/status/${id}`, { headers: auth });
        let n = 0;
        for await (const x of r.body) n += (x as Buffer).length;
        return n;
      }),
    );
    const after = c.rssMb();
    console.log(`20 reads of an 8 MiB echo: serve RSS ${before.rss.toFixed(0)} MB before, peak ${after.peak.toFixed(0)} MB`);
    for (const n of lengths) expect(n).toBeGreaterThan(8 * MiB);
    expect(after.peak - before.rss).toBeLessThan(200);
  });
});

/**
 * `/stream/{id}` (spec §4, FACTS): each call drains what was produced since the last call; with
 * nothing new it holds up to `?wait=` (default 10 s); one item carries at most 1 MB (1 000 000 bytes of UTF-8); partial
 * outputs (`input.sim.chunks`) land evenly over the job's duration.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

/** 1 MB, the most output one stream item carries (bytes of UTF-8). */
const MB = 1_000_000;

describe('/stream', () => {
  it('chunks land evenly over the duration; the last one with completion', () => {
    const h = harness();
    const ev = h.events();
    const id = h.run({ sim: { durationMs: 1000, chunks: 4 } }).body.id;
    h.at(2000);
    expect(ev.filter((e) => e.type === 'job.progressed').map((e) => e.atMs)).toEqual([250, 500, 750]);
    expect(ev.find((e) => e.type === 'job.finished')!.atMs).toBe(1000);
    expect(h.req('GET', `/stream/${id}`).body).toEqual({
      id,
      status: 'COMPLETED',
      delayTime: 0,
      stream: [{ output: { chunk: 1, of: 4 } }, { output: { chunk: 2, of: 4 } }, { output: { chunk: 3, of: 4 } }, { output: { chunk: 4, of: 4 } }],
    });
  });

  it('floors chunk times to whole ms', () => {
    const h = harness();
    const ev = h.events();
    h.run({ sim: { durationMs: 1000, chunks: 3 } });
    h.at(1000);
    expect(ev.filter((e) => e.type === 'job.progressed').map((e) => e.atMs)).toEqual([333, 666]);
  });

  it('each call returns only what is new since the last one', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000, chunks: 4 } }).body.id;
    h.at(600);
    expect(h.req('GET', `/stream/${id}`).body).toEqual({
      id,
      status: 'IN_PROGRESS',
      delayTime: 0,
      stream: [{ output: { chunk: 1, of: 4 } }, { output: { chunk: 2, of: 4 } }],
    });
    h.at(800);
    expect(h.req('POST', `/stream/${id}`).body.stream).toEqual([{ output: { chunk: 3, of: 4 } }]);
    h.at(1000);
    expect(h.req('GET', `/stream/${id}`).body).toEqual({ id, status: 'COMPLETED', delayTime: 0, stream: [{ output: { chunk: 4, of: 4 } }] });
    // Drained and ended: answers at once with nothing.
    const r = h.req('GET', `/stream/${id}`);
    expect(r.atMs).toBe(1000);
    expect(r.body.stream).toEqual([]);
  });

  it('with nothing buffered, holds until the next chunk', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000, chunks: 4 } }).body.id;
    h.at(100);
    const r = h.req('GET', `/stream/${id}`);
    expect(r.res).toBeUndefined();
    h.at(249);
    expect(r.res).toBeUndefined();
    h.at(250);
    expect(r.atMs).toBe(250);
    expect(r.body.stream).toEqual([{ output: { chunk: 1, of: 4 } }]);
  });

  it('holds 10 s by default and answers an empty stream', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 60_000 } }).body.id;
    const r = h.req('GET', `/stream/${id}`);
    h.at(9999);
    expect(r.res).toBeUndefined();
    h.at(10_000);
    expect(r.body).toEqual({ id, status: 'IN_PROGRESS', delayTime: 0, stream: [] });
  });

  it('honours ?wait= (1000-300000)', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 600_000 } }).body.id;
    const a = h.req('GET', `/stream/${id}`, undefined, { wait: '1000' });
    const b = h.req('GET', `/stream/${id}`, undefined, { wait: '300000' });
    h.at(1000);
    expect(a.atMs).toBe(1000);
    expect(b.res).toBeUndefined();
    h.at(300_000);
    expect(b.atMs).toBe(300_000);
  });

  it.each([['999'], ['300001'], ['x']])('refuses wait=%s with 400 naming "wait"', (wait) => {
    const h = harness();
    const id = h.run({}).body.id;
    expect(h.req('GET', `/stream/${id}`, undefined, { wait }).body).toMatchObject({ code: 'API_ERR_BAD_REQUEST', field: 'wait' });
  });

  it('a job without chunks streams its final output once, when it completes', () => {
    const h = harness();
    const id = h.run({ v: 1, sim: { durationMs: 3000 } }).body.id;
    const r = h.req('GET', `/stream/${id}`);
    h.at(3000);
    expect(r.atMs).toBe(3000);
    expect(r.body).toEqual({ id, status: 'COMPLETED', delayTime: 0, stream: [{ output: { v: 1, sim: { durationMs: 3000 } } }] });
    expect(h.req('GET', `/stream/${id}`).body.stream).toEqual([]);
  });

  it('a queued job has no delayTime yet', () => {
    const h = harness({ workersMax: 0 });
    const id = h.run({}).body.id;
    const r = h.req('GET', `/stream/${id}`, undefined, { wait: '1000' });
    h.at(1000);
    expect(r.body).toEqual({ id, status: 'IN_QUEUE', stream: [] });
  });

  it('a failed job ends the hold with its error', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 500, fail: 'nope' } }).body.id;
    const r = h.req('GET', `/stream/${id}`);
    h.at(500);
    expect(r.atMs).toBe(500);
    expect(r.body).toEqual({ id, status: 'FAILED', delayTime: 0, error: 'nope', stream: [] });
  });

  it('a cancelled job ends the hold at that instant', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 60_000 } }).body.id;
    const r = h.req('GET', `/stream/${id}`);
    h.at(3000);
    h.req('POST', `/cancel/${id}`);
    expect(r.atMs).toBe(3000);
    expect(r.body).toEqual({ id, status: 'CANCELLED', delayTime: 0, stream: [] });
  });

  it('a 2.5 MB output is split into 3 items of at most 1 MB', () => {
    const h = harness();
    const bytes = 2_500_000;
    const id = h.run({ sim: { outputBytes: bytes, durationMs: 10 } }).body.id;
    h.at(10);
    const items = h.req('GET', `/stream/${id}`).body.stream as { output: string }[];
    expect(items.map((i) => i.output.length)).toEqual([MB, MB, 500_000]);
    expect(items.map((i) => i.output).join('')).toBe(h.status(id).body.output);
  });

  it('an output of exactly 1 MB stays one item; one byte more makes two', () => {
    const h = harness();
    const id = h.run({ sim: { outputBytes: MB, durationMs: 10 } }).body.id;
    const over = h.run({ sim: { outputBytes: MB + 1, durationMs: 10 } }).body.id;
    h.at(20); // one worker: the second job runs 10-20
    expect(h.req('GET', `/stream/${id}`).body.stream).toHaveLength(1);
    expect((h.req('GET', `/stream/${over}`).body.stream as { output: string }[]).map((i) => i.output.length)).toEqual([MB, 1]);
  });

  it('spreads outputBytes over the chunks', () => {
    const h = harness();
    const id = h.run({ sim: { outputBytes: 1000, chunks: 3, durationMs: 300 } }).body.id;
    h.at(300);
    const items = h.req('GET', `/stream/${id}`).body.stream as { output: string }[];
    expect(items.map((i) => i.output.length)).toEqual([333, 333, 334]);
    expect(h.status(id).body.output).toHaveLength(1000);
  });

  it('a chunk over 1 MB is itself split', () => {
    const h = harness();
    const id = h.run({ sim: { outputBytes: 3 * MB, chunks: 2, durationMs: 100 } }).body.id;
    h.at(100);
    const items = h.req('GET', `/stream/${id}`).body.stream as { output: string }[];
    expect(items.map((i) => i.output.length)).toEqual([MB, MB / 2, MB, MB / 2]);
  });

  it('a crash restarts the stream of the re-run', () => {
    const h = harness();
    const id = h.run({ sim: { durationMs: 1000, chunks: 4, crash: true } }).body.id;
    h.at(300);
    expect(h.req('GET', `/stream/${id}`).body.stream).toEqual([{ output: { chunk: 1, of: 4 } }]);
    h.at(1500); // crashed at 500, re-ran 500-1500
    expect(h.req('GET', `/stream/${id}`).body.stream).toHaveLength(4);
  });

  it('answers 404 for an unknown job', () => {
    const h = harness();
    expect(h.req('GET', '/stream/none-u1').status).toBe(404);
  });
});

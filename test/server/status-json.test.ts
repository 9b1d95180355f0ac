/**
 * `serve` writes status bodies by hand (server/status-json.ts): the text must be exactly what
 * `JSON.stringify` gives for the same body, for every state a job can answer in and for values
 * that need escaping.
 */
import { describe, expect, it } from 'vitest';
import { StatusBody } from '../../src/sim/job-body.js';
import { statusJson } from '../../src/server/status-json.js';
import { harness } from '../helpers/harness.js';

const same = (b: unknown) => {
  expect(b).toBeInstanceOf(StatusBody);
  expect(statusJson(b as StatusBody)).toBe(JSON.stringify(b));
};

describe('status bodies written by hand', () => {
  it('match JSON.stringify in every state a job answers in', () => {
    const h = harness({ jobDurationMs: 1000, workersMax: 1, workload: { chunks: 4 } });
    const input = { text: 'quote " backslash \\ newline \n tab \t nul \u0000 é 😀 lone \ud800', n: [1, -0, 1.5, 1e21, 1e-7], nested: { a: null, b: true } };
    const done = h.run(input).body.id;
    const failed = h.run({ sim: { fail: 'out of "memory"\n', durationMs: 10 } }).body.id;
    const crashed = h.run({ sim: { crash: true, durationMs: 400 } }).body.id;
    const queued = h.run({ sim: { outputBytes: 5 } }).body.id;
    same(h.status(done).body); // in progress, with its latest chunk
    same(h.status(queued).body); // in queue
    h.at(500);
    same(h.status(done).body);
    h.at(1000);
    same(h.status(done).body); // completed, echoing the input
    h.at(20_000);
    for (const id of [done, failed, crashed, queued]) same(h.status(id).body);
    expect(h.status(failed).body.error).toBe('out of "memory"\n');
    expect(h.status(crashed).body.retries).toBe(1);
    const cancelled = h.run({}).body.id;
    h.req('POST', `/cancel/${cancelled}`);
    same(h.status(cancelled).body);
  });

  it('write numbers as JSON does and leave out what JSON.stringify leaves out', () => {
    // Fields set in statusBody's order (the only maker of these bodies).
    const b = new StatusBody('0f-u1', 'COMPLETED');
    b.delayTime = NaN;
    b.executionTime = -0;
    b.workerId = 'w"\\';
    b.output = undefined;
    b.error = '\u2028';
    b.retries = Infinity;
    same(b);
    b.output = () => 1; // not JSON: left out, as JSON.stringify does
    same(b);
    b.output = 'x'.repeat(3);
    same(b);
  });
});

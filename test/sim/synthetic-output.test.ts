/**
 * Synthetic outputs (`input.sim.outputBytes`, up to 64 MiB) are spelt out for each answer and not
 * held at full size for the job's retention: otherwise a client polling a few big jobs a second
 * would fill the simulator's memory.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { harness } from '../helpers/harness.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('synthetic outputs', () => {
  it('ten 16 MiB outputs, each answered in full, leave no 160 MiB behind while retained', () => {
    const h = harness({ workersMin: 10, workersMax: 10, coldStartMs: 0 });
    const MiB = 1024 * 1024;
    const ids = Array.from({ length: 10 }, () => h.run({ sim: { durationMs: 10, outputBytes: 16 * MiB } }).body.id as string);
    h.at(1000);
    gc();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().external;
    for (const id of ids) {
      const out = h.status(id).body.output as string;
      expect(out.length).toBe(16 * MiB);
      expect(JSON.stringify(out).length).toBe(16 * MiB + 2); // what a server does with it
    }
    gc();
    const after = process.memoryUsage().heapUsed + process.memoryUsage().external;
    expect(h.status(ids[0]!).body.status).toBe('COMPLETED'); // still retained
    expect(after - before).toBeLessThan(32 * MiB);
  });
});

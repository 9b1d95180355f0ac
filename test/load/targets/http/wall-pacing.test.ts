/**
 * The HTTP target's wall clock: events at fractional-ms times run at their time or after it,
 * never before (an arrival is never sent early), in order, and within about a ms of it (a timer
 * wakes the loop); between them the loop sleeps. No request is sent: only the target's event
 * queue runs.
 */
import { expect, test } from 'vitest';
import { HttpTarget } from '../../../../src/load/targets/http/http-target.js';
import { warmUpHttp } from '../../../../src/load/targets/http/warmup.js';

test('events run at or after their fractional-ms time, in order, the loop idle between them', async () => {
  const t = new HttpTarget('http://127.0.0.1:9/v2', { url: 'http://127.0.0.1:9/v2', apiKey: 'k', endpointId: 'ep' });
  const due: number[] = [];
  const ran: number[] = [];
  // 200 events 0.2–9.6 ms apart (fractions of a ms on purpose), some added while the clock runs.
  let at = 5.3;
  for (let i = 0; i < 200; i++) {
    const when = at;
    const add = () => t.at(when, () => (due.push(when), ran.push(t.now())));
    if (i % 2 === 0) add();
    else t.at(Math.max(0, when - 3), add);
    at += 0.2 + ((i * 7) % 48) / 5;
  }
  // The process's warm-up of the send path (warmup.ts) first: its CPU is not the loop's.
  await warmUpHttp((url) => new HttpTarget(url, { url, apiKey: 'k', endpointId: 'ep' }));
  const cpu0 = process.cpuUsage();
  await t.drive(
    () => due.length === 200,
    5000,
    () => {},
  );
  const cpu = process.cpuUsage(cpu0);
  await t.close();
  expect(due).toEqual([...due].sort((a, b) => a - b));
  for (let i = 0; i < due.length; i++) expect(ran[i]).toBeGreaterThanOrEqual(due[i]!);
  const lags = ran.map((r, i) => r - due[i]!).sort((a, b) => a - b);
  // The median lag, with room for a busy machine; a timer that failed to wake the loop would
  // leave events to the next 5 s drive deadline.
  expect(lags[100]).toBeLessThan(15);
  // Asleep between events: over ~1 s of waiting, far less CPU than wall time (a spin: all of it).
  expect((cpu.user + cpu.system) / 1000).toBeLessThan(0.3 * (at - 5.3));
}, 20_000);

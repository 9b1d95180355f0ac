/** `--start-at`: how far ahead and how late an instant may be, and what is said when it is a little late. */
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { parseStartAt } from '../../src/cli/start-at.js';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

describe('parseStartAt', () => {
  test('ahead (up to 24 h): the instant, no warning; epoch ms too', () => {
    expect(parseStartAt(iso(NOW + 2000), NOW)).toEqual({ atMs: NOW + 2000 });
    expect(parseStartAt(iso(NOW + 24 * 3600_000), NOW)).toEqual({ atMs: NOW + 24 * 3600_000 });
    expect(parseStartAt(String(NOW + 1), NOW)).toEqual({ atMs: NOW + 1 });
  });
  test('up to 5 s late: kept as time 0, with a warning', () => {
    const r = parseStartAt(iso(NOW - 2500), NOW);
    expect(r.atMs).toBe(NOW - 2500);
    expect(r.warning).toMatch(/^--start-at: 2026-11-26T11:59:57\.500Z was 2\.5 s ago; starting at once on that timeline/);
    expect(parseStartAt(iso(NOW - 5000), NOW).warning).toBeDefined();
  });
  test.each([
    [iso(NOW - 5001), /--start-at: .* was 5\.0 s ago; at most 5 s late is accepted/],
    [iso(NOW + 24 * 3600_000 + 1), /--start-at: .* is 24\.0 h ahead; at most 24 h ahead/],
    ['2026-11-26T12:00:00', /--start-at: cannot read .* \(a date-time needs a zone/],
  ])('%s: usage error', (text, msg) => {
    expect(() => parseStartAt(text, NOW)).toThrow(msg);
    try {
      parseStartAt(text, NOW);
    } catch (e) {
      expect(e).toMatchObject({ exitCode: EXIT.USAGE });
    }
  });
});

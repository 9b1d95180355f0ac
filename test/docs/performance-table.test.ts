import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { figuresTable, formatNumber, replaceMarked, TABLE_END, TABLE_START, type Figure } from '../../bench/figures-table.js';

const figures: Figure[] = [
  { bench: 'sim-throughput', name: '100 jobs/s: simulated jobs per wall-second', value: '1 184 000', target: '≥ 1 000 000' },
  { bench: 'http-serve', name: '/run: serve / floor | req/s', value: '0.78×' },
];
const machine = { date: '2026-11-25', cores: 2, node: 'v20.20.2' };

describe('figures table of docs/performance.md', () => {
  it('renders one row per figure with the machine and date', () => {
    const t = figuresTable(figures, machine);
    expect(t).toContain('2026-11-25');
    expect(t).toContain('2 cores');
    expect(t).toContain('Node v20.20.2');
    expect(t).toContain('| `sim-throughput` | 100 jobs/s: simulated jobs per wall-second | 1 184 000 | ≥ 1 000 000 |');
    expect(t).toContain('| `http-serve` | /run: serve / floor \\| req/s | 0.78× |  |'); // a | in a cell is escaped
    expect(t).not.toContain(TABLE_START);
    expect(figuresTable([], { ...machine, loadAverage: 1.234, loadAverageMax: 5.678 })).toContain('load average 1.23 at the start (up to 5.68 during the run)');
  });

  it('replaces exactly the marked region and leaves every other byte as it was', () => {
    const before = '# Performance\n\nText before, with `code` and ünïcode.\n\n';
    const after = '\n\n## After\n\nMore text.\n';
    const doc = `${before}${TABLE_START}\nold table\n| a | b |\n${TABLE_END}${after}`;
    const table = figuresTable(figures, machine);
    const out = replaceMarked(doc, table);
    expect(out.startsWith(`${before}${TABLE_START}`)).toBe(true);
    expect(out.endsWith(`${TABLE_END}${after}`)).toBe(true);
    expect(out).toBe(`${before}${TABLE_START}\n${table}\n${TABLE_END}${after}`);
    expect(out).not.toContain('old table');
    // Writing again with other figures changes only the region; the same figures give the same bytes.
    expect(replaceMarked(out, table)).toBe(out);
    const again = replaceMarked(out, 'x');
    expect(again).toBe(`${before}${TABLE_START}\nx\n${TABLE_END}${after}`);
  });

  it('refuses a document whose markers are missing, repeated or out of order', () => {
    expect(() => replaceMarked('no markers', 'x')).toThrow(/marker/);
    expect(() => replaceMarked(`${TABLE_START}\n`, 'x')).toThrow(/marker/);
    expect(() => replaceMarked(`${TABLE_START}\n${TABLE_END}\n${TABLE_START}\n`, 'x')).toThrow(/more than once/);
    expect(() => replaceMarked(`${TABLE_END}\n${TABLE_START}\n`, 'x')).toThrow(/before/);
  });

  it('groups thousands', () => {
    expect(formatNumber(1184000)).toBe('1 184 000');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(-12345.678, 1)).toBe('-12 345.7');
  });

  it('docs/performance.md has the markers, once each and in order', () => {
    const doc = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(doc.indexOf(TABLE_START, start + 1)).toBe(-1);
    expect(doc.indexOf(TABLE_END, end + 1)).toBe(-1);
    expect(() => replaceMarked(doc, 'x')).not.toThrow();
  });
});

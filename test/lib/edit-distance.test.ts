import { describe, expect, test } from 'vitest';
import { closest, didYouMean, editDistance } from '../../src/lib/edit-distance.js';

describe('edit distance', () => {
  test('counts insertions, deletions and substitutions', () => {
    expect(editDistance('rnu', 'run')).toBe(2);
    expect(editDistance('behavior', 'behaviour')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
  test('suggests the nearest candidate, or none when nothing is close', () => {
    expect(closest('rnu', ['run', 'runsync', 'status'])).toBe('run');
    expect(closest('stauts', ['status', 'stream'])).toBe('status');
    expect(closest('zzzzzzzz', ['run', 'status'])).toBeUndefined();
    expect(didYouMean('behavior', ['behaviour', 'poll'])).toBe('; did you mean "behaviour"?');
    expect(didYouMean('x', [])).toBe('');
  });
});

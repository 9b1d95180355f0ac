/**
 * calibrated.yaml lands in another folder than the scenario it is made from: a replay's relative
 * trace path is rewritten for that folder (still relative), an absolute one is kept, and comments
 * and other keys are left alone.
 */
import { describe, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { rebaseTraceFiles } from '../../src/calibrate/rebase-trace-files.js';

const YAML = `# mine
traffic:
  - name: chat
    arrival: { process: replay, file: traces/azure.csv, format: azure }   # the trace
  - name: abs
    arrival: { process: replay, file: /data/t.csv, format: csv }
  - name: poisson
    arrival: { process: poisson, ratePerSec: 1 }
`;

describe('rebaseTraceFiles', () => {
  test('relative paths follow the file to its new folder; absolute ones and the rest stay', () => {
    const doc = parseDocument(YAML);
    rebaseTraceFiles(doc, 'scenarios', 'reports/x');
    const out = doc.toString({ lineWidth: 0 });
    expect(doc.getIn(['traffic', 0, 'arrival', 'file'])).toBe('../../scenarios/traces/azure.csv');
    expect(doc.getIn(['traffic', 1, 'arrival', 'file'])).toBe('/data/t.csv');
    expect(out).toContain('# mine');
    expect(out).toContain('# the trace');
    expect(out).toContain('arrival: { process: replay, file: ../../scenarios/traces/azure.csv, format: azure }');
  });
  test('the same folder: nothing changes', () => {
    const doc = parseDocument(YAML);
    rebaseTraceFiles(doc, 'a/b', 'a/b/');
    expect(doc.toString({ lineWidth: 0 })).toBe(parseDocument(YAML).toString({ lineWidth: 0 }));
  });
});

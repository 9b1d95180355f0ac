/**
 * The in-process target splits a request's path after the endpoint id (`parseRoute`) instead of
 * building `/v2/{id}{rest}` and splitting that (`parsePath`): both must give the same route, job
 * id and verdict for every path, or in-process runs would route differently from `serve`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePath, parseRoute } from '../../src/api/route-table.js';

const EDGE = [
  '',
  '/',
  '//',
  '/run',
  '/run/',
  '/run/x',
  '/runsync',
  '/status',
  '/status/',
  '/status/abc-u1',
  '/status/abc-u1/',
  '/status/a/b',
  '/stream/id',
  '/cancel/id',
  '/retry/id',
  '/purge-queue',
  '/health',
  '/health/',
  '/requests',
  '/nope',
  '/openai/v1/models',
  '/openai/v1/chat/completions',
  '/openai/v1/completions/',
  '/openai/v2/x',
  'run',
  'x/run',
];

describe('parseRoute', () => {
  it('splits every path after the endpoint id as parsePath splits the whole path', () => {
    for (const rest of EDGE) expect(parseRoute('ep-1', rest), rest).toEqual(parsePath(`/v2/ep-1${rest}`));
  });

  it('agrees with parsePath on random paths built from route names, ids and slashes', () => {
    const seg = fc.constantFrom(
      'run',
      'runsync',
      'status',
      'status-sync',
      'stream',
      'cancel',
      'retry',
      'purge-queue',
      'health',
      'requests',
      'openai',
      'v1',
      'models',
      'chat',
      'completions',
      '',
      'abc-u1',
      'x',
    );
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 5 }), fc.boolean(), fc.boolean(), (segs, lead, trail) => {
        const rest = `${lead ? '/' : ''}${segs.join('/')}${trail ? '/' : ''}`;
        expect(parseRoute('ep', rest)).toEqual(parsePath(`/v2/ep${rest}`));
      }),
      { numRuns: 3000, seed: 7 },
    );
  });
});

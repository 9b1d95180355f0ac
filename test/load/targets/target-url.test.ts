/** Loopback is a parsed address, never a name prefix; shown URLs lose their userinfo. */
import { describe, expect, test } from 'vitest';
import { displayUrl, isLoopback, redactUrl } from '../../../src/load/targets/target-url.js';

describe('isLoopback', () => {
  test.each([
    'http://127.0.0.1:8080/v2',
    'http://127.255.3.4/v2',
    'http://127.1/v2',
    'http://2130706433/v2',
    'http://localhost:1/v2',
    'http://LOCALHOST./v2',
    'http://a.localhost:1/v2',
    'http://[::1]:8080/v2',
    'http://[0:0:0:0:0:0:0:1]/v2',
    'http://[::ffff:127.0.0.1]/v2',
    'http://u:p@127.0.0.1/v2',
  ])('%s is loopback', (u) => expect(isLoopback(u)).toBe(true));
  test.each([
    'http://127.evil.com/v2',
    'http://127.0.0.1.evil.com/v2',
    'http://localhost.evil.com/v2',
    'http://128.0.0.1/v2',
    'http://[::2]/v2',
    'http://[::ffff:10.0.0.1]/v2',
    'http://evil.com/127.0.0.1',
    'http://127.0.0.1@evil.com/v2',
    'not a url',
    '',
  ])('%s is not', (u) => expect(isLoopback(u)).toBe(false));
});

describe('displayUrl', () => {
  test('userinfo goes, the rest stays', () => {
    expect(displayUrl('http://alice:pw@127.0.0.1:8080/v2')).toBe('http://127.0.0.1:8080/v2');
    expect(displayUrl('https://token@api.example.com/v2?x=1')).toBe('https://api.example.com/v2?x=1');
    expect(displayUrl('http://127.0.0.1:8080/v2')).toBe('http://127.0.0.1:8080/v2');
    expect(displayUrl('not//user:pw@host a url')).toBe('not//host a url');
    expect(redactUrl('no route to http://a:b@h/v2 (http://a:b@h/v2)', 'http://a:b@h/v2')).toBe('no route to http://h/v2 (http://h/v2)');
  });
});

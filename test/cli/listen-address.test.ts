/** `--metrics-listen HOST:PORT`: the forms it takes and the exit-2 messages for the rest. */
import { describe, expect, test } from 'vitest';
import { parseListenAddress } from '../../src/cli/live-metrics/listen-address.js';
import type { CliError } from '../../src/cli/exit-codes.js';

function refusal(v: string): CliError {
  try {
    parseListenAddress(v);
  } catch (e) {
    return e as CliError;
  }
  throw new Error(`${v} was accepted`);
}

describe('parseListenAddress', () => {
  test('IPv4, host name, bracketed IPv6, and :PORT for loopback only', () => {
    expect(parseListenAddress('0.0.0.0:9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    expect(parseListenAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseListenAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(parseListenAddress(':9464')).toEqual({ host: '127.0.0.1', port: 9464 });
  });

  test('anything else exits 2 naming the flag', () => {
    for (const v of ['', '9464', 'a b:1', '::1:9464', '[::1]', 'http://127.0.0.1:9464', '[127.0.0.1]:1']) {
      const e = refusal(v);
      expect(e.exitCode, v).toBe(2);
      expect(e.message, v).toMatch(/^--metrics-listen: HOST:PORT/);
    }
    for (const v of ['127.0.0.1:', '127.0.0.1:65536', '127.0.0.1:-1', '127.0.0.1:1e3']) {
      expect(refusal(v).message, v).toMatch(/^--metrics-listen: the port must be an integer from 0 to 65535/);
    }
  });
});

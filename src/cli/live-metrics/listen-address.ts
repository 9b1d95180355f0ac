/**
 * `--metrics-listen HOST:PORT`: where the runner's live /metrics listens (`--webhook-listen`:
 * where its webhook receiver does). `HOST` is an IPv4 address, a host name or a bracketed IPv6
 * address (`[::1]:9464`); `:PORT` alone means 127.0.0.1 (the same default as `serve --host`:
 * nothing is exposed beyond this machine unless asked, e.g. `0.0.0.0:9464`). Port 0 picks a free
 * port (the bound address is printed).
 */
import { isIP } from 'node:net';
import { CliError } from '../exit-codes.js';

export interface ListenAddress {
  host: string;
  port: number;
}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The address, or a CliError (exit 2) naming the flag (`--metrics-listen`, or `flag`) and what it takes. */
export function parseListenAddress(value: string, flag = '--metrics-listen'): ListenAddress {
  const m = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/.exec(value.trim());
  const host = m ? (m[1] ?? m[2] ?? '') : undefined;
  if (m === null || host === undefined || (m[1] !== undefined && isIP(host) !== 6) || (m[2] !== undefined && host !== '' && !HOST_NAME.test(host))) {
    throw new CliError(`${flag}: HOST:PORT, e.g. 127.0.0.1:9464, [::1]:9464, or :9464 for 127.0.0.1; got ${JSON.stringify(value)}`);
  }
  const portText = m[3]!;
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65_535)
    throw new CliError(`${flag}: the port must be an integer from 0 to 65535 (0: any free port), got ${JSON.stringify(portText)}`);
  return { host: host === '' ? '127.0.0.1' : host, port };
}

/** `host:port` as a URL authority (IPv6 in brackets). */
export function authority(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

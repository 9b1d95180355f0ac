/**
 * The load tools generator-vs-peers.ts compares, each as a command that sends GET
 * `/v2/ep/health` at a fixed rate for a given time to the arrival server: loadlab's own `run`
 * (a `constant` arrival, the HTTP target with its default 256 connections), autocannon (`-R`, its
 * overall rate), loadtest (`--rps`) and hey (`-q` per worker × `-c` workers). Peers get
 * PEER_CONNECTIONS connections (hey: workers): enough for the highest rate at this server's
 * sub-ms answers. A tool that is not installed is skipped with the reason. Two references that
 * are not load tools close the list: Node's floor on undici and on raw sockets (floor-sender.ts).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PEER_CONNECTIONS = 50;
const HEY = '/usr/bin/hey';

export interface Tool {
  name: string;
  /** Why it cannot run here (undefined: it can). */
  missing(): string | undefined;
  /** argv[0] and the rest, to send `ratePerSec` for `seconds` to `url` (an origin). */
  command(url: string, ratePerSec: number, seconds: number): [string, string[]];
}

const path = (url: string): string => `${url}/v2/ep/health`;
const nodeBin =
  (rel: string): (() => string | undefined) =>
  () =>
    existsSync(join(root, rel)) ? undefined : `${rel} not found (npm install)`;

const loadlab: Tool = {
  name: 'loadlab',
  missing: () => (existsSync(join(root, 'dist', 'src', 'cli', 'main.js')) ? undefined : 'dist/ not built (npx tsc -p tsconfig.build.json)'),
  command(url, ratePerSec, seconds) {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-peers-'));
    const file = join(dir, 'scenario.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'generator-vs-peers',
        durationMs: seconds * 1000,
        drainMs: 2000,
        endpoint: { id: 'ep' },
        traffic: [{ name: 'h', arrival: { process: 'constant', ratePerSec }, client: { behaviour: 'health', timeoutMs: 5000 } }],
      }),
    );
    return [process.execPath, [join(root, 'bin', 'loadlab.js'), 'run', file, '--target', `${url}/v2`, '--out', join(dir, 'report')]];
  },
};

const autocannon: Tool = {
  name: 'autocannon',
  missing: nodeBin('node_modules/autocannon/autocannon.js'),
  command: (url, ratePerSec, seconds) => [
    process.execPath,
    [join(root, 'node_modules/autocannon/autocannon.js'), '-R', String(ratePerSec), '-d', String(seconds), '-c', String(PEER_CONNECTIONS), path(url)],
  ],
};

const loadtest: Tool = {
  name: 'loadtest',
  missing: nodeBin('node_modules/loadtest/bin/loadtest.js'),
  command: (url, ratePerSec, seconds) => [
    process.execPath,
    [
      join(root, 'node_modules/loadtest/bin/loadtest.js'),
      '--rps',
      String(ratePerSec),
      '-t',
      String(seconds),
      '-c',
      String(PEER_CONNECTIONS),
      '-k',
      '--quiet',
      path(url),
    ],
  ],
};

const hey: Tool = {
  name: 'hey',
  missing: () => (existsSync(HEY) ? undefined : `${HEY} not found (Debian package hey)`),
  command: (url, ratePerSec, seconds) => [HEY, ['-z', `${seconds}s`, '-c', String(PEER_CONNECTIONS), '-q', String(ratePerSec / PEER_CONNECTIONS), path(url)]],
};

/** Node's floor (floor-sender.ts): not a load tool, the least a Node sender spends per request. */
const floor = (transport: 'undici' | 'net'): Tool => ({
  name: `${transport}-floor`,
  missing: () => (existsSync(join(root, 'dist', 'bench', 'floor-sender.js')) ? undefined : 'dist/ not built (npx tsc -p tsconfig.build.json)'),
  command: (url, ratePerSec, seconds) => [
    process.execPath,
    [join(root, 'dist', 'bench', 'floor-sender.js'), transport, url, String(ratePerSec), String(seconds), String(PEER_CONNECTIONS)],
  ],
});

export const TOOLS: readonly Tool[] = [loadlab, autocannon, loadtest, hey, floor('undici'), floor('net')];

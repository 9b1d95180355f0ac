/**
 * Set up before each file of the `unit` project (vitest.config.ts): a unit test starts no child
 * process and opens no socket, so it can share a worker thread with the other unit files and run
 * in `npm run test:quick`. A test that does either fails here, naming what it tried; move it to
 * the `system` project (take it out of UNIT_FILES).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const MOVE = 'a unit test (vitest.config.ts UNIT_FILES) may not do this; list the file as a system test instead';
const refuse = (what: string) => () => {
  throw new Error(`${what}: ${MOVE}`);
};

const guarded = Symbol.for('loadlab.unit-guard');
const g = globalThis as { [guarded]?: boolean };
if (!g[guarded]) {
  g[guarded] = true;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
    (childProcess as Record<string, unknown>)[name] = refuse(`child_process.${name}`);
  }
  net.Server.prototype.listen = refuse('listening on a socket') as never;
  net.Socket.prototype.connect = refuse('opening a connection') as never;
  syncBuiltinESMExports();
}

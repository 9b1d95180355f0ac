/** `loadlab serve` as a child process on 127.0.0.1:0 (built CLI): its base URL and a stop. */
import { spawn } from 'node:child_process';

export interface ServeProcess {
  /** Base URL up to `/v2`. */
  base: string;
  stop(): void;
}

export function startServe(args: string[]): Promise<ServeProcess> {
  const srv = spawn('node', ['bin/loadlab.js', 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      srv.kill('SIGTERM');
      reject(new Error('serve did not print its URL within 15 s'));
    }, 15_000);
    srv.stdout.on('data', (d: Buffer) => {
      const m = /http:\/\/\S+\/v2/.exec(d.toString());
      if (m) {
        clearTimeout(t);
        resolve({ base: m[0], stop: () => srv.kill('SIGTERM') });
      }
    });
    srv.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

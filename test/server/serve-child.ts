/**
 * `loadlab serve` (the built CLI) as a child process, for tests that measure its memory: its
 * origin, its pid, its resident set (now and peak, from /proc) and a stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ServeChild {
  origin: string;
  port: number;
  pid: number;
  /** VmRSS (now) and VmHWM (peak since start), MB. */
  rssMb(): { rss: number; peak: number };
  stop(): Promise<void>;
}

export function startServeChild(args: string[]): Promise<ServeChild> {
  const child: ChildProcess = spawn('node', ['bin/loadlab.js', 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error('serve did not print its URL within 60 s'));
    }, 60_000);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    child.stdout!.on('data', (d: Buffer) => {
      const m = /(http:\/\/[^\s/]+:(\d+))\/v2/.exec(d.toString());
      if (!m) return;
      clearTimeout(t);
      const pid = child.pid!;
      resolve({
        origin: m[1]!,
        port: Number(m[2]),
        pid,
        rssMb: () => {
          const s = readFileSync(`/proc/${pid}/status`, 'utf8');
          const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
          return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
        },
        stop: () =>
          new Promise<void>((r) => {
            if (child.exitCode !== null) return r();
            child.removeAllListeners('exit');
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

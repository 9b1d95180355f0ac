/**
 * Serve's own work per request, without sockets: the request handler of a real `startServer`
 * (limits off, real clock) driven with fake request/response objects, next to the floor's
 * handler (http-floor-server.ts) driven the same way. Main-thread CPU per request from
 * /proc schedstat (else process.cpuUsage); each measurement in its own process, serve and floor
 * alternating. Far less noisy than http-serve on a shared machine (no sockets, no wake-ups),
 * but it leaves out what serve's code does to node's HTTP layer and the kernel around it.
 * Usage: node dist/bench/http-handler-cpu.js [requests=200000] [runs=3]
 *        (child: … --child serve|floor run|status REQUESTS)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { resolveServe } from '../src/cli/commands/serve.js';
import { startServer } from '../src/server/server.js';
import { floorHandler } from './http-floor-server.js';
import { recordFigure } from './figures.js';

const KEY = 'bench-key';
const RUN_BODY = Buffer.from(JSON.stringify({ input: { prompt: 'hello world', n: 1 } }));
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

class FakeReq {
  readonly listeners: Record<string, ((x?: Buffer) => void) | undefined> = {};
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Record<string, string>,
  ) {}
  on(e: string, f: (x?: Buffer) => void): this {
    this.listeners[e] = f;
    return this;
  }
  off(e: string): this {
    this.listeners[e] = undefined;
    return this;
  }
  pause(): void {}
}

class FakeRes {
  writableEnded = false;
  destroyed = false;
  status = 0;
  text = '';
  writeHead(status: number): this {
    this.status = status;
    return this;
  }
  end(text: string): void {
    this.writableEnded = true;
    this.text = text;
  }
  on(): this {
    return this;
  }
}

function mainThreadCpuUs(): number {
  const f = `/proc/${process.pid}/task/${process.pid}/schedstat`;
  if (existsSync(f)) return Number(readFileSync(f, 'utf8').split(' ')[0]) / 1000;
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function child(who: string, route: string, n: number): Promise<void> {
  const setup = resolveServe({ limits: 'off', apiKey: [KEY], port: 0, host: '127.0.0.1', clock: 'real', speed: 1 } as Parameters<typeof resolveServe>[0], {});
  const s = await startServer({ config: setup.config, port: 0, apiKeys: setup.apiKeys, clock: 'real', speed: 1 });
  const floor = floorHandler(68, 163) as Handler;
  const serve = s.http.listeners('request')[0] as Handler;
  let bad = 0;
  let last = '';
  const one = (h: Handler, method: string, url: string, body: Buffer | undefined) => {
    const headers: Record<string, string> = body
      ? { host: 'x', authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'content-length': String(body.length) }
      : { host: 'x', authorization: `Bearer ${KEY}` };
    const req = new FakeReq(method, url, headers);
    const res = new FakeRes();
    h(req as unknown as IncomingMessage, res as unknown as ServerResponse);
    if (body) {
      req.listeners.data?.(Buffer.from(body));
      req.listeners.end?.();
    } else req.listeners.end?.();
    if (res.status !== 200) bad++;
    last = res.text;
  };
  // One job to poll, done by the time /status is measured (as in http-serve).
  one(serve, 'POST', '/v2/ep/run', RUN_BODY);
  const id = (JSON.parse(last) as { id: string }).id;
  await new Promise((r) => setTimeout(r, 1200));
  const h = who === 'serve' ? serve : floor;
  const [method, url, body] = route === 'run' ? ['POST', '/v2/ep/run', RUN_BODY] : ['GET', `/v2/ep/status/${id}`, undefined];
  // Batches of 1000 with a macrotask between, as the event loop would run them.
  const drive = async (count: number) => {
    for (let i = 0; i < count; i += 1000) {
      for (let k = 0; k < 1000; k++) one(h, method, url, body);
      await new Promise((r) => setImmediate(r));
    }
  };
  await drive(50_000);
  const c0 = mainThreadCpuUs();
  await drive(n);
  const us = (mainThreadCpuUs() - c0) / n;
  await s.close();
  console.log(JSON.stringify({ us, bad }));
}

function main(): void {
  const n = Number(process.argv[2] ?? 200_000);
  const runs = Number(process.argv[3] ?? 3);
  const self = fileURLToPath(import.meta.url);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`Own work per request without sockets: ${runs} alternating runs of ${n} requests each (after 50 000 of warm-up), main-thread CPU µs.`);
  console.log('| route | floor handler | serve handler | serve − floor (median of pairs) | bad |');
  console.log('|---|---|---|---|---|');
  for (const route of ['run', 'status']) {
    const f: number[] = [];
    const s: number[] = [];
    let bad = 0;
    for (let r = 0; r < runs; r++) {
      for (const who of r % 2 === 0 ? ['floor', 'serve'] : ['serve', 'floor']) {
        const out = spawnSync(process.execPath, [self, '--child', who, route, String(n)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
        const line = out.stdout.trim().split('\n').pop() ?? '';
        const x = JSON.parse(line) as { us: number; bad: number };
        (who === 'serve' ? s : f).push(x.us);
        bad += x.bad;
      }
    }
    console.log(`| /${route} | ${median(f).toFixed(2)} | ${median(s).toFixed(2)} | ${median(s.map((x, i) => x - f[i]!)).toFixed(2)} | ${bad} |`);
    recordFigure(
      'http-handler-cpu',
      `/${route}: serve's own CPU per request over the floor's handler (no sockets)`,
      `+${median(s.map((x, i) => x - f[i]!)).toFixed(2)} µs (${median(f).toFixed(2)} → ${median(s).toFixed(2)})`,
    );
  }
}

if (process.argv[2] === '--child') {
  void child(process.argv[3]!, process.argv[4]!, Number(process.argv[5])).then(() => process.exit(0));
} else main();

/**
 * A client that writes a whole oversized body in one go sees the 413 (not ECONNRESET or EPIPE):
 * serve reads and throws away the rest of the body after answering, then closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, serve, type Served } from './serve-helper.js';
import { codeOf, rawExchange } from './raw-http.js';

const MiB = 1024 * 1024;
let t: Served;
beforeAll(async () => {
  t = await serve();
});
afterAll(() => t.close());

const oversized = Buffer.alloc(20 * MiB + 1, 0x61);

it.each([
  ['declared length', `content-length: ${oversized.length}\r\n`],
  ['chunked', 'transfer-encoding: chunked\r\n'],
])('a 20 MiB + 1 byte /runsync body written in one go (%s): 413 every time', async (_, framing) => {
  const chunked = framing.startsWith('transfer');
  const payload = chunked ? Buffer.concat([Buffer.from(`${oversized.length.toString(16)}\r\n`), oversized, Buffer.from('\r\n0\r\n\r\n')]) : oversized;
  for (let i = 0; i < 6; i++) {
    const a = await rawExchange(t.s.port, (s) => {
      s.write(`POST /v2/ep/runsync HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\n${framing}\r\n`);
      s.end(payload);
    });
    expect(a.error, `round ${i}`).toBeUndefined();
    expect(a.status, `round ${i}`).toBe(413);
    expect(codeOf(a)).toBe('API_ERR_PAYLOAD_TOO_LARGE');
  }
  expect((await t.call('GET', '/health')).status).toBe(200);
});

it('the same without a key: 401 every time', async () => {
  for (let i = 0; i < 6; i++) {
    const a = await rawExchange(t.s.port, (s) => {
      s.write(`POST /v2/ep/runsync HTTP/1.1\r\nhost: x\r\ncontent-length: ${oversized.length}\r\n\r\n`);
      s.end(oversized);
    });
    expect(a.error, `round ${i}`).toBeUndefined();
    expect(a.status, `round ${i}`).toBe(401);
  }
});

describe('lingering is bounded', () => {
  const head = `POST /v2/ep/runsync HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\ncontent-length: ${2 ** 40}\r\n\r\n`;

  it('in bytes: a client that never stops writing is cut off after lingerBytes', async () => {
    const u = await serve({}, {}, { bounds: { lingerBytes: MiB, lingerMs: 600_000 } });
    try {
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const a = await rawExchange(
        u.s.port,
        (s) => {
          s.write(head);
          const pump = () => {
            while (!s.destroyed && s.writable) {
              written += chunk.length;
              if (!s.write(chunk)) return void s.once('drain', pump);
            }
          };
          pump();
        },
        false,
      );
      expect(a.status).toBe(413);
      expect(written).toBeLessThan(256 * MiB);
    } finally {
      await u.close();
    }
  });

  it('in time: a client that stops writing mid-body is closed after lingerMs', async () => {
    const u = await serve({}, {}, { bounds: { lingerMs: 300 } });
    try {
      const a = await rawExchange(u.s.port, (s) => s.write(`${head}{"input":`), false);
      expect(a.status).toBe(413);
    } finally {
      await u.close();
    }
  });
});

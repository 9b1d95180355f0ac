/** A command run in process: what it wrote on stdout, and its exit code. */
import { vi } from 'vitest';

export async function stdoutOf(run: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  try {
    return { code: await run(), out };
  } finally {
    spy.mockRestore();
  }
}

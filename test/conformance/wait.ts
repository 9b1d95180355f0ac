/** Polls `cond` every 5 ms (bounded: `timeoutMs` of wall time) — for requests still in flight. */
export async function until(cond: () => boolean, what = 'condition', timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

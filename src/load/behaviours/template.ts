/**
 * Payload templates compiled once per flow: `{{flow}}` is filled in at compile time, `{{seq}}`
 * (the session number) per session. Only objects on a path to a `{{seq}}` are rebuilt per
 * session; every other part of the body is shared between sessions (never copied, never
 * re-parsed), so a large `pad` costs nothing per request.
 */
type Build = (seq: number) => unknown;
const SEQ = '{{seq}}';

/** A constant, or a builder when the value holds `{{seq}}` somewhere. */
type Compiled = { dynamic: false; value: unknown } | { dynamic: true; build: Build };

function compileString(s: string, flow: string): Compiled {
  const text = s.includes('{{flow}}') ? s.replaceAll('{{flow}}', flow) : s;
  if (!text.includes(SEQ)) return { dynamic: false, value: text };
  const parts = text.split(SEQ);
  return { dynamic: true, build: (seq) => parts.join(String(seq)) };
}

function compile(v: unknown, flow: string): Compiled {
  if (typeof v === 'string') return compileString(v, flow);
  if (typeof v !== 'object' || v === null) return { dynamic: false, value: v };
  if (Array.isArray(v)) {
    const items = v.map((x) => compile(x, flow));
    if (!items.some((i) => i.dynamic)) return { dynamic: false, value: items.map((i) => (i.dynamic ? undefined : i.value)) };
    return { dynamic: true, build: (seq) => items.map((i) => (i.dynamic ? i.build(seq) : i.value)) };
  }
  const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => [compileString(k, flow), compile(x, flow)] as const);
  if (!entries.some(([k, x]) => k.dynamic || x.dynamic)) {
    return { dynamic: false, value: Object.fromEntries(entries.map(([k, x]) => [(k as { value: string }).value, (x as { value: unknown }).value])) };
  }
  return {
    dynamic: true,
    build: (seq) => {
      const o: Record<string, unknown> = {};
      for (const [k, x] of entries) o[k.dynamic ? (k.build(seq) as string) : (k.value as string)] = x.dynamic ? x.build(seq) : x.value;
      return o;
    },
  };
}

/** `(seq) => body`: the same object every time when nothing depends on `seq`. */
export function compileTemplate<T>(value: T, flow: string): (seq: number) => T {
  const c = compile(value, flow);
  if (!c.dynamic) return () => c.value as T;
  return c.build as (seq: number) => T;
}

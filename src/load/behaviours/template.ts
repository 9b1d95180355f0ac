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
  if (parts.length === 2) {
    const [head, tail] = parts as [string, string];
    return { dynamic: true, build: (seq) => head + seq + tail };
  }
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
  const keys = entries.map(([k]) => k);
  const values = entries.map(([, x]) => x);
  return {
    dynamic: true,
    build: (seq) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        const x = values[i]!;
        o[k.dynamic ? (k.build(seq) as string) : (k.value as string)] = x.dynamic ? x.build(seq) : x.value;
      }
      return o;
    },
  };
}

/** A compiled template; `constant`: it gives the same object for every `seq`. */
export type Template<T> = ((seq: number) => T) & { readonly constant: boolean };

/** `(seq) => body`: the same object every time when nothing depends on `seq`. */
export function compileTemplate<T>(value: T, flow: string): Template<T> {
  const c = compile(value, flow);
  if (!c.dynamic) return Object.assign(() => c.value as T, { constant: true });
  return Object.assign(c.build as (seq: number) => T, { constant: false });
}

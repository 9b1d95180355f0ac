/** A reader of the Prometheus text format (0.0.4) for tests: samples with their labels, and each family's TYPE. */

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface PromText {
  samples: PromSample[];
  /** Family name → type, from `# TYPE` lines. */
  types: Map<string, string>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseProm(text: string): PromText {
  const samples: PromSample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) types.set(t[1]!, t[2]!);
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return { samples, types };
}

/** The samples named `name` whose labels include `where`. */
export function select(p: PromText, name: string, where: Record<string, string> = {}): PromSample[] {
  return p.samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v));
}

/** The value of the one sample named `name` with labels including `where`; undefined if none. */
export function value(p: PromText, name: string, where: Record<string, string> = {}): number | undefined {
  const s = select(p, name, where);
  if (s.length > 1) throw new Error(`${s.length} samples of ${name} ${JSON.stringify(where)}`);
  return s[0]?.value;
}

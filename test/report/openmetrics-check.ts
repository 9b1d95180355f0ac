/**
 * A strict reader of OpenMetrics text for tests: it throws on anything the format forbids that
 * loadlab could get wrong (a sample without a timestamp, interleaved families or series, time going
 * back in a series, a counter going down, a histogram not cumulative, text after `# EOF`), and
 * returns the families for value checks.
 */
export interface OmSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  /** Epoch ms (from the seconds in the text, exact to the ms). */
  ms: number;
}

export interface OmFamily {
  name: string;
  type: string;
  unit?: string;
  help?: string;
  samples: OmSample[];
}

const SUFFIXES: Record<string, string[]> = {
  counter: ['_total'],
  gauge: [''],
  info: ['_info'],
  histogram: ['_bucket', '_count', '_sum'],
  summary: ['', '_count', '_sum'],
};
const COUNTER_LIKE: Record<string, string[]> = { counter: ['_total'], histogram: ['_bucket', '_count', '_sum'], summary: ['_count', '_sum'] };

function parseLabels(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < s.length) {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(s.slice(i));
    if (!m) throw new Error(`bad labels at ${s.slice(i)}`);
    i += m[0].length;
    let v = '';
    for (;;) {
      const c = s[i++];
      if (c === undefined) throw new Error(`unterminated label value in ${s}`);
      if (c === '"') break;
      if (c === '\\') {
        const e = s[i++];
        if (e === 'n') v += '\n';
        else if (e === '"' || e === '\\') v += e;
        else throw new Error(`undefined escape \\${e} in ${s}`);
      } else v += c;
    }
    if (m[1]! in out) throw new Error(`label ${m[1]} twice in ${s}`);
    out[m[1]!] = v;
    if (i < s.length) {
      if (s[i] !== ',') throw new Error(`expected , in ${s}`);
      i++;
    }
  }
  return out;
}

/** `name{a="b",…}` without the point's own `le` / `quantile`: the series a sample belongs to. */
export function metricKey(f: OmFamily, s: OmSample): string {
  const { le: _le, quantile: _q, ...rest } = s.labels;
  return JSON.stringify(Object.entries(f.type === 'counter' || f.type === 'gauge' || f.type === 'info' ? s.labels : rest).sort());
}

export function parseOpenMetrics(text: string): OmFamily[] {
  if (!text.endsWith('# EOF\n')) throw new Error('does not end with "# EOF\\n"');
  const lines = text.slice(0, -'# EOF\n'.length).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const families: OmFamily[] = [];
  let cur: OmFamily | undefined;
  for (const line of lines) {
    const meta = /^# (TYPE|UNIT|HELP) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name, rest] = meta as unknown as [string, string, string, string];
      if (kind === 'TYPE') {
        if (families.some((f) => f.name === name)) throw new Error(`family ${name} appears twice (interleaved?)`);
        if (!(rest in SUFFIXES)) throw new Error(`unknown type ${rest}`);
        cur = { name, type: rest, samples: [] };
        families.push(cur);
      } else {
        if (!cur || cur.name !== name || cur.samples.length) throw new Error(`${kind} of ${name} not right after its TYPE`);
        if (kind === 'UNIT') {
          if (!name.endsWith(`_${rest}`)) throw new Error(`unit ${rest} is not a suffix of ${name}`);
          cur.unit = rest;
        } else cur.help = rest;
      }
      continue;
    }
    if (line.startsWith('#')) throw new Error(`stray # line: ${line}`);
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+) (-?\d+\.\d{3})$/.exec(line);
    if (!m) throw new Error(`not a sample with a timestamp: ${line}`);
    if (!cur) throw new Error(`sample before any TYPE: ${line}`);
    const suffix = m[1]!.slice(cur.name.length);
    if (!m[1]!.startsWith(cur.name) || !SUFFIXES[cur.type]!.includes(suffix)) throw new Error(`${m[1]} is not a sample of ${cur.type} ${cur.name}`);
    cur.samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2]) : {}, value: Number(m[3]), ms: Math.round(Number(m[4]) * 1000) });
  }
  for (const f of families) checkFamily(f);
  return families;
}

function checkFamily(f: OmFamily): void {
  // Metrics (label sets) are not interleaved: once the series changes, the old one never comes back.
  const done = new Set<string>();
  let last: string | undefined;
  for (const s of f.samples) {
    const k = metricKey(f, s);
    if (k !== last) {
      if (done.has(k)) throw new Error(`${f.name}: series ${k} interleaved with another`);
      if (last !== undefined) done.add(last);
      last = k;
    }
  }
  // Per sample series: time strictly increasing, counters never going down.
  const prev = new Map<string, OmSample>();
  for (const s of f.samples) {
    const k = `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`;
    const p = prev.get(k);
    if (p && s.ms <= p.ms) throw new Error(`${k}: time ${s.ms} not after ${p.ms}`);
    if (p && COUNTER_LIKE[f.type]?.some((x) => s.name === f.name + x) && s.value < p.value) throw new Error(`${k}: counter went down ${p.value} → ${s.value}`);
    prev.set(k, s);
  }
  // Histograms: within each point, buckets cumulative in le order and +Inf equal to _count.
  if (f.type === 'histogram') {
    const points = new Map<string, OmSample[]>();
    for (const s of f.samples) {
      const k = `${metricKey(f, s)}@${s.ms}`;
      points.set(k, [...(points.get(k) ?? []), s]);
    }
    for (const [k, ss] of points) {
      const buckets = ss.filter((s) => s.name.endsWith('_bucket')).map((s) => [s.labels.le === '+Inf' ? Infinity : Number(s.labels.le), s.value] as const);
      for (let i = 1; i < buckets.length; i++) {
        if (!(buckets[i]![0] > buckets[i - 1]![0]) || buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${f.name} ${k}: buckets not cumulative`);
      }
      const count = ss.find((s) => s.name.endsWith('_count'))?.value;
      if (buckets.at(-1)?.[0] !== Infinity || buckets.at(-1)?.[1] !== count) throw new Error(`${f.name} ${k}: +Inf bucket missing or not equal to _count`);
    }
  }
}

/** The samples of one sample name whose labels include `match`, in file order. */
export function samples(fams: OmFamily[], name: string, match: Record<string, string> = {}): OmSample[] {
  return fams.flatMap((f) => f.samples).filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
}

/** The last value of a sample name (with labels including `match`). */
export function lastValue(fams: OmFamily[], name: string, match: Record<string, string> = {}): number | undefined {
  return samples(fams, name, match).at(-1)?.value;
}

/** One point of a histogram series: its cumulative `le` buckets (+Inf last) at one instant. */
export interface HistogramPoint {
  ms: number;
  buckets: [le: number, count: number][];
}

/** The points of histogram `name` (`<name>_bucket` samples whose labels include `match`), in time order. */
export function histogramPoints(fams: OmFamily[], name: string, match: Record<string, string> = {}): HistogramPoint[] {
  const byMs = new Map<number, [number, number][]>();
  for (const s of samples(fams, `${name}_bucket`, match)) {
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byMs.set(s.ms, [...(byMs.get(s.ms) ?? []), [le, s.value]]);
  }
  return [...byMs].map(([ms, buckets]) => ({ ms, buckets })).sort((a, b) => a.ms - b.ms);
}

/** Cumulative buckets of `b` minus those of `a` (same `le` list): the samples between two points. */
export function bucketDelta(a: HistogramPoint, b: HistogramPoint): [number, number][] {
  return b.buckets.map(([le, c], j) => [le, c - a.buckets[j]![1]]);
}

/**
 * Prometheus's histogram_quantile over cumulative buckets (+Inf last): the interpolated value and
 * the bounds of the bucket it falls in (lower 0 for the first; +Inf: the largest finite bound, as
 * Prometheus answers).
 */
export function bucketQuantile(q: number, buckets: readonly (readonly [number, number])[]): { value: number; lower: number; upper: number } {
  const total = buckets.at(-1)![1];
  const rank = q * total;
  const b = buckets.findIndex(([, c]) => c >= rank);
  if (b === buckets.length - 1) {
    const top = buckets.at(-2)![0];
    return { value: top, lower: top, upper: Infinity };
  }
  const [upper, cum] = buckets[b]!;
  const [lower, below] = b === 0 ? [0, 0] : buckets[b - 1]!;
  return { value: lower + (upper - lower) * ((rank - below) / (cum - below)), lower, upper };
}

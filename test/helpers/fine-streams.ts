/**
 * Runs whose streaming flow saw a token every 6.2 ms — chunk times 0, 6.2, 12.4, 18.6 … after a
 * 50.5 ms TTFT, as an H100 streams them — recorded by FlowStreams at 0.01 ms, and the same run as
 * a report written before 0.01 ms (whole-ms stream histograms, no `scale`/`timeScale`), for the
 * recording, report, threshold and merge tests. The simulator's own token times are whole ms here,
 * so the flow's stream section is replaced by one fed these times.
 */
import * as hdr from 'hdr-histogram-js';
import { FlowStreams } from '../../src/load/record/stream-metrics.js';
import { runScenario } from '../../src/load/run-scenario.js';
import { parseScenario } from '../../src/load/scenario/loader.js';
import { decode, decodeWindow, encode, newHistogram, type EncodedHistogram, type Histogram } from '../../src/report/histogram.js';
import { parseRunResult, renderJson } from '../../src/report/render-json.js';
import type { FlowStreamStats, RunResult, StreamWindows } from '../../src/report/run-result.js';
import { evaluateThresholds } from '../../src/report/thresholds.js';

export const ITL_MS = 6.2;
export const TTFT_MS = 50.5;
/** Tokens per request, and requests (one a second from t = 0.1 s). */
export const TOKENS = 20;
export const REQUESTS = 10;

/** `REQUESTS` streams of `TOKENS` chunks `ITL_MS` apart. */
export function feedFine(f: FlowStreams): void {
  for (let r = 0; r < REQUESTS; r++) {
    const start = 100 + r * 1000;
    f.ended(
      start - TTFT_MS,
      Array.from({ length: TOKENS }, (_, k) => start + k * ITL_MS),
      TOKENS,
      false,
    );
  }
}

/** 2026-01-01T00:00:00Z: a whole number of 10 s windows since the epoch (merge alignment). */
const T0 = Date.UTC(2026, 0, 1);

/**
 * A 10 s in-process run of one streamed openai-chat flow `chat` with `thresholds`, its stream
 * section fed by feedFine, as report.json holds it; `shard`: marked as shard I of N.
 */
export async function fineRun(thresholds: string[] = [], shard?: { index: number; count: number }): Promise<RunResult> {
  const l = parseScenario(
    {
      name: 'fine',
      seed: 5,
      durationMs: 10_000,
      endpoint: { id: 'ep', workersMin: 2, workersMax: 2, llm: { ttftMs: 50, interTokenMs: 6, outputTokens: TOKENS } },
      traffic: [{ name: 'chat', arrival: { process: 'constant', ratePerSec: 1 }, client: { behaviour: 'openai-chat', stream: true, maxTokens: 64 } }],
    },
    'fine.yaml',
  );
  if (!l.ok) throw new Error(JSON.stringify(l.issues));
  const r = await runScenario(l.scenario);
  const w = r.windows!;
  const f = new FlowStreams(w.windowMs, undefined);
  feedFine(f);
  const n = w.streams!.chat!.tokens.length;
  const marked: RunResult = {
    ...r,
    flows: { ...r.flows, chat: { ...r.flows.chat!, stream: f.stats() } },
    windows: { ...w, streams: { chat: f.windows(n) } },
    ...(shard ? { shard: { count: shard.count, indices: [shard.index] }, wallClock: { startedAt: new Date(T0).toISOString(), wallMs: 100 } } : {}),
  };
  return parseRunResult(renderJson({ ...marked, thresholds: evaluateThresholds(marked, thresholds) }));
}

/** `h` (values ms × `scale`) at whole ms, as the recorder wrote stream times before 0.01 ms. */
function wholeMs(h: Histogram, scale: number): Histogram {
  const out = newHistogram();
  const it = (h as hdr.JsHistogram).recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    out.recordValueWithCount(Math.round(v.valueIteratedTo / scale), v.countAtValueIteratedTo);
  }
  return out;
}

const oldEncoded = (e: EncodedHistogram): EncodedHistogram => encode(wholeMs(decode(e), e.scale ?? 1));
const oldWindow = (e: string, scale: number) => (e ? hdr.encodeIntoCompressedBase64(wholeMs(decodeWindow(e), scale)) : '');

/** `r` as a report from before 0.01 ms stream times: whole-ms TTFT, ITL and TPOT histograms, no scale. */
export function asWholeMsReport(r: RunResult): RunResult {
  const flows = Object.fromEntries(
    Object.entries(r.flows).map(([k, f]) => {
      if (!f.stream) return [k, f];
      const s: FlowStreamStats = { ...f.stream, ttftMs: oldEncoded(f.stream.ttftMs), itlMs: oldEncoded(f.stream.itlMs), tpotMs: oldEncoded(f.stream.tpotMs) };
      return [k, { ...f, stream: s }];
    }),
  );
  const streams = Object.fromEntries(
    Object.entries(r.windows?.streams ?? {}).map(([k, { timeScale, ...w }]) => {
      const sc = timeScale ?? 1;
      const old: StreamWindows = {
        ...w,
        ttftMs: w.ttftMs.map((e) => oldWindow(e, sc)),
        itlMs: w.itlMs.map((e) => oldWindow(e, sc)),
        tpotMs: w.tpotMs.map((e) => oldWindow(e, sc)),
      };
      return [k, old];
    }),
  );
  return parseRunResult(renderJson({ ...r, flows, ...(r.windows ? { windows: { ...r.windows, streams } } : {}) }));
}

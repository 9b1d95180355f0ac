/**
 * Runs a bench scenario on the embedded simulator (in process, virtual time) and keeps every
 * streamed answer whole: its send time and the exact instant of each content chunk. The run's
 * own report rounds stream times to whole ms (its HDR histograms), too coarse for inter-token
 * latencies of a few ms; the target here is the simulator's, with its `send` wrapped to look at
 * each OpenAI answer on its way to the client.
 */
import { promptTokensOf } from '../../contract/prompt-tokens.js';
import { streamContent } from '../../load/behaviours/sse-content.js';
import { runScenario } from '../../load/run-scenario.js';
import type { Scenario } from '../../load/scenario/schema.js';
import { inProcessTarget } from '../../load/targets/in-process/for-scenario.js';
import type { StreamedRequest } from './bench-metrics.js';

export async function simulateStreams(sc: Scenario): Promise<StreamedRequest[]> {
  const out: StreamedRequest[] = [];
  await runScenario(sc, {
    target: (s, seed) => {
      const t = inProcessTarget(s, seed);
      const send = t.send.bind(t);
      t.send = (req, done) => {
        if (req.op !== 'openai') return send(req, done);
        const sentMs = t.now();
        send(req, (res) => {
          if (res.status === 200 && res.sse) {
            const c = streamContent(res.sse, res.sseAtMs, t.now());
            if (c.errorCode === undefined && c.atMs.length > 0)
              out.push({ sentMs, atMs: c.atMs, tokens: c.usageTokens ?? c.atMs.length, promptTokens: promptTokensOf(req.body) });
          }
          done(res);
        });
      };
      return t;
    },
  });
  return out;
}

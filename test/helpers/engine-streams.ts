/**
 * Streamed chat completions through the in-process API at given instants, for the engine tests
 * (test/sim/llm-*.test.ts) that check token instants against hand-computed iteration schedules;
 * and what they read of a stream.
 */
import { parseSimConfig, type EndpointConfigInput } from '../../src/contract/endpoint-config.js';
import { InProcessTarget } from '../../src/load/targets/in-process/in-process-target.js';
import type { TargetResponse } from '../../src/load/targets/target.js';
import { Simulator } from '../../src/sim/simulator.js';

export interface ChatSend {
  atMs: number;
  /** The user message. */
  content: string;
  maxTokens?: number;
}

/** Sends each chat at its instant (usage included unless `includeUsage` is false); the answers once the run is over, and the simulator. */
export function streamChats(ep: Partial<EndpointConfigInput>, sends: readonly ChatSend[], includeUsage = true): { out: TargetResponse[]; sim: Simulator } {
  const p = parseSimConfig({ seed: 1, endpoints: [{ id: 'ep', ...ep }] });
  if (!p.ok) throw new Error(JSON.stringify(p.issues));
  const sim = new Simulator(p.config);
  const t = new InProcessTarget(sim, 'ep');
  const out: TargetResponse[] = [];
  sends.forEach((s, i) => {
    sim.runUntil(s.atMs);
    const body = {
      messages: [{ role: 'user', content: s.content }],
      ...(s.maxTokens !== undefined ? { max_tokens: s.maxTokens } : {}),
      stream: true,
      ...(includeUsage ? { stream_options: { include_usage: true } } : {}),
    };
    t.send({ op: 'openai', method: 'POST', path: '/openai/v1/chat/completions', body, timeoutMs: 600_000 }, (r) => (out[i] = r));
  });
  sim.runUntil(100_000);
  return { out, sim };
}

/** The parsed data events of a stream ([DONE] left out). */
export const chunks = (r: TargetResponse) => r.sse!.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
/** The instants of a stream's content chunks (its tokens). */
export const tokenTimes = (r: TargetResponse) =>
  r.sse!.flatMap((d, i) => (d !== '[DONE]' && JSON.parse(d).choices[0]?.delta?.content !== undefined ? [r.sseAtMs![i]!] : []));
/** The stream's usage chunk's `usage`. */
export const usage = (r: TargetResponse) => chunks(r).find((c) => c.usage)?.usage;

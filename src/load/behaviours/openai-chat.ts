import { z } from 'zod';
import { tokenCountSchema } from '../../contract/llm-config.js';
import { callOptions, commonFields, failureOutcome } from './common.js';
import { promptOfRequest, promptOfTokens } from './prompt-text.js';
import { chatFields } from './chat-fields.js';
import { affinityField, StickyWorker } from './affinity.js';
import { ChatTurn, type Message } from './chat-session.js';
import { chatFlowOf, systemMessage } from './chat-flow.js';
import { call, defineBehaviour } from './types.js';
import { acceptJob, balancerEnded, jobEnded, removedWhileHeld } from './submit.js';
import { streamContent, type StreamContent } from './sse-content.js';
import type { BehaviourEnv, Session } from './types.js';
import type { ClientResponse } from '../client.js';
import { promptTokensOf } from '../../contract/prompt-tokens.js';

/**
 * `openai-chat`: POST /openai/v1/chat/completions (a load-balancing endpoint's: /v1/chat/completions
 * under its base, operation `lb`), plain or `stream: true` (server-sent events,
 * counted as stream chunks; their content events give the flow's stream metrics: TTFT, ITL,
 * TPOT, tokens). A 200 ends the session `COMPLETED`; a stream that breaks mid-way ends it `error`
 * (or `timeout`), what arrived counted. With `turns`, a session is a conversation (chat-session.ts):
 * each turn is one request as above, on a `ChatTurn` standing for the session, and its 200 hands the
 * answer on for the next turn's history.
 */
export const openaiChat = defineBehaviour({
  schema: z.strictObject({
    behaviour: z.literal('openai-chat').meta({ description: 'Client behaviour: POST /openai/v1/chat/completions, plain or streamed (server-sent events).' }),
    on429: commonFields.on429,
    timeoutMs: commonFields.timeoutMs,
    stream: z
      .boolean()
      .default(false)
      .meta({
        description:
          'Ask for a streamed answer (stream: true, server-sent events, counted as stream chunks; TTFT, ITL, TPOT and tokens are measured). Default: false.',
        examples: [false, true],
      }),
    includeUsage: z
      .boolean()
      .default(true)
      .meta({
        description:
          "With stream: send stream_options: {include_usage: true}, so the stream's last event gives usage.completion_tokens (the token count); false: tokens are counted as content events. Default: true.",
        examples: [true, false],
      }),
    maxTokens: z
      .number()
      .int()
      .positive()
      .max(4096)
      .default(16)
      .meta({ description: 'max_tokens of the request (1–4096). Default: 16.', examples: [16, 256] }),
    model: z
      .string()
      .default('loadlab-sim')
      .meta({ description: 'model of the request. Default: loadlab-sim.', examples: ['loadlab-sim', 'meta-llama/Llama-3.1-8B-Instruct'] }),
    prompt: z
      .string()
      .default('Say hello')
      .meta({
        description: 'The user message; {{seq}} is replaced by the session number. Default: Say hello.',
        examples: ['Say hello', 'Summarise ticket #{{seq}}'],
      }),
    promptTokens: tokenCountSchema.optional().meta({
      description:
        "Prompt length in tokens, in place of prompt: each request's user message is a text of exactly this many tokens (4 characters a token, as the simulator counts them). A whole number, or a token-count distribution object as llm.outputTokens takes, drawn per request from the flow's own seeded stream. Default: unset (prompt is sent).",
      examples: [256, { dist: 'uniform', minMs: 200, maxMs: 300 }],
    }),
    ...chatFields,
    ...affinityField,
  }),
  operation: (_spec, balancer) => (balancer ? 'lb' : 'openai'),
  create: (spec, env) => {
    const o = callOptions(spec, env);
    // A load-balancing endpoint's worker serves the OpenAI routes under the endpoint's base.
    const where = env.balancer
      ? ({ op: 'lb', path: '/v1/chat/completions', balancer: true } as const)
      : ({ op: 'openai', path: '/openai/v1/chat/completions' } as const);
    // A multi-turn flow makes its own user messages (chat-flow.ts).
    const prompt = spec.promptTokens === undefined || spec.turns !== undefined ? undefined : promptOfTokens(spec.promptTokens, env.rng);
    // Against a URL, streamed answers are kept for `loadlab calibrate` (stream-observations.ts).
    const obs = spec.stream ? env.rec.observations?.streams : undefined;
    // On a load-balancing endpoint, every request a worker served, with the worker that served it (balancer-observations.ts).
    const lbObs = env.balancer ? env.rec.observations?.balancer : undefined;
    const system: Message | undefined = spec.systemPromptTokens === undefined ? undefined : systemMessage(env.flow, spec.systemPromptTokens);
    // Affinity of single-request sessions: the flow's latest answer's worker (a multi-turn chat's sessions keep their own: chat-session.ts).
    const flowWorker = spec.affinity === undefined || spec.turns !== undefined ? undefined : new StickyWorker(spec.affinity);
    // A token trace's request: its prompt, and exactly its answer length (vLLM's ignore_eos: the model does not stop before max_tokens).
    const oneTurn = (s: Session): Message[] => {
      const t = s.request;
      const user: Message = { role: 'user', content: t ? promptOfRequest(t) : prompt ? prompt() : spec.prompt.replaceAll('{{seq}}', String(s.seq)) };
      return system ? [system, user] : [user];
    };
    /** One request: a multi-turn chat's turn with its `messages` (chat-session.ts), else the session's one message. */
    const send = (s: Session, messages?: Message[]): void => {
      const t = s.request;
      const body: Record<string, unknown> = {
        model: spec.model,
        max_tokens: t ? t.outputTokens : spec.maxTokens,
        stream: spec.stream,
        messages: messages ?? oneTurn(s),
      };
      if (t) body.ignore_eos = true;
      if (spec.stream && spec.includeUsage) body.stream_options = { include_usage: true };
      env.streams?.sent(promptTokensOf(body));
      s.queuedMark = env.rec.ledger.mark();
      obs?.opened(env.target.now());
      const turn = s instanceof ChatTurn ? s : undefined;
      // `affinity`: a turn asks for its session's previous turn's worker, a single request for the flow's latest (affinity.ts).
      const worker = turn ? turn.worker : flowWorker;
      const req = { ...where, method: 'POST', body, timeoutMs: spec.timeoutMs } as const;
      call(env, s, o, worker ? worker.request(req) : req, (r, x) => {
        obs?.closed(env.target.now());
        worker?.answered(r.workerId);
        if (r.status !== 200) {
          // A stream that broke mid-way (status 0): what arrived is counted, the session ends an error;
          // a request refused or failed before any stream counts as a streamed request that was not good.
          if (r.stream || r.sse) streamed(env, s, r, true);
          else env.streams?.ended(s.intendedMs, [], undefined, true, env.target.now());
          if (removedWhileHeld(env, s, r)) return;
          if (env.balancer && balancerEnded(env, s, r)) return;
          // The simulator's answer for a job that ended otherwise: 500 with the status as error.code.
          const status = r.status === 500 ? (r.body as { error?: { code?: unknown } } | undefined)?.error?.code : undefined;
          if (status === 'IN_QUEUE' || status === 'IN_PROGRESS') {
            // The server stopped holding (its wait ran out) with the job still live.
            acceptJob(env, s);
            return s.end('timeout');
          }
          if (status !== 'FAILED' && status !== 'TIMED_OUT' && status !== 'CANCELLED') return s.end(failureOutcome(r));
          return jobEnded(env, s, status);
        }
        acceptJob(env, s);
        /** When the answer began: a stream's first content chunk, else its end. */
        let responseAtMs = env.target.now();
        if (r.stream || r.sse) {
          // An error event after the first token: the job ended otherwise (its status as the code), the stream broken.
          const c = streamed(env, s, r, false);
          if (c.atMs.length > 0) responseAtMs = c.atMs[0]!;
          const code = c.errorCode;
          if (code === undefined)
            obs?.ended({
              sentMs: s.sentMs,
              atMs: c.atMs,
              usageTokens: c.usageTokens,
              promptTokens: promptTokensOf(body),
              maxTokens: body.max_tokens as number,
            });
          else {
            const status = code === 'FAILED' || code === 'TIMED_OUT' || code === 'CANCELLED' ? code : undefined;
            if (status) env.rec.jobTerminal(env.flow, s.intendedMs, env.target.now(), status, undefined, undefined, undefined, s.sentMs);
            return s.end(status ?? 'error');
          }
        }
        const now = env.target.now();
        lbObs?.served({ kind: 'chat', sentMs: x.sentMs, responseAtMs, endMs: now, inFlightSent: x.inFlightAtSend, workerId: r.workerId });
        const id = (r.body as { id?: unknown } | undefined)?.id;
        env.rec.jobTerminal(env.flow, s.intendedMs, env.target.now(), 'COMPLETED', undefined, undefined, typeof id === 'string' ? id : undefined, s.sentMs);
        turn?.answered(r);
        s.end('COMPLETED');
      });
    };
    const chat = chatFlowOf(spec, env, system, send);
    return chat ?? ((s) => send(s));
  },
});

/**
 * A streamed answer (whole, or `broken` mid-way): its chunks, and its content for the stream
 * metrics. Returns its content; `errorCode`: an error event ended it (then it counts as broken).
 */
function streamed(env: BehaviourEnv, s: Session, r: ClientResponse, broken: boolean): StreamContent {
  const now = env.target.now();
  // In process the answer comes digested (target.ts `stream`); over HTTP its events are read here.
  const c = r.stream ?? streamContent(r.sse!, r.sseAtMs, now);
  env.rec.stream(now, c.events);
  env.streams?.ended(s.intendedMs, c.atMs, c.usageTokens, broken || c.errorCode !== undefined, now);
  if (c.cachedTokens !== undefined) env.streams?.cached(c.cachedTokens);
  return c;
}

/**
 * A multi-turn chat session (`openai-chat` with `turns`): one conversation of N turns, each turn
 * one request carrying the whole history. The session is the flow's session (one arrival, one
 * outcome); each turn runs as a session of its own for the request code (`ChatTurn`): its intended
 * time is the turn's, so TTFT, response and turnaround times are per request, and its job is its
 * own (counted in its category when the turn completes). Think times wait on the target's clock
 * (`Target.at`): virtual in process, never a wall-clock sleep.
 *
 * A turn that ends otherwise than COMPLETED ends the session with that outcome (no further turn);
 * the session counts the turns it started. A session whose think time runs past the run's hard end
 * never ends (`unfinished`), as any session still open then.
 */
import type { ClientResponse, Live } from '../client.js';
import type { SessionSpan } from '../../telemetry/session-tracing.js';
import { answerText } from './answer-text.js';
import type { BehaviourEnv, Session } from './types.js';
import type { TraceRequest } from '../arrivals/types.js';
import { StickyWorker, type AffinityMode } from './affinity.js';

export interface Message {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What every session of a multi-turn flow shares. */
export interface ChatFlow {
  env: BehaviourEnv;
  /** The session's turn count (drawn per session). */
  turns: () => number;
  /** A think time, ms (drawn per turn). */
  think: () => number;
  /** The system message opening every request, if any. */
  system: Message | undefined;
  /** The user message of turn `turn` (from 1) of session `seq`. */
  user: (seq: number, turn: number) => string;
  /** Sends a turn's request with these messages. */
  send: (t: ChatTurn, messages: Message[]) => void;
  /** `client.affinity` (a load-balancing endpoint): each turn after the first asks for the previous turn's worker. */
  affinity: AffinityMode | undefined;
}

/** Starts session `s` of the flow: its first turn now. */
export function startChat(flow: ChatFlow, s: Session): void {
  new ChatSession(flow, s, flow.turns()).next(s.intendedMs);
}

class ChatSession {
  private readonly messages: Message[] = [];
  turn = 0;
  /** The worker of the previous turn's answer, sent back with the next turn (`affinity`). */
  readonly worker: StickyWorker | undefined;

  constructor(
    private readonly flow: ChatFlow,
    readonly s: Session,
    readonly turns: number,
  ) {
    if (flow.system) this.messages.push(flow.system);
    this.worker = flow.affinity === undefined ? undefined : new StickyWorker(flow.affinity);
  }

  /** The next turn, intended at `intendedMs`: its user message joins the history, the whole history goes out. */
  next(intendedMs: number): void {
    const { flow, s } = this;
    if (s.done) return;
    this.turn++;
    this.messages.push({ role: 'user', content: flow.user(s.seq, this.turn) });
    flow.env.turns?.started();
    // A copy: a request body is not changed after it is sent (the simulator keeps it with the job).
    flow.send(new ChatTurn(this, intendedMs), this.messages.slice());
  }

  /** Turn `t` ended with `outcome`: the next turn after a think time, or the session's end. */
  turnEnded(t: ChatTurn, outcome: string): void {
    const { flow, s } = this;
    const env = flow.env;
    const target = env.target;
    if (outcome === 'COMPLETED' && this.turn < this.turns && t.reply !== undefined) {
      // The turn's job ended in its category now; the session's end counts its last job's.
      if (t.hasJob) env.rec.ledger.ended('COMPLETED');
      this.messages.push({ role: 'assistant', content: t.reply });
      const at = target.now() + flow.think();
      // As an arrival timer: a virtual clock's scheduler runs at whole ms; wall time keeps the fraction.
      const intendedMs = target.clock === 'wall' ? at : Math.floor(at);
      target.at(at, () => this.next(intendedMs));
      return;
    }
    s.hasJob = t.hasJob;
    env.turns?.ended(this.turn, outcome === 'COMPLETED' && this.turn === this.turns ? target.now() - s.intendedMs : undefined);
    s.end(outcome);
  }
}

/**
 * One turn as the request code sees a session: the turn's intended time and job, the flow
 * session's number, arrival flag and trace. Its `end` ends the turn; the chat decides whether the
 * session goes on. `sentMs`: the first turn's is set by the client (it is the session's arrival);
 * a later turn's is its intended time (it goes out when the think time ends, as a poll does).
 */
export class ChatTurn implements Session {
  hasJob = false;
  queuedMark = Infinity;
  sentMs: number;
  /** The answer's text, kept when another turn follows (`answered`). */
  reply: string | undefined = undefined;
  private over = false;

  constructor(
    private readonly chat: ChatSession,
    readonly intendedMs: number,
  ) {
    this.sentMs = intendedMs;
  }

  get seq(): number {
    return this.chat.s.seq;
  }

  get request(): TraceRequest | undefined {
    return undefined;
  }

  get done(): boolean {
    return this.over || this.chat.s.done;
  }

  get first(): boolean {
    return this.chat.s.first;
  }

  set first(v: boolean) {
    this.chat.s.first = v;
  }

  /** The session's span, when traced: each turn's requests are its request spans. */
  get trace(): SessionSpan | undefined {
    return (this.chat.s as Live).trace;
  }

  /** The worker the session's turns stick to (`affinity`): each turn asks for the previous turn's; undefined without affinity. */
  get worker(): StickyWorker | undefined {
    return this.chat.worker;
  }

  /** A 200 answered the turn: its text is kept for the history when another turn follows. */
  answered(r: ClientResponse): void {
    if (this.chat.turn < this.chat.turns) this.reply = answerText(r);
  }

  end(outcome: string): void {
    if (this.done) return;
    this.over = true;
    this.chat.turnEnded(this, outcome);
  }
}

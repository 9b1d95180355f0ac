/**
 * The assistant's answer text of a chat completion, as received: a plain answer's
 * `choices[0].message.content`, or a streamed answer's content pieces joined (`delta.content` of
 * each server-sent event, or a completion's `text`). A multi-turn chat sends it back as the
 * assistant message of the next turn, character for character, so each turn's prompt text opens
 * with the previous turn's whole prompt and answer (what a prefix cache keys on).
 */
import type { ClientResponse } from '../client.js';

export function answerText(r: ClientResponse): string {
  // In process a streamed answer spells its events only when read (sse-feed.ts): only here.
  if (r.stream || r.sse) return streamedText(r.sse ?? []);
  const c = (r.body as { choices?: { message?: { content?: unknown } }[] } | undefined)?.choices?.[0]?.message?.content;
  return typeof c === 'string' ? c : '';
}

function streamedText(sse: readonly string[]): string {
  let text = '';
  for (const d of sse) {
    if (d === '[DONE]') continue;
    let e: unknown;
    try {
      e = JSON.parse(d);
    } catch {
      continue;
    }
    const c = (e as { choices?: unknown } | null)?.choices;
    if (!Array.isArray(c)) continue;
    const first = c[0] as { delta?: { content?: unknown } | null; text?: unknown } | undefined;
    const piece = first?.delta?.content ?? first?.text;
    if (typeof piece === 'string') text += piece;
  }
  return text;
}

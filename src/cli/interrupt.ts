/**
 * Ctrl-C during `loadlab run`: the first SIGINT (or SIGTERM) aborts the returned signal — the run
 * stops and its reports are written from what was recorded — and the second exits at once with
 * 130, writing nothing more.
 */
import { EXIT } from './exit-codes.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface Interrupts {
  /** Aborted at the first signal (RunOptions.signal). */
  readonly signal: AbortSignal;
  /** Stops listening (the default handling comes back). */
  dispose(): void;
}

interface SignalSource {
  on(name: (typeof SIGNALS)[number], f: () => void): unknown;
  off(name: (typeof SIGNALS)[number], f: () => void): unknown;
}

/** `first` runs at the first signal (say what happens); `exit` ends the process at the second. */
export function catchInterrupts(first: () => void, proc: SignalSource = process, exit: (code: number) => void = (c) => process.exit(c)): Interrupts {
  const ctl = new AbortController();
  const onSignal = (): void => {
    if (ctl.signal.aborted) return exit(EXIT.INTERRUPTED);
    ctl.abort();
    first();
  };
  for (const s of SIGNALS) proc.on(s, onSignal);
  return {
    signal: ctl.signal,
    dispose: () => {
      for (const s of SIGNALS) proc.off(s, onSignal);
    },
  };
}

/**
 * How reports print a time kept to 0.01 ms (the stream times TTFT, ITL, TPOT): 2 decimals under
 * 10 ms, 1 under 100 ms, whole ms from there (6.47, 23.5, 412), the digits that still mean
 * something at the histograms' 3 significant digits. report.html's charts print their axes alike.
 */
export function fineMsDigits(ms: number): number {
  const a = Math.abs(ms);
  return a < 10 ? 2 : a < 100 ? 1 : 0;
}

/** `ms` with fineMsDigits decimals. */
export const fineMs = (ms: number): string => ms.toFixed(fineMsDigits(ms));

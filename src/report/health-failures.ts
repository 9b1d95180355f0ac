/** The runner's failed `/health` reads by cause, as the printed summary and report.md say them: `502×1, reset×2`; '' when none. */
import type { HealthSampling } from './run-result.js';

export function healthFailures(h: HealthSampling): string {
  return Object.entries(h.failed ?? {})
    .filter(([, n]) => n > 0)
    .map(([cause, n]) => `${cause}×${n}`)
    .join(', ');
}

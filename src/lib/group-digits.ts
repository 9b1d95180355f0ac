/**
 * A number as the reports print it: integers grouped by thousands with a space (`1 184 000`),
 * others with `digits` decimals (`-12 345.7`).
 */
export function groupDigits(n: number, digits = 0): string {
  if (!Number.isFinite(n)) return String(n);
  const [int, frac] = n.toFixed(digits).split('.');
  const sign = int!.startsWith('-') ? '-' : '';
  const grouped = int!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return sign + grouped + (frac !== undefined ? `.${frac}` : '');
}

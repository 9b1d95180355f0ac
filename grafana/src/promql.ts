/**
 * Small PromQL builders, so the dashboards read as what they ask for. Metric names come in as
 * constants from src/contract/metric-names.ts; selectors are a metric plus label matchers.
 */

/** `{scenario=~"$scenario",endpoint=~"$endpoint"}` and the like; `extra` are literal matchers. */
export function sel(metric: string, matchers: readonly string[]): string {
  return matchers.length ? `${metric}{${matchers.join(',')}}` : metric;
}

/**
 * The sample name of a counter: METRIC names already end in `_total`, CLIENT_METRIC families do
 * not (metrics.om and prom-client add it to their samples).
 */
export const total = (name: string) => (name.endsWith('_total') ? name : `${name}_total`);

/** The `_bucket` series of a classic histogram family. */
export const bucket = (family: string) => `${family}_bucket`;

/** `label=~"$variable"`: a multi-value variable with All (its allValue is `.*`). */
export const re = (label: string, variable = label) => `${label}=~"$${variable}"`;

/** `label="value"` */
export const eq = (label: string, value: string) => `${label}="${value}"`;

/** Grafana's rate window: at least four scrape intervals (the data source's timeInterval). */
export const RATE_WINDOW = '$__rate_interval';

export const rate = (selector: string, window = RATE_WINDOW) => `rate(${selector}[${window}])`;
export const increase = (selector: string, window: string) => `increase(${selector}[${window}])`;

/** `sum by (a, b) (x)`; with no labels, `sum(x)`. */
export const sumBy = (labels: readonly string[], x: string) => (labels.length ? `sum by (${labels.join(', ')}) (${x})` : `sum(${x})`);
export const maxBy = (labels: readonly string[], x: string) => (labels.length ? `max by (${labels.join(', ')}) (${x})` : `max(${x})`);

/** A quantile of a classic histogram's `_bucket` series, per `by` labels. */
export function quantile(q: number, bucketSelector: string, by: readonly string[]): string {
  return `histogram_quantile(${q}, ${sumBy([...by, 'le'], rate(bucketSelector))})`;
}

/** `a / on (labels) b`: a ratio matched on the given labels. */
export const ratioOn = (a: string, labels: readonly string[], b: string) => `${a} / on (${labels.join(', ')}) ${b}`;

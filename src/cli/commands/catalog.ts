/**
 * The commands of `loadlab`: each one's usage line and one-line description. main.ts loads only
 * the module of the command being run (the others' modules, and everything they import, cost
 * start-up time for nothing); `loadlab --help` lists them all from here. Each command module
 * takes its `command` and `describe` from this table.
 */

export interface CommandEntry {
  command: string;
  describe: string;
}

export const COMMANDS = {
  run: { command: 'run <scenario>', describe: 'Run a scenario file on the embedded simulator (virtual time) or against --target URL' },
  blast: {
    command: 'blast',
    describe:
      'Raw throughput of one operation with autocannon (closed model) against --target URL; 429s by cause (a loopback `loadlab serve` names it, else inferred)',
  },
  serve: { command: 'serve', describe: 'Serve the simulator as an HTTP endpoint (/v2/{endpoint_id}/...) for real clients' },
  report: { command: 'report <path>', describe: 'Render a stored run again (report.md, report.html, metrics.om) from its report.json' },
  compare: {
    command: 'compare <a> <b>',
    describe: 'Compare two stored runs (A the base, B the new one): compare.md and compare.html, and optionally fail on a regression',
  },
  plan: {
    command: 'plan',
    describe:
      'Capacity planning: sweep workersMax (and with --grid endpoint knobs such as workerConcurrency: workers × concurrency) over seeds on the embedded simulator and recommend the smallest (with --grid, the cheapest) meeting every SLO; `plan merge` joins the shards of a sharded plan',
  },
  calibrate: {
    command: 'calibrate <inputs..>',
    describe:
      'Fit the endpoint a run against --target saw (job times, cold starts, idle timeout, workersMax), or an LLM worker to benchmark result files (vllm bench serve, GuideLLM, GenAI-Perf): calibrated.yaml for `loadlab plan`, and calibration.json/.md/.html',
  },
  merge: {
    command: 'merge <dirs..>',
    describe:
      'Merge the results of shards (`run --shard I/N`) into one run: counters summed, histograms merged exactly, thresholds judged on the whole; partial plans (`plan --shard`) as `plan merge` does',
  },
  k8s: { command: 'k8s', describe: 'Write Kubernetes manifests (an Indexed Job of shards and a merge Job) for a run or a plan sweep beyond one machine' },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

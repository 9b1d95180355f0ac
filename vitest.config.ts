import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Unit test files: in-process only, no child process, no socket, no browser (test/unit-guard.ts
 * fails a test that tries). They share worker threads without a fresh module graph per file
 * (`isolate: false`: ~60 s of CPU instead of ~135 s), and `npm run test:quick` runs only them.
 * Every other file is a system test, in a process of its own. A new file is a system test until
 * it is listed here.
 */
export const UNIT_FILES = [
  'test/api/*.test.ts',
  'test/architecture/import-rules.test.ts',
  'test/calibrate/*.test.ts',
  'test/cli/{held-spans,interrupt,listen-address,progress-line,progress-schedule,shard-option,start-at}.test.ts',
  'test/docs/{error-codes,links,no-private-citations,performance-table}.test.ts',
  'test/grafana/{dashboard-lint,generator-names}.test.ts',
  'test/lib/*.test.ts',
  'test/load/{abort-on-fail,closed-loop,cold-start,frozen-config,interrupt,job-times,llm-stream-metrics,prefix-cache-run,reachability,scenarios,shard-run,stream-fine-times,stream-metrics,template-and-histogram,threshold-load,threshold-outcomes}.test.ts',
  'test/load/{arrivals,behaviours,scenario,trace}/*.test.ts',
  'test/load/record/{headroom,per-window-answers,sparse-encoding,stream-observations,window-histograms}.test.ts',
  'test/load/targets/target-url.test.ts',
  'test/load/targets/http/{start-at,wall-queue}.test.ts',
  'test/plan/{dry-run-balancer,grid-type,plan-charts,plan-closed,plan-concurrency,plan-md-sampling,plan-shard,sweep-order}.test.ts',
  'test/reference/*.test.ts',
  'test/report/{compare,golden,html-charts,long-run,md-to-html,merge-runs,merge-stream-times,render-junit,render-openmetrics,v1-report,verdict-banner,verdict,verdict-lateness,window-buckets,worker-bill}.test.ts',
  'test/server/{config-file,status-json}.test.ts',
  'test/sim/*.test.ts',
  'test/telemetry/{batched-histogram,live-run-registry,metric-names-single-source,session-tracing}.test.ts',
];

/**
 * Files that run long for their size, started first. Without vitest's duration cache (a clean
 * clone, as in CI) files run system project first, then unit, each largest first: a long unit
 * file such as the Erlang C oracle (~25 s of CPU in a small file) then started last and ran alone
 * on one core at the end. Listed files start first, the rest keep vitest's order.
 */
const LONG_FILES = [
  'test/sim/erlang-c.test.ts',
  'test/docs/readme-commands.test.ts',
  'test/load/job-accounting.test.ts',
  'test/calibrate/bench-kv-fit.test.ts',
  'test/plan/plan-trace.test.ts',
];

class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FILES.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONG_FILES.length : i;
    };
    // Array sort is stable: within a rank, vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Vitest's default on 2 cores is ONE worker (cores - 1): files one after another. Most system
    // files wait on child processes, servers or wall-clock runs: four at once keep 2 cores busier
    // than three (paired on a quiet machine, no duration cache: 258 and 224 s against 265 and 283 s).
    maxWorkers: 4,
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT_FILES, setupFiles: ['test/unit-guard.ts'], pool: 'threads', isolate: false },
      },
      {
        extends: true,
        // globalSetup builds dist/ for the files that run the CLI.
        test: { name: 'system', include: ['test/**/*.test.ts'], exclude: UNIT_FILES, globalSetup: ['test/global-setup.ts'], pool: 'forks' },
      },
    ],
  },
});

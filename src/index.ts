/**
 * loadlab as a library (package.json `exports`): the simulator and its job API, the scenario
 * runner, the versioned RunResult and its renderers, and the HTTP server. Everything else under
 * src/ is internal and may change without notice. Nothing in src/ imports this file
 * (test/architecture/import-rules.test.ts).
 */
export { Simulator } from './sim/simulator.js';
export { Api } from './api/api.js';
export { parseSimConfig, endpointConfig } from './contract/endpoint-config.js';
export type { SimConfig, SimConfigInput, EndpointConfig } from './contract/endpoint-config.js';
export { OPERATIONS, DEFAULT_LIMITS } from './contract/operations.js';
export type { Operation } from './contract/operations.js';

export { runScenario } from './load/run-scenario.js';
export type { RunOptions } from './load/run-scenario.js';
export { loadScenarioFile, parseScenario } from './load/scenario/loader.js';
export type { LoadResult } from './load/scenario/loader.js';
export type { Scenario } from './load/scenario/schema.js';

export { RUN_RESULT_VERSION } from './report/run-result.js';
export type { RunResult, ShardSection } from './report/run-result.js';
export { renderJson, parseRunResult } from './report/render-json.js';
export { renderMarkdown } from './report/render-md.js';
export { renderHtml } from './report/render-html.js';
export { renderJunit } from './report/render-junit.js';
export { renderOpenMetrics } from './report/render-openmetrics.js';
export { evaluateThresholds } from './report/thresholds.js';

export { startServer } from './server/server.js';
export type { ServeOptions } from './server/server.js';
export { LoadlabError, LOADLAB_ERROR_CODES, type LoadlabErrorCode } from './contract/loadlab-error.js';

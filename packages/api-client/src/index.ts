// The typed Basalt API client: openapi-fetch over the types generated from openapi.json.
// Used by the console (same-origin, session cookie), the e2e tests and tools (API key).
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths } from './schema.js';
export type Schemas = components['schemas'];
export type BasaltClient = Client<paths>;

export interface BasaltClientOptions extends ClientOptions {
  /** An API key from POST /v1/api-keys, sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** A session cookie value (`basalt_session=...`) for callers outside a browser. */
  sessionCookie?: string;
}

export function createBasaltClient(options: BasaltClientOptions = {}): BasaltClient {
  const { apiKey, sessionCookie, headers, ...rest } = options;
  const merged: Record<string, string> = { ...(headers as Record<string, string> | undefined) };
  if (apiKey) merged.authorization = `Bearer ${apiKey}`;
  if (sessionCookie) merged.cookie = sessionCookie;
  return createClient<paths>({ ...rest, headers: merged });
}

/** The error body every non-2xx response carries. */
export type ApiError = components['schemas']['ErrorDto'];

export { renderBenchmarkReport, reportHeadline, type ReportChartLink, type ReportHeadlineFigures, type ReportRenderOptions } from './benchmark-report.js';
export { benchResultSection } from './benchmark-json.js';
export { benchmarkRunOf, benchmarkScenarioOf, type BenchmarkRunRecord, type BenchmarkScenarioRecord } from './benchmark-runs.js';
export { typeReportDerived, reportEnvironmentSentence, type TypeReportDerived } from './type-report-derived.js';
export { typeReportFiles, reportJson, type ReportFile } from './type-report-files.js';
export { barChartSvg } from './benchmark-report-svg.js';
export { typeReportDocumentOf, typeReportDocumentProblem, TYPE_REPORT_FORMAT, type ReportRun, type ReportScenario, type TypeReportDocument } from './type-report-document.js';

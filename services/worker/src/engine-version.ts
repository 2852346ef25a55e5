// The engine version an instance asks for (`instances.engine_version`: a major.minor series, the
// API's ENGINE_VERSIONS) against the one a node runs (INFO server's `basalt_version`, the engine's
// Cargo version). The health check refuses a node of another series, so the version the console
// and the API show is the one that answers on the endpoint.

/** Why a node reporting `reported` does not run the series `wanted`; null when it does. */
export function engineVersionMismatch(wanted: string, reported: string | undefined): string | null {
  if (reported !== undefined && (reported === wanted || reported.startsWith(`${wanted}.`))) return null;
  return `the node runs engine ${reported ?? '(no basalt_version in INFO)'}, the instance asks for engine version ${wanted}`;
}

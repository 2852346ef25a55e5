// An instance's architecture (issue 15): `standalone` is one node; `standard` is a primary and
// 1..5 replicas on separate VMs, replicating `sync` (a write is acknowledged once a replica
// holds it) or `async`. One rule for the API (400), the console (before a round trip) and the
// worker (how many nodes to build).

export const ARCHITECTURES = ['standalone', 'standard'] as const;
export type Architecture = (typeof ARCHITECTURES)[number];

export const REPLICAS_MIN = 1;
export const REPLICAS_MAX = 5;

export const REPLICATION_MODES = ['sync', 'async'] as const;
export type ReplicationMode = (typeof REPLICATION_MODES)[number];
/** What a `standard` instance replicates with when the customer does not say. */
export const DEFAULT_REPLICATION_MODE: ReplicationMode = 'sync';

export const NODE_ROLES = ['primary', 'replica'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** What a customer asks for; absent fields take their defaults. */
export interface TopologyInput {
  architecture?: string;
  replicas?: number;
  replication_mode?: string;
}

export interface Topology {
  architecture: Architecture;
  /** 0 for `standalone`. */
  replicas: number;
  /** Undefined for `standalone` (nothing replicates). */
  replication_mode?: ReplicationMode;
}

export interface TopologyProblem {
  field: 'architecture' | 'replicas' | 'parameters.replication_mode';
  problem: string;
}

/** The topology the input names, or why it is refused. */
export function parseTopology(input: TopologyInput): { topology: Topology } | { problems: TopologyProblem[] } {
  const problems: TopologyProblem[] = [];
  const architecture = input.architecture ?? 'standalone';
  if (!(ARCHITECTURES as readonly string[]).includes(architecture)) {
    problems.push({ field: 'architecture', problem: `must be one of ${ARCHITECTURES.join(', ')}` });
  }
  if (architecture !== 'standard') {
    if (input.replicas !== undefined) problems.push({ field: 'replicas', problem: 'only a standard instance has replicas' });
    if (input.replication_mode !== undefined) {
      problems.push({ field: 'parameters.replication_mode', problem: 'only a standard instance replicates' });
    }
    return problems.length ? { problems } : { topology: { architecture: 'standalone', replicas: 0 } };
  }
  const replicas = input.replicas ?? REPLICAS_MIN;
  if (!Number.isInteger(replicas) || replicas < REPLICAS_MIN || replicas > REPLICAS_MAX) {
    problems.push({ field: 'replicas', problem: `must be a whole number from ${REPLICAS_MIN} to ${REPLICAS_MAX}` });
  }
  const mode = input.replication_mode ?? DEFAULT_REPLICATION_MODE;
  if (!(REPLICATION_MODES as readonly string[]).includes(mode)) {
    problems.push({ field: 'parameters.replication_mode', problem: `must be one of ${REPLICATION_MODES.join(', ')}` });
  }
  if (problems.length) return { problems };
  return { topology: { architecture: 'standard', replicas, replication_mode: mode as ReplicationMode } };
}

/** VMs an instance of this topology runs: the primary and its replicas. */
export function nodeCountOf(topology: Pick<Topology, 'replicas'>): number {
  return 1 + topology.replicas;
}

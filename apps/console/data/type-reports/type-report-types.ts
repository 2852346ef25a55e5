// A per-type benchmark report and the catalog's reference figures, as the API serves them.
// TEMPORARY: written from the shared contract until the API's spec has them; then these become
// Schemas['…'] aliases from @basalt/api-client.
import type { Benchmark } from '../benchmarks/instance-benchmarks-query'
import type { Schemas } from '../fetcher'

export interface TypeReport {
  id: string
  instance_type: string
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  suites: string[]
  engine_version: string | null
  peers: { server: 'redis' | 'memcached'; version: string }[]
  environment: string
  created_at: string
  started_at: string | null
  finished_at: string | null
  operation_id: string | null
  instance: { id: string; status: Schemas['InstanceDetailDto']['status'] } | null
  headline: { reads_per_sec: number | null; writes_per_sec: number | null; p99_latency_ms: number | null; peer_ratio: number | null } | null
  runs: Benchmark[]
}

export interface TypeReference {
  report_id: string
  published_at: string
  reads_per_sec: number | null
  writes_per_sec: number | null
  p99_latency_ms: number | null
}

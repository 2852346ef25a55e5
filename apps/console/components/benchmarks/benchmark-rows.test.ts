import { describe, expect, it } from 'vitest'
import { benchmarkRows, runNotes } from './benchmark-rows'

const scenario = {
  position: 1,
  name: 'write-only 128 B, ping-pong',
  server: 'basalt' as const,
  tool: 'basalt-bench 0.1.0',
  command_line: "basalt-bench --server=10.77.0.5 --port=6379 '--authenticate=default:<password>' --ratio=1:0 --timeout=10",
  memtier_command: "memtier_benchmark --server=10.77.0.5 --port=6379 '--authenticate=default:<password>' --ratio=1:0",
  ycsb_command: null,
  workload: 'write-only',
  value_size: 128,
  connections: 8,
  pipeline: 1,
  requests: 20008,
  qps: 15020.5,
  avg_latency_ms: 0.4,
  p50_latency_ms: 0.351,
  p99_latency_ms: 1.2,
  p999_latency_ms: 2.5,
  errors: 0,
  engine_version: '0.1.0',
  instance_type: 'kv.standard.small',
  started_at: '2026-11-23T19:00:00Z',
  finished_at: '2026-11-23T19:00:02Z',
  encryption: null,
  round_ops_per_sec: null,
}

describe('benchmarkRows', () => {
  it('shows each scenario the worker stored, with its figures and commands as stored', () => {
    expect(benchmarkRows({ scenarios: [scenario] })).toEqual([
      {
        label: 'write-only 128 B, ping-pong',
        workload: 'write-only',
        valueSize: 128,
        connections: 8,
        pipeline: 1,
        opsPerSec: 15020.5,
        avgMs: 0.4,
        p50Ms: 0.351,
        p99Ms: 1.2,
        p999Ms: 2.5,
        errors: 0,
        command: scenario.command_line,
        memtierCommand: scenario.memtier_command,
        ycsbCommand: null,
        peer: null,
      },
    ])
    expect(benchmarkRows({ scenarios: [] })).toEqual([])
    const peer = { ...scenario, server: 'redis' as const, qps: 10013.7, p99_latency_ms: 2.4, engine_version: 'Redis 7.0.15' }
    expect(benchmarkRows({ scenarios: [scenario, peer] }).map((r) => r.peer)).toEqual([{ server: 'redis', version: 'Redis 7.0.15', opsPerSec: 10013.7, p99Ms: 2.4, ratio: 15020.5 / 10013.7 }])
  })
})

describe('runNotes', () => {
  it("says how the run was scaled and where its peer ran, from the worker's results only", () => {
    expect(
      runNotes({
        results: {
          scaling: ['8 connections'],
          peer: { placement: 'Redis in a network namespace of its own' },
          peer_skipped: [{ name: 'memory:data 1:4, uniform read', why: 'Redis keeps every value in memory' }],
        },
      }),
    ).toEqual(['Scaling: 8 connections.', 'Peer: Redis in a network namespace of its own.', 'No peer figure for memory:data 1:4, uniform read: Redis keeps every value in memory.'])
    expect(runNotes({ results: null })).toEqual([])
    expect(runNotes({ results: { peer: null, peer_note: 'no peer for a custom run' } })).toEqual(['Peer: no peer for a custom run.'])
    expect(runNotes({ results: { peer: null, peer_note: 'no peer: itself', engines: { placement: 'basalt-server in a namespace' } } })).toEqual([
      'Peer: no peer: itself.',
      'Engines measured (one per scenario, started and removed by the run): basalt-server in a namespace.',
    ])
  })
})

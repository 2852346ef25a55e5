import { describe, expect, it } from 'vitest';
import { memtierCommandOf, ycsbCommandOf } from '../src/rules.js';

describe('rerun commands', () => {
  it('memtier_benchmark for a memtier scenario, without basalt-bench --timeout', () => {
    const line = "basalt-bench --server=10.77.0.2 --port=6379 '--authenticate=default:<password>' --threads=1 --ratio=1:1 --timeout=10 --json-out-file=result.json";
    expect(memtierCommandOf(line)).toBe("memtier_benchmark --server=10.77.0.2 --port=6379 '--authenticate=default:<password>' --threads=1 --ratio=1:1 --json-out-file=result.json");
    expect(ycsbCommandOf(line)).toBeNull();
  });

  it("YCSB's for a ycsb scenario: properties as -p, connections as -threads", () => {
    const line =
      "basalt-bench ycsb run --server=10.77.0.2 --port=6379 '--authenticate=default:<password>' --workload=c --fieldcount=1 --fieldlength=100 --command-group=string --recordcount=50000 --threads=8 --operationcount=50000 --requestdistribution=zipfian --print-percentiles=50,99,99.9 --hide-histogram --timeout=10 --json-out-file=result.json";
    expect(ycsbCommandOf(line)).toBe(
      "./bin/ycsb run redis -s -p redis.host=10.77.0.2 -p redis.port=6379 -p 'redis.password=<password>' -P workloads/workloadc -p fieldcount=1 -p fieldlength=100 -p redis.command_group=string -p recordcount=50000 -p operationcount=50000 -p requestdistribution=zipfian -threads 8",
    );
    expect(memtierCommandOf(line)).toBeNull();
  });

  it('no twin for canonical', () => {
    const line = 'basalt-bench canonical --server=10.77.0.2 --port=11211 --clients=64';
    expect(memtierCommandOf(line)).toBeNull();
    expect(ycsbCommandOf(line)).toBeNull();
  });
});

// The e2e files that run alone, after the others (which run two at a time): their assertions
// hold only on a host that is not also running a neighbour's load — failover timeouts (ha/*),
// a throughput compared within 15 % (instance-monitoring), a cancel that must stop a client
// within seconds and long fixed-length load phases (the benchmark files: two of them at once
// on 2 cores would each take twice as long and gain nothing), and the opt-in matrices.
export const SERIAL_FILES = [
  'ha/**/*.test.ts',
  'browser/instance-monitoring.test.ts',
  'browser/instance-types.test.ts',
  'provisioning/benchmark.test.ts',
  'provisioning/encryption-overhead.test.ts',
  'provisioning/type-report.test.ts',
  'provisioning/provisioning-benchmark.test.ts',
  'provisioning/publish-report.test.ts',
  'provisioning/recheck-report.test.ts',
];

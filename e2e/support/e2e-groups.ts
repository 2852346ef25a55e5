// How the e2e files share the 2-core host (e2e/vitest.config.ts reads BASALT_E2E_GROUP; the
// runner, scripts/lib/suites.mjs, runs the groups). `parallel`: every file not named below, two
// at a time, beside the unit suites. Then the files that must not share the host with those,
// in two lanes that run beside each other, each file alone in its lane:
// - `ha`: failover timings, kills and partitions; they wait on the failover monitor, so little
//   CPU of their own, but a neighbour's Terraform/Ansible bursts must not be another HA file's;
// - `load`: fixed-length load phases and report suites that keep both cores busy (two of them at
//   once would each take twice as long and gain nothing), a throughput compared within 15 %
//   (instance-monitoring), a cancel that must stop a client within seconds, the opt-in matrices.
export const ALONE_LANES = {
  ha: ['ha/**/*.test.ts'],
  load: [
    'browser/instance-monitoring.test.ts',
    // A shortened report's suite on a temporary instance, checked in the page and through the API.
    'browser/instance-types.test.ts',
    'provisioning/benchmark.test.ts',
    'provisioning/encryption-overhead.test.ts',
    // Opt-in (BASALT_FAULT_MATRIX): kills workers at every step of every kind, one cell after another.
    'provisioning/fault-matrix.test.ts',
    'provisioning/provisioning-benchmark.test.ts',
    'provisioning/publish-report.test.ts',
    'provisioning/recheck-report.test.ts',
  ],
} as const;

export type E2eGroup = 'parallel' | keyof typeof ALONE_LANES;
export const E2E_GROUPS: readonly E2eGroup[] = ['parallel', ...(Object.keys(ALONE_LANES) as (keyof typeof ALONE_LANES)[])];
export const ALONE_FILES: string[] = Object.values(ALONE_LANES).flat();

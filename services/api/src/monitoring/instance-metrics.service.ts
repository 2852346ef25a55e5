// An instance's metrics for the console: the fixed series of METRIC_SERIES, each one PromQL
// query over the instance's own targets (its project and id), for a validated range.
import { Injectable } from '@nestjs/common';
import { METRIC_SERIES, parseMetricSeries, parseMetricsRange } from '@basalt/api-client/rules';
import { ApiConfig } from '../config.js';
import { Invalid, NotConfigured } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { InstanceService } from '../instances/instance.service.js';
import { queryRange } from './prometheus.client.js';
import { instanceQueries, stepFor } from './instance-metrics.queries.js';
import type { InstanceMetricsDto, MetricPointDto } from './instance-metrics.dto.js';

const GIB = 1024 ** 3;

@Injectable()
export class InstanceMetricsService {
  constructor(
    private readonly instances: InstanceService,
    private readonly config: ApiConfig,
  ) {}

  async get(auth: AuthContext, projectId: string, instanceId: string, range = '1h', only?: string): Promise<InstanceMetricsDto> {
    const seconds = parseMetricsRange(range);
    if (seconds === undefined) throw new Invalid('range must be <n>m, <n>h or <n>d between 15m and 7d', [{ field: 'range', problems: ['between 15m and 7d'] }]);
    const asked = parseMetricSeries(only);
    if (!asked.ok) throw new Invalid(asked.error, [{ field: 'series', problems: [asked.error] }]);
    const instance = await this.instances.load(auth, projectId, instanceId);
    const prometheus = this.config.prometheusUrl;
    if (!prometheus) throw new NotConfigured('Monitoring is not configured on this platform (BASALT_PROMETHEUS_URL)');
    const { step, window } = stepFor(seconds);
    // Aligned to the step, so that two refreshes within a step draw the same points.
    const end = Math.floor(Date.now() / 1000 / step) * step;
    const start = end - seconds;
    const queries = instanceQueries(instance.projectId, instance.id, window);
    const series = await Promise.all(
      asked.keys.map(async (key) => {
        const result = await queryRange(prometheus, queries[key], start, end, step);
        const points: MetricPointDto[] = (result[0]?.values ?? [])
          .map(([t, v]) => ({ t, v: Number(v) }))
          // No data (0/0, a percentile without requests) is a gap, not a zero.
          .filter((p) => Number.isFinite(p.v));
        return { key, unit: METRIC_SERIES[key], points };
      }),
    );
    return { range, start, end, step_seconds: step, window_seconds: window, disk_limit_bytes: instance.diskGib * GIB, series };
  }
}

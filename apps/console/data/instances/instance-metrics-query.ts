import { useQuery } from '@tanstack/react-query'
import { METRICS_REFRESH_MS, type MetricSeriesKey } from '@basalt/api-client/rules'
import { api, unwrap, type Schemas } from '../fetcher'
import { queryKeys } from '../keys'

export type InstanceMetrics = Schemas['InstanceMetricsDto']
export type MetricSeries = Schemas['MetricSeriesDto']

export function getInstanceMetrics(project: string, instance: string, range: string, series: MetricSeriesKey[] | undefined, signal?: AbortSignal) {
  const query = series ? { range, series: series.join(',') } : { range }
  return unwrap(api.GET('/v1/projects/{project}/instances/{instance}/metrics', { params: { path: { project, instance }, query }, signal }))
}

/** The instance's charts, asked again every 10 s while shown; `series` narrows to a few (sparklines). */
export function useInstanceMetricsQuery(project: string, instance: string, range: string, series?: MetricSeriesKey[], enabled = true) {
  return useQuery({
    queryKey: queryKeys.instances.metrics(project, instance, range, series?.join(',') ?? 'all'),
    queryFn: ({ signal }) => getInstanceMetrics(project, instance, range, series, signal),
    refetchInterval: METRICS_REFRESH_MS,
    enabled,
    retry: false,
    placeholderData: (previous) => previous,
  })
}

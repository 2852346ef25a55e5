// A per-type benchmark report, as the API serves it.
import type { Schemas } from '../fetcher'

export type TypeReport = Schemas['InstanceTypeReportDto']

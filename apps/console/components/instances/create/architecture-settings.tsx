'use client'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { REPLICAS_MAX, REPLICAS_MIN } from '@basalt/api-client/rules'
import type { Architecture } from '@basalt/api-client/rules'
import type { InstanceFormValues } from './validation'

const REPLICA_COUNTS = Array.from({ length: REPLICAS_MAX - REPLICAS_MIN + 1 }, (_, i) => String(REPLICAS_MIN + i))

/** Standalone (one node) or standard (a primary and replicas with automatic failover), issue 15. */
export function ArchitectureSettings({
  values,
  onChange,
  error,
  offered,
}: {
  values: InstanceFormValues
  onChange: (patch: Partial<InstanceFormValues>) => void
  error?: string
  /** The architectures the chosen region places (RegionDto.architectures); all while unknown. */
  offered?: Architecture[]
}) {
  const standard = values.architecture === 'standard'
  const standardOffered = !offered || offered.includes('standard')
  return (
    <Card>
      <CardHeader>
        <CardTitle>Architecture</CardTitle>
      </CardHeader>
      <CardBody className="grid gap-4 sm:grid-cols-3">
        <Field
          id="architecture"
          label="Architecture"
          hint={
            standardOffered
              ? 'Standard: a primary and replicas on separate VMs; a replica takes over when the primary fails.'
              : "Standard is not offered in this region: its workers run process VMs, which give a replica no VM of its own."
          }
          error={error}
        >
          <Select value={values.architecture} onValueChange={(architecture) => onChange({ architecture: architecture as InstanceFormValues['architecture'] })}>
            <SelectTrigger id="architecture" aria-invalid={Boolean(error) || undefined}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="standalone">Standalone — one node</SelectItem>
              <SelectItem value="standard" disabled={!standardOffered}>
                Standard — primary and replicas
              </SelectItem>
            </SelectContent>
          </Select>
        </Field>
        {standard ? (
          <>
            <Field id="replicas" label="Replicas" hint="Each replica is a VM of the chosen type.">
              <Select value={values.replicas} onValueChange={(replicas) => onChange({ replicas })}>
                <SelectTrigger id="replicas">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {REPLICA_COUNTS.map((count) => (
                    <SelectItem key={count} value={count}>
                      {count}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </Field>
            <Field id="replication-mode" label="Replication" hint="Sync: a write is acknowledged once a replica has it, so a failover loses none.">
              <Select value={values.replicationMode} onValueChange={(mode) => onChange({ replicationMode: mode as InstanceFormValues['replicationMode'] })}>
                <SelectTrigger id="replication-mode">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="sync">sync — no acknowledged write lost</SelectItem>
                  <SelectItem value="async">async — faster writes, a failover may lose the replicas' lag</SelectItem>
                </SelectContent>
              </Select>
            </Field>
          </>
        ) : null}
      </CardBody>
    </Card>
  )
}

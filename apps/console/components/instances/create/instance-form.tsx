'use client'
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Switch } from '@/components/ui/switch'
import { useInstanceTypesQuery } from '@/data/catalog/instance-types-query'
import { useRegionsQuery } from '@/data/catalog/regions-query'
import { useRestoreWindowQuery } from '@/data/backups/restore-window-query'
import { ApiError } from '@/data/fetcher'
import { useInstanceCreateMutation, type InstanceCreateResult } from '@/data/instances/instance-create-mutation'
import { AllowlistEditor } from './allowlist-editor'
import { InstanceTypePicker } from './instance-type-picker'
import { AdvancedSettings } from './advanced-settings'
import { ArchitectureSettings } from './architecture-settings'
import { StartFromSettings } from './start-from-settings'
import { BACKUP_RETENTION_DAYS_DEFAULT, BACKUP_WINDOW_DEFAULT } from '../backups/backup-settings'
import { PASSWORD_MAX, PASSWORD_MIN, toCreateRequest, validateInstanceForm, type InstanceFormValues } from './validation'

const INITIAL: InstanceFormValues = {
  name: '',
  instanceType: '',
  region: '',
  diskGib: '',
  customPassword: false,
  password: '',
  allowlist: [{ cidr: '', description: '' }],
  tlsEnabled: false,
  deletionProtection: false,
  fsync: 'default',
  tags: '',
  architecture: 'standalone',
  replicas: '1',
  replicationMode: 'sync',
  startFrom: 'empty',
  restoreSourceId: '',
  restoreBackupId: '',
  restorePoint: '',
  rdbImportId: '',
  backupWindow: BACKUP_WINDOW_DEFAULT,
  retentionDays: String(BACKUP_RETENTION_DAYS_DEFAULT),
}

export function InstanceForm({ projectId, onCreated }: { projectId: string; onCreated: (result: InstanceCreateResult) => void }) {
  const types = useInstanceTypesQuery()
  const regions = useRegionsQuery()
  const create = useInstanceCreateMutation(projectId)
  const [values, setValues] = useState<InstanceFormValues>(INITIAL)
  const [submitted, setSubmitted] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const set = (patch: Partial<InstanceFormValues>) => setValues((v) => ({ ...v, ...patch }))

  const type = types.data?.find((t) => t.id === values.instanceType)
  const restoreWindow = useRestoreWindowQuery(projectId, values.startFrom === 'point' && values.restoreSourceId ? values.restoreSourceId : undefined)
  const errors = useMemo(() => validateInstanceForm(values, type, restoreWindow.data), [values, type, restoreWindow.data])
  const shown = submitted ? errors : {}

  // Sensible defaults once the catalog arrives: the first available region and the first type offered there.
  useEffect(() => {
    const first = regions.data?.find((r) => r.available)
    if (!values.region && first) set({ region: first.id })
  }, [regions.data, values.region])
  // The workers' reason for each region they cannot serve: a disabled option alone does not say why.
  const unavailable = regions.data?.filter((r) => !r.available) ?? []
  // The architectures the chosen region's workers place (process VMs: standalone only).
  const offered = regions.data?.find((r) => r.id === values.region)?.architectures
  useEffect(() => {
    if (offered && !offered.includes(values.architecture)) set({ architecture: 'standalone' })
  }, [offered, values.architecture])
  useEffect(() => {
    if (values.instanceType || !types.data?.length) return
    const first = types.data.find((t) => !values.region || !t.regions.length || t.regions.includes(values.region))
    if (first) set({ instanceType: first.id, diskGib: String(first.disk_gib_min) })
  }, [types.data, values.instanceType, values.region])

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    setSubmitted(true)
    if (Object.keys(errors).length) {
      // Take the user to the first field that needs fixing once the errors have rendered.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
      return
    }
    create.mutate(toCreateRequest(values), { onSuccess: onCreated })
  }

  const apiError = create.error instanceof ApiError ? create.error : null

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Create instance" className="grid max-w-5xl gap-5">
      {create.error ? (
        <Alert tone="danger">
          {create.error.message}
          {apiError?.requestId ? <span className="block text-xs opacity-70">Request ID: {apiError.requestId}</span> : null}
        </Alert>
      ) : null}
      {types.error || regions.error ? <Alert tone="danger">Could not load the catalog: {(types.error ?? regions.error)?.message}</Alert> : null}

      <Card>
        <CardHeader>
          <CardTitle>Basics</CardTitle>
        </CardHeader>
        <CardBody className="grid gap-4 sm:grid-cols-2">
          <Field id="name" label="Instance name" hint="Lowercase letters, digits and hyphens." error={shown.name}>
            <Input
              id="name"
              value={values.name}
              placeholder="orders-cache"
              aria-invalid={Boolean(shown.name) || undefined}
              onChange={(e) => set({ name: e.target.value })}
            />
          </Field>
          <Field
            id="region"
            label="Region"
            error={shown.region}
            hint={unavailable.length ? unavailable.map((r) => `${r.name || r.id} is unavailable: ${r.unavailable_reason ?? 'its workers cannot place VMs there'}`).join('; ') : undefined}
          >
            <Select value={values.region} onValueChange={(region) => set({ region })}>
              <SelectTrigger id="region" aria-invalid={Boolean(shown.region) || undefined}>
                <SelectValue placeholder="Choose a region" />
              </SelectTrigger>
              <SelectContent>
                {regions.data?.map((region) => (
                  <SelectItem key={region.id} value={region.id} disabled={region.available === false}>
                    {region.name || region.id}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        </CardBody>
      </Card>

      <StartFromSettings projectId={projectId} values={values} onChange={set} errors={shown} />

      <Card>
        <CardHeader>
          <CardTitle>Size</CardTitle>
        </CardHeader>
        <CardBody className="space-y-4">
          {types.isPending ? (
            <p className="text-sm text-muted">Loading instance types…</p>
          ) : (
            <InstanceTypePicker
              types={types.data ?? []}
              value={values.instanceType}
              region={values.region}
              error={shown.instanceType}
              onChange={(id) => {
                const next = types.data?.find((t) => t.id === id)
                const disk = Number(values.diskGib)
                const fits = next && disk >= next.disk_gib_min && disk <= next.disk_gib_max
                set({ instanceType: id, diskGib: fits || !next ? values.diskGib : String(next.disk_gib_min) })
              }}
            />
          )}
          <div className="max-w-xs">
            <Field
              id="disk"
              label="Disk (GiB)"
              hint={type ? `${type.disk_gib_min}–${type.disk_gib_max} GiB for ${type.id}.` : undefined}
              error={shown.diskGib}
            >
              <Input
                id="disk"
                type="number"
                inputMode="numeric"
                min={type?.disk_gib_min}
                max={type?.disk_gib_max}
                value={values.diskGib}
                aria-invalid={Boolean(shown.diskGib) || undefined}
                onChange={(e) => set({ diskGib: e.target.value })}
              />
            </Field>
          </div>
        </CardBody>
      </Card>

      <ArchitectureSettings values={values} onChange={set} error={shown.architecture} offered={offered} />

      <Card>
        <CardHeader>
          <CardTitle>Access and security</CardTitle>
        </CardHeader>
        <CardBody className="space-y-5">
          <div className="space-y-3">
            <ToggleRow
              id="custom-password"
              label="Set my own password"
              hint="Otherwise Basalt generates a strong password for the default user and shows it once."
              checked={values.customPassword}
              onChange={(customPassword) => set({ customPassword })}
            />
            {values.customPassword ? (
              <div className="max-w-sm">
                <Field id="password" label="Password" hint={`${PASSWORD_MIN}–${PASSWORD_MAX} characters.`} error={shown.password}>
                  <Input
                    id="password"
                    type="password"
                    autoComplete="new-password"
                    value={values.password}
                    aria-invalid={Boolean(shown.password) || undefined}
                    onChange={(e) => set({ password: e.target.value })}
                  />
                </Field>
              </div>
            ) : null}
          </div>
          <AllowlistEditor rows={values.allowlist} onChange={(allowlist) => set({ allowlist })} error={shown.allowlist} />
          <ToggleRow
            id="tls"
            label="TLS"
            hint="Encrypt client connections; clients connect with rediss:// and redis-cli --tls."
            checked={values.tlsEnabled}
            onChange={(tlsEnabled) => set({ tlsEnabled })}
          />
          <ToggleRow
            id="deletion-protection"
            label="Deletion protection"
            hint="The instance cannot be deleted until this is turned off."
            checked={values.deletionProtection}
            onChange={(deletionProtection) => set({ deletionProtection })}
          />
        </CardBody>
      </Card>

      <AdvancedSettings values={values} onChange={set} tagsError={shown.tags} />

      <div className="flex justify-end gap-2">
        <Button type="submit" disabled={create.isPending || types.isPending}>
          {create.isPending ? 'Creating…' : 'Create instance'}
        </Button>
      </div>
    </form>
  )
}

function ToggleRow({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string
  label: string
  hint: string
  checked: boolean
  onChange: (checked: boolean) => void
}) {
  return (
    <div className="flex items-start gap-3">
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-hint`} className="mt-0.5" />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      </div>
    </div>
  )
}

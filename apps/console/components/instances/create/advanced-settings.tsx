'use client'
import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { Field } from '@/components/ui/field'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { FSYNC_POLICIES, type InstanceFormValues } from './validation'

/** Durability parameter and tags: optional, the engine's defaults otherwise. */
export function AdvancedSettings({
  values,
  onChange,
  tagsError,
}: {
  values: InstanceFormValues
  onChange: (patch: Partial<InstanceFormValues>) => void
  tagsError?: string
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Parameters and tags</CardTitle>
      </CardHeader>
      <CardBody className="grid gap-4 sm:grid-cols-2">
        <Field id="fsync" label="Write-ahead log fsync" hint="When writes reach the disk.">
          <Select value={values.fsync} onValueChange={(fsync) => onChange({ fsync: fsync as InstanceFormValues['fsync'] })}>
            <SelectTrigger id="fsync">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="default">Engine default</SelectItem>
              {FSYNC_POLICIES.map((p) => (
                <SelectItem key={p.value} value={p.value}>
                  {p.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <div className="sm:col-span-2">
          <Field id="tags" label="Tags" hint="One key=value per line, e.g. team=web." error={tagsError}>
            <Textarea
              id="tags"
              value={values.tags}
              placeholder={'team=web\nenv=staging'}
              aria-invalid={Boolean(tagsError) || undefined}
              onChange={(e) => onChange({ tags: e.target.value })}
            />
          </Field>
        </div>
      </CardBody>
    </Card>
  )
}

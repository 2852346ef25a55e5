'use client'
import { useState } from 'react'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useRdbImportLimitsQuery } from '@/data/backups/rdb-import-limits-query'
import { useRdbImportMutation, type RdbImport } from '@/data/backups/rdb-import-mutation'
import type { InstanceFormValues } from '../create/validation'
import { formatBytes, formatDateTime } from '../format'

/**
 * The create form's "start from an RDB file": the chosen dump.rdb is uploaded at once, streamed
 * from disk as the request body (the page never holds it whole), refused here beyond the
 * platform's stated limit before a byte is sent; the create then names the upload.
 */
export function RdbFileField({
  projectId,
  values,
  onChange,
  error,
}: {
  projectId: string
  values: InstanceFormValues
  onChange: (patch: Partial<InstanceFormValues>) => void
  error?: string
}) {
  const limits = useRdbImportLimitsQuery(projectId, true)
  const upload = useRdbImportMutation(projectId)
  const [uploaded, setUploaded] = useState<{ name: string; file: RdbImport }>()
  const [tooLarge, setTooLarge] = useState<string>()
  const max = limits.data?.max_bytes

  const choose = (file: File | undefined) => {
    setUploaded(undefined)
    setTooLarge(undefined)
    onChange({ rdbImportId: '' })
    if (!file || max === undefined) return
    if (file.size > max) return setTooLarge(`${file.name} is ${formatBytes(file.size)}; an upload may be at most ${formatBytes(max)}.`)
    upload.mutate(file, {
      onSuccess: (made) => {
        setUploaded({ name: file.name, file: made })
        onChange({ rdbImportId: made.id })
      },
    })
  }

  if (limits.error) return <p className="text-sm text-danger">RDB uploads are not available: {limits.error.message}</p>
  const shownError = tooLarge ?? upload.error?.message ?? error
  return (
    <Field
      id="rdb-file"
      label="RDB file"
      error={shownError}
      hint={
        upload.isPending
          ? 'Uploading…'
          : uploaded && values.rdbImportId === uploaded.file.id
            ? `Uploaded ${uploaded.name}: ${formatBytes(uploaded.file.size_bytes)}, SHA-256 ${uploaded.file.sha256.slice(0, 16)}…; create from it by ${formatDateTime(uploaded.file.expires_at)}.`
            : max !== undefined
              ? `A dump.rdb made by Redis 7 (RDB 10 or older), at most ${formatBytes(max)}; uploaded as soon as you choose it.`
              : 'Loading the upload limit…'
      }
    >
      <Input
        id="rdb-file"
        type="file"
        accept=".rdb,application/octet-stream"
        disabled={max === undefined || upload.isPending}
        aria-invalid={Boolean(shownError) || undefined}
        onChange={(e) => choose(e.target.files?.[0])}
      />
    </Field>
  )
}

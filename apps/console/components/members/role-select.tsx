'use client'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import type { ProjectRole } from '@/data/projects/project-member-add-mutation'

export const ROLES: { value: ProjectRole; label: string; hint: string }[] = [
  { value: 'owner', label: 'Owner', hint: 'everything, including members' },
  { value: 'member', label: 'Member', hint: 'creates and changes instances' },
  { value: 'viewer', label: 'Viewer', hint: 'reads only' },
]

export function RoleSelect({
  id,
  value,
  onChange,
  disabled,
  label,
}: {
  id?: string
  value: ProjectRole
  onChange: (role: ProjectRole) => void
  disabled?: boolean
  label?: string
}) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as ProjectRole)} disabled={disabled}>
      <SelectTrigger id={id} aria-label={label} className="w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((r) => (
          <SelectItem key={r.value} value={r.value}>
            {r.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}

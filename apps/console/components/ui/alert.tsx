import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

const tones = {
  danger: 'border-danger/30 bg-danger-soft text-danger',
  warning: 'border-warning/30 bg-warning-soft text-warning',
  info: 'border-info/30 bg-info-soft text-info',
  success: 'border-brand/30 bg-brand-soft text-brand-strong',
} as const

export function Alert({ className, tone = 'info', role, ...props }: HTMLAttributes<HTMLDivElement> & { tone?: keyof typeof tones }) {
  return (
    <div
      role={role ?? (tone === 'danger' ? 'alert' : 'status')}
      className={cn('rounded-md border px-3.5 py-2.5 text-sm', tones[tone], className)}
      {...props}
    />
  )
}

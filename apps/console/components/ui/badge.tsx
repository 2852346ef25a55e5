import type { HTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

export const badgeTones = {
  neutral: 'bg-canvas text-muted border-border',
  success: 'bg-brand-soft text-brand-strong border-brand/20',
  warning: 'bg-warning-soft text-warning border-warning/20',
  danger: 'bg-danger-soft text-danger border-danger/20',
  info: 'bg-info-soft text-info border-info/20',
} as const

export type BadgeTone = keyof typeof badgeTones

export function Badge({ className, tone = 'neutral', ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        badgeTones[tone],
        className,
      )}
      {...props}
    />
  )
}

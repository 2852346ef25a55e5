'use client'
import * as ProgressPrimitive from '@radix-ui/react-progress'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

/** A progress bar; `value` is 0-100. */
export function Progress({ className, value, ...props }: ComponentProps<typeof ProgressPrimitive.Root> & { value: number }) {
  const clamped = Math.max(0, Math.min(100, value))
  return (
    <ProgressPrimitive.Root
      value={clamped}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-canvas', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-brand transition-[width] duration-300"
        style={{ width: `${clamped}%` }}
      />
    </ProgressPrimitive.Root>
  )
}

import { forwardRef, type InputHTMLAttributes } from 'react'
import { cn } from '@/lib/utils'

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return (
    <input
      ref={ref}
      className={cn(
        'h-9 w-full rounded-md border border-border bg-surface px-3 text-sm text-ink placeholder:text-muted/70',
        'focus:border-brand focus:ring-2 focus:ring-brand/20 focus:outline-none',
        'aria-[invalid=true]:border-danger disabled:bg-canvas disabled:text-muted',
        className,
      )}
      {...props}
    />
  )
})

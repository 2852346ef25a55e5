import type { ReactNode } from 'react'

/** A titled frame around one chart of a report's suite. */
export function ChartBox({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-md border border-border p-3">
      <h3 className="mb-1 text-xs font-medium text-muted">{title}</h3>
      {children}
    </div>
  )
}

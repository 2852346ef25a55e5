import type { ReactNode } from 'react'

/** The title row of a page: what it is, a line of context, and its main actions. */
export function PageHeader({
  title,
  description,
  actions,
  breadcrumb,
}: {
  title: ReactNode
  description?: ReactNode
  actions?: ReactNode
  breadcrumb?: ReactNode
}) {
  return (
    <header className="border-b border-border bg-surface px-8 py-5">
      {breadcrumb ? <div className="mb-1.5 text-xs text-muted">{breadcrumb}</div> : null}
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="min-w-0">
          <h1 className="truncate text-xl font-semibold">{title}</h1>
          {description ? <div className="mt-0.5 text-sm text-muted">{description}</div> : null}
        </div>
        {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
      </div>
    </header>
  )
}

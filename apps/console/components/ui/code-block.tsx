import { CopyButton } from './copy-button'

/** A monospaced, copyable snippet such as a connection string or a shell command. */
export function CodeBlock({ value, label }: { value: string; label: string }) {
  return (
    <div className="flex items-start justify-between gap-2 rounded-md border border-border bg-canvas px-3 py-2">
      <code className="min-w-0 font-mono text-xs break-all whitespace-pre-wrap text-ink" aria-label={label}>
        {value}
      </code>
      <CopyButton value={value} label={label} />
    </div>
  )
}

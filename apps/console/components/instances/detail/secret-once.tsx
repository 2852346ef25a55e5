import { Alert } from '@/components/ui/alert'
import { CodeBlock } from '@/components/ui/code-block'

/** A secret the API returns only once (a password or an API key), named, with the warning that goes with it. */
export function SecretOnce({ label, value, what }: { label: string; value: string; what: string }) {
  return (
    <section aria-label={label} className="space-y-2">
      <Alert tone="warning">Copy this {what} now. It is shown only once.</Alert>
      <p className="text-sm font-medium">{label}</p>
      <CodeBlock value={value} label={label} />
    </section>
  )
}

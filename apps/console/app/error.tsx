'use client'
import { Button } from '@/components/ui/button'

/** A render error anywhere below the root: say so and offer a retry instead of a blank page. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center" role="alert">
      <h1 className="text-xl font-semibold">Something went wrong</h1>
      <p className="max-w-md text-sm text-muted">
        The console hit an unexpected error{error.digest ? ` (reference ${error.digest})` : ''}. Your instances are not
        affected.
      </p>
      <Button onClick={reset}>Try again</Button>
    </main>
  )
}

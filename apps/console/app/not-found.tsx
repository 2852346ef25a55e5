import Link from 'next/link'
import { Button } from '@/components/ui/button'

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="text-sm text-muted">There is nothing at this address in the Basalt console.</p>
      <Button asChild variant="secondary">
        <Link href="/">Go to your instances</Link>
      </Button>
    </main>
  )
}

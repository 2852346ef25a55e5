import { CheckCircle2 } from 'lucide-react'
import Link from 'next/link'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardBody } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import type { InstanceCreateResult } from '@/data/instances/instance-create-mutation'
import { statusLabel } from '../status-badge'

/** Shown once after creation: the default user's password is in this answer and nowhere else. */
export function CreatedInstancePanel({ projectId, result }: { projectId: string; result: InstanceCreateResult }) {
  const { instance, default_user: user } = result
  return (
    <Card className="max-w-2xl">
      <CardBody className="space-y-4">
        <div className="flex items-start gap-3">
          <CheckCircle2 className="mt-0.5 size-5 text-brand" aria-hidden />
          <div>
            <h2 className="text-base font-semibold">Instance {instance.name} requested</h2>
            <p className="text-sm text-muted">
              Status: {statusLabel(instance.status)}. Provisioning continues in the background; the instance page shows
              its progress.
            </p>
          </div>
        </div>
        <section aria-label="Default user password" className="space-y-2">
          <p className="text-sm">
            User <code className="font-mono text-xs">{user.username}</code>, password:
          </p>
          <CodeBlock value={user.password} label="Password" />
          <Alert tone="warning">
            Copy this password now. It is shown only once; afterwards you can only reset it on the Users tab.
          </Alert>
        </section>
        <Button asChild>
          <Link href={`/projects/${projectId}/instances/${instance.id}`}>Go to instance</Link>
        </Button>
      </CardBody>
    </Card>
  )
}

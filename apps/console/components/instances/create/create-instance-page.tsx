'use client'
import Link from 'next/link'
import { useState } from 'react'
import { PageHeader } from '@/components/layout/page-header'
import type { InstanceCreateResult } from '@/data/instances/instance-create-mutation'
import { CreatedInstancePanel } from './created-instance-panel'
import { InstanceForm } from './instance-form'

export function CreateInstancePage({ projectId }: { projectId: string }) {
  const [created, setCreated] = useState<InstanceCreateResult | null>(null)
  return (
    <>
      <PageHeader
        breadcrumb={
          <Link href={`/projects/${projectId}/instances`} className="hover:underline">
            Instances
          </Link>
        }
        title="Create instance"
        description="Pick a size and a region; Basalt provisions the VM, deploys the engine and checks it answers."
      />
      <main className="px-8 py-6">
        {created ? (
          <CreatedInstancePanel projectId={projectId} result={created} />
        ) : (
          <InstanceForm projectId={projectId} onCreated={setCreated} />
        )}
      </main>
    </>
  )
}

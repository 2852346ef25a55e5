import type { Metadata } from 'next'
import { InstancesPage } from '@/components/instances/instances-page'

export const metadata: Metadata = { title: 'Instances' }

export default async function Page({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await params
  return <InstancesPage projectId={project} />
}

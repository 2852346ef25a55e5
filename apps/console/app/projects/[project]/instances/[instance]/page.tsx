import type { Metadata } from 'next'
import { InstanceDetailPage } from '@/components/instances/detail/instance-detail-page'

export const metadata: Metadata = { title: 'Instance' }

export default async function Page({ params }: { params: Promise<{ project: string; instance: string }> }) {
  const { project, instance } = await params
  return <InstanceDetailPage projectId={project} instanceId={instance} />
}

import type { Metadata } from 'next'
import { InstanceTypePage } from '@/components/instance-types/instance-type-page'

export const metadata: Metadata = { title: 'Instance type' }

export default async function Page({ params }: { params: Promise<{ project: string; type: string }> }) {
  const { project, type } = await params
  return <InstanceTypePage projectId={project} typeId={decodeURIComponent(type)} />
}

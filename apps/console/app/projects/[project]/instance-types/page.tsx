import type { Metadata } from 'next'
import { InstanceTypesPage } from '@/components/instance-types/instance-types-page'

export const metadata: Metadata = { title: 'Instance types' }

export default async function Page({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await params
  return <InstanceTypesPage projectId={project} />
}

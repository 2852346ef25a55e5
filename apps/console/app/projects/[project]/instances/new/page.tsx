import type { Metadata } from 'next'
import { CreateInstancePage } from '@/components/instances/create/create-instance-page'

export const metadata: Metadata = { title: 'Create instance' }

export default async function Page({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await params
  return <CreateInstancePage projectId={project} />
}

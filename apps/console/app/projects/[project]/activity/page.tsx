import type { Metadata } from 'next'
import { ActivityPage } from '@/components/activity/activity-page'

export const metadata: Metadata = { title: 'Activity' }

export default async function Page({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await params
  return <ActivityPage projectId={project} />
}

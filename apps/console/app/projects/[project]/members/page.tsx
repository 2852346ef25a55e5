import type { Metadata } from 'next'
import { MembersPage } from '@/components/members/members-page'

export const metadata: Metadata = { title: 'Members' }

export default async function Page({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await params
  return <MembersPage projectId={project} />
}

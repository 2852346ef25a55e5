import type { ReactNode } from 'react'
import { AppShell } from '@/components/layout/app-shell'

export default async function ProjectLayout({
  children,
  params,
}: {
  children: ReactNode
  params: Promise<{ project: string }>
}) {
  const { project } = await params
  return <AppShell projectId={project}>{children}</AppShell>
}

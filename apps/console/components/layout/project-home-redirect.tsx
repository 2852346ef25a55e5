'use client'
import { useRouter } from 'next/navigation'
import { useEffect } from 'react'
import { Alert } from '@/components/ui/alert'
import { useProjectsQuery } from '@/data/projects/projects-query'
import { lastProject } from '@/lib/last-project'

/** `/` opens the instances of the last used project, or of the first one. */
export function ProjectHomeRedirect() {
  const router = useRouter()
  const { data: projects, error } = useProjectsQuery()

  useEffect(() => {
    if (!projects) return
    const remembered = lastProject()
    const target = projects.find((p) => p.id === remembered) ?? projects[0]
    if (target) router.replace(`/projects/${target.id}/instances`)
  }, [projects, router])

  if (error) return <Alert tone="danger">Could not load your projects: {error.message}</Alert>
  if (projects && projects.length === 0) return <Alert tone="info">You are not a member of any project yet.</Alert>
  return <p className="text-sm text-muted">Loading your projects…</p>
}

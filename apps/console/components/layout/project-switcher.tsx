'use client'
import { Check, ChevronsUpDown, Plus } from 'lucide-react'
import { useRouter } from 'next/navigation'
import { useEffect, useState, type FormEvent } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent } from '@/components/ui/dialog'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { Field } from '@/components/ui/field'
import { Input } from '@/components/ui/input'
import { useProjectCreateMutation } from '@/data/projects/project-create-mutation'
import { useProjectsQuery } from '@/data/projects/projects-query'
import { rememberProject } from '@/lib/last-project'

export function ProjectSwitcher({ projectId }: { projectId: string }) {
  const router = useRouter()
  const { data: projects } = useProjectsQuery()
  const [creating, setCreating] = useState(false)
  const current = projects?.find((p) => p.id === projectId)

  useEffect(() => {
    if (current) rememberProject(current.id)
  }, [current])

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger
          className="flex w-full items-center justify-between gap-2 rounded-md border border-white/10 bg-white/5 px-3 py-2 text-left text-sm text-white hover:bg-white/10"
          aria-label={`Project: ${current?.name ?? 'loading'}`}
        >
          <span className="min-w-0">
            <span className="block text-[11px] tracking-wide text-sidebar-ink/70 uppercase">Project</span>
            <span className="block truncate font-medium">{current?.name ?? '…'}</span>
          </span>
          <ChevronsUpDown className="size-4 shrink-0 text-sidebar-ink" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuLabel>Switch project</DropdownMenuLabel>
          {projects?.map((project) => (
            <DropdownMenuItem key={project.id} onSelect={() => router.push(`/projects/${project.id}/instances`)}>
              <Check className={project.id === projectId ? 'size-4 text-brand' : 'size-4 opacity-0'} aria-hidden />
              <span className="truncate">{project.name}</span>
              {project.role ? <span className="ml-auto text-xs text-muted">{project.role}</span> : null}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setCreating(true)}>
            <Plus className="size-4" aria-hidden /> New project
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <NewProjectDialog open={creating} onOpenChange={setCreating} />
    </>
  )
}

function NewProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const router = useRouter()
  const create = useProjectCreateMutation()
  const [name, setName] = useState('')
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (project) => {
          onOpenChange(false)
          setName('')
          router.push(`/projects/${project.id}/instances`)
        },
      },
    )
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="New project" description="Projects group instances and the people who can see them.">
        <form onSubmit={onSubmit} className="space-y-4">
          {create.error ? <Alert tone="danger">{create.error.message}</Alert> : null}
          <Field id="project-name" label="Project name">
            <Input id="project-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" disabled={create.isPending || !name.trim()}>
              Create project
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}

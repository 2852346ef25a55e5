'use client'
import { Database, Gauge, History, KeyRound, LogOut, Users } from 'lucide-react'
import Link from 'next/link'
import { usePathname } from 'next/navigation'
import type { ReactNode } from 'react'
import { Button } from '@/components/ui/button'
import { useLogoutMutation } from '@/data/auth/logout-mutation'
import { useSessionQuery } from '@/data/auth/session-query'
import { goToLogin } from '@/lib/to-login'
import { cn } from '@/lib/utils'
import { Logo } from './logo'
import { ProjectSwitcher } from './project-switcher'

export function AppShell({ projectId, children }: { projectId: string; children: ReactNode }) {
  const pathname = usePathname()
  const base = `/projects/${projectId}`
  const nav = [
    { href: `${base}/instances`, label: 'Instances', icon: Database },
    { href: `${base}/instance-types`, label: 'Instance types', icon: Gauge },
    { href: `${base}/members`, label: 'Members', icon: Users },
    { href: `${base}/activity`, label: 'Activity', icon: History },
    { href: `${base}/api-keys`, label: 'API keys', icon: KeyRound },
  ]
  return (
    <div className="flex min-h-screen">
      {/* The column keeps the sidebar's colour down a long page; the sidebar itself stays in view. */}
      <div className="w-60 shrink-0 bg-sidebar">
      <aside className="sticky top-0 flex h-screen flex-col gap-4 px-3 py-4 text-sidebar-ink">
        <Link href="/" className="flex items-center gap-2 px-2 text-white">
          <Logo />
          <span className="text-base font-semibold">Basalt</span>
        </Link>
        <ProjectSwitcher projectId={projectId} />
        <nav aria-label="Main" className="flex flex-col gap-0.5">
          {nav.map(({ href, label, icon: Icon }) => {
            const active = pathname === href || pathname.startsWith(`${href}/`)
            return (
              <Link
                key={href}
                href={href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-2.5 rounded-md px-2.5 py-2 text-sm hover:bg-white/5 hover:text-white',
                  active && 'bg-white/10 text-white',
                )}
              >
                <Icon className="size-4" aria-hidden />
                {label}
              </Link>
            )
          })}
        </nav>
        <UserMenu />
      </aside>
      </div>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  )
}

function UserMenu() {
  const { data: session } = useSessionQuery()
  const user = session?.user
  const logout = useLogoutMutation()
  return (
    <div className="mt-auto border-t border-white/10 pt-3">
      {user?.email ? <p className="truncate px-2 pb-2 text-xs text-sidebar-ink/80">{user.email}</p> : null}
      <Button
        variant="ghost"
        size="sm"
        className="w-full justify-start text-sidebar-ink hover:bg-white/5 hover:text-white"
        onClick={() => logout.mutate(undefined, { onSettled: () => goToLogin() })}
      >
        <LogOut className="size-4" aria-hidden /> Sign out
      </Button>
    </div>
  )
}

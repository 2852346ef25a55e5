'use client'
import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import type { DataAccess } from '@/data/data-browser/data-access-mutation'
import type { DatabaseLogin } from '@/data/data-browser/credentials'
import { formatNumber } from '../../format'
import { CommandLine } from './command-line'
import { KeyList } from './key-list'
import { ValuePanel } from './value-panel'

export interface BrowserProps {
  projectId: string
  instanceId: string
  login: DatabaseLogin
  /** The user's rules refuse writes: no edit controls (the engine refuses any write anyway). */
  readOnly: boolean
}

/** Keys on the left, the chosen key's value on the right, the command line below. */
export function DataBrowser({ projectId, instanceId, login, access, onLogOut }: Omit<BrowserProps, 'readOnly'> & { access: DataAccess; onLogOut: () => void }) {
  const [selected, setSelected] = useState<string | null>(null)
  const props: BrowserProps = { projectId, instanceId, login, readOnly: access.read_only }
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span>
          Logged in as <span className="font-mono">{access.username}</span>
        </span>
        {access.read_only ? <Badge tone="warning">Read-only</Badge> : <Badge tone="neutral">{access.permission === 'admin' ? 'Admin' : 'Read/write'}</Badge>}
        <span className="text-muted">{formatNumber(access.key_count)} keys in the database</span>
        <Button variant="secondary" size="sm" className="ml-auto" onClick={onLogOut}>
          Log out
        </Button>
      </div>
      {access.read_only ? (
        <p className="text-sm text-muted" role="note">
          {access.username}&apos;s rules refuse writes: this browser only reads.
        </p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <KeyList {...props} selected={selected} onSelect={setSelected} />
        {selected !== null ? <ValuePanel {...props} dataKey={selected} onDeleted={() => setSelected(null)} /> : <p className="text-sm text-muted">Choose a key to see its value.</p>}
      </div>
      <CommandLine {...props} />
    </div>
  )
}

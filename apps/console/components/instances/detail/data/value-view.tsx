'use client'
// A key's value by type, page by page. Edit controls only for a user whose rules allow writes
// and only on whole UTF-8 text (a cut or binary value could not be written back as it was).
import { useState, type ReactNode } from 'react'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import { Textarea } from '@/components/ui/textarea'
import { useDataEditMutation, type DataEdit } from '@/data/data-browser/data-change-mutations'
import type { DataValue, ShownText } from '@/data/data-browser/data-value-query'
import type { BrowserProps } from './data-browser'
import { editable, shownLabel } from './data-format'
import { AddForm } from './add-form'
import { InlineEdit } from './inline-edit'

type Props = BrowserProps & { dataKey: string; pages: DataValue[] }
type Edit = Omit<DataEdit, 'key'>

function StringValue({ value, onSave, pending }: { value: NonNullable<DataValue['string']>; onSave?: (text: string) => void; pending: boolean }) {
  const [draft, setDraft] = useState(value.text)
  if (!onSave || !editable(value)) {
    return (
      <div className="space-y-2">
        <pre aria-label="Value" className="max-h-96 overflow-auto rounded-md bg-canvas p-3 font-mono text-xs break-all whitespace-pre-wrap">{shownLabel(value)}</pre>
        {value.truncated ? <p className="text-xs text-muted">The first 64 KiB of {value.length} bytes are shown; read the rest with GETRANGE in the command line.</p> : null}
      </div>
    )
  }
  return (
    <div className="space-y-2">
      <Textarea aria-label="Value" rows={6} value={draft} onChange={(e) => setDraft(e.target.value)} />
      <Button size="sm" disabled={pending || draft === value.text} onClick={() => onSave(draft)}>
        Save value
      </Button>
    </div>
  )
}

/** A value's table: its columns, an Actions column when the user may write. */
function ValueTable({ label, columns, actions, children }: { label: string; columns: string[]; actions: boolean; children: ReactNode }) {
  return (
    <Table aria-label={label}>
      <THead>
        <tr>
          {columns.map((c) => (
            <Th key={c}>{c}</Th>
          ))}
          {actions ? <Th className="text-right">Actions</Th> : null}
        </tr>
      </THead>
      <TBody>{children}</TBody>
    </Table>
  )
}

export function ValueView({ projectId, instanceId, login, dataKey, readOnly, pages }: Props) {
  const edit = useDataEditMutation(projectId, instanceId, login)
  const first = pages[0]!
  const run = readOnly ? undefined : (change: Edit) => edit.mutate({ key: dataKey, ...change } as DataEdit)
  const error = edit.error ? <Alert tone="danger">{edit.error.message}</Alert> : null
  const ifEditable = <T,>(shown: ShownText, save: T) => (run && editable(shown) ? save : undefined)

  switch (first.type) {
    case 'string':
      return (
        <>
          {error}
          <StringValue key={first.string!.text} value={first.string!} pending={edit.isPending} onSave={run && ((value) => run({ op: 'set', value }))} />
        </>
      )
    case 'hash': {
      const fields = pages.flatMap((p) => p.fields ?? [])
      return (
        <div className="space-y-3">
          {error}
          <ValueTable label="Fields" columns={['Field', 'Value']} actions={!!run}>
              {fields.map(({ field, value }) => (
                <Tr key={field.text}>
                  <Td className="font-mono text-xs break-all">{shownLabel(field)}</Td>
                  <Td>
                    <InlineEdit text={shownLabel(value)} what="value" of={field.text} pending={edit.isPending} onSave={ifEditable(value, run && editable(field) ? (v: string) => run({ op: 'hset', field: field.text, value: v }) : undefined)} />
                  </Td>
                  {run ? (
                    <Td className="text-right">
                      {editable(field) ? (
                        <Button variant="ghost" size="sm" aria-label={`Remove field ${field.text}`} onClick={() => run({ op: 'hdel', field: field.text })}>
                          Remove
                        </Button>
                      ) : null}
                    </Td>
                  ) : null}
                </Tr>
              ))}
          </ValueTable>
          {run ? <AddForm action="Add field" pending={edit.isPending} inputs={[{ name: 'field', label: 'New field' }, { name: 'value', label: 'Its value' }]} onAdd={(v) => run({ op: 'hset', field: v.field, value: v.value })} /> : null}
        </div>
      )
    }
    case 'list':
    case 'set':
    case 'zset': {
      const elements = pages.flatMap((p) => p.elements ?? [])
      const kind = first.type
      return (
        <div className="space-y-3">
          {error}
          <ValueTable label={kind === 'list' ? 'Elements' : 'Members'} columns={kind === 'list' ? ['Index', 'Element'] : kind === 'zset' ? ['Member', 'Score'] : ['Member']} actions={!!run}>
              {elements.map((element) => (
                <Tr key={kind === 'list' ? String(element.index) : element.value.text}>
                  {kind === 'list' ? <Td className="tabular-nums text-muted">{element.index}</Td> : null}
                  <Td>
                    {kind === 'list' ? (
                      <InlineEdit text={shownLabel(element.value)} what="element" of={String(element.index)} pending={edit.isPending} onSave={ifEditable(element.value, (v: string) => run!({ op: 'lset', index: element.index!, value: v }))} />
                    ) : (
                      <span className="font-mono text-xs break-all">{shownLabel(element.value)}</span>
                    )}
                  </Td>
                  {kind === 'zset' ? (
                    <Td>
                      <InlineEdit text={element.score ?? ''} what="score" of={element.value.text} type="number" pending={edit.isPending} onSave={ifEditable(element.value, (v: string) => run!({ op: 'zadd', member: element.value.text, score: Number(v) }))} />
                    </Td>
                  ) : null}
                  {run ? (
                    <Td className="text-right">
                      {editable(element.value) ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Remove ${element.value.text}`}
                          onClick={() => run(kind === 'list' ? { op: 'lrem', value: element.value.text } : { op: kind === 'set' ? 'srem' : 'zrem', member: element.value.text })}
                        >
                          Remove
                        </Button>
                      ) : null}
                    </Td>
                  ) : null}
                </Tr>
              ))}
          </ValueTable>
          {run && kind === 'list' ? <AddForm action="Push" pending={edit.isPending} inputs={[{ name: 'value', label: 'New element' }]} onAdd={(v) => run({ op: 'rpush', value: v.value })} /> : null}
          {run && kind === 'set' ? <AddForm action="Add member" pending={edit.isPending} inputs={[{ name: 'member', label: 'New member' }]} onAdd={(v) => run({ op: 'sadd', member: v.member })} /> : null}
          {run && kind === 'zset' ? (
            <AddForm action="Add member" pending={edit.isPending} inputs={[{ name: 'member', label: 'New member' }, { name: 'score', label: 'Score', type: 'number' }]} onAdd={(v) => run({ op: 'zadd', member: v.member, score: Number(v.score) })} />
          ) : null}
        </div>
      )
    }
    case 'stream': {
      const entries = pages.flatMap((p) => p.entries ?? [])
      return (
        <div className="space-y-3">
          {error}
          <ValueTable label="Entries" columns={['ID', 'Fields']} actions={!!run}>
              {entries.map((entry) => (
                <Tr key={entry.id}>
                  <Td className="font-mono text-xs">{entry.id}</Td>
                  <Td className="font-mono text-xs break-all">{entry.fields.map((f) => `${shownLabel(f.field)} = ${shownLabel(f.value)}`).join('\n')}</Td>
                  {run ? (
                    <Td className="text-right">
                      <Button variant="ghost" size="sm" aria-label={`Delete entry ${entry.id}`} onClick={() => run({ op: 'xdel', id: entry.id })}>
                        Delete
                      </Button>
                    </Td>
                  ) : null}
                </Tr>
              ))}
          </ValueTable>
          {run ? <AddForm action="Add entry" pending={edit.isPending} inputs={[{ name: 'field', label: 'Entry field' }, { name: 'value', label: 'Entry value' }]} onAdd={(v) => run({ op: 'xadd', fields: [{ field: v.field, value: v.value }] })} /> : null}
        </div>
      )
    }
  }
}

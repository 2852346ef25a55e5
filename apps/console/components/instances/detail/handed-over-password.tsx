'use client'
import { useEffect, useState } from 'react'
import { forgetPassword, handedOverPassword } from '@/lib/handed-over-password'
import { SecretOnce } from './secret-once'

/** The default password of an instance this console just created elsewhere (a restore), shown once on its page. */
export function HandedOverPassword({ instanceId }: { instanceId: string }) {
  const [password] = useState(() => handedOverPassword(instanceId))
  useEffect(() => () => forgetPassword(instanceId), [instanceId])
  if (!password) return null
  return (
    <div className="mb-4 max-w-2xl">
      <SecretOnce label="Password of default" value={password} what="password" />
    </div>
  )
}

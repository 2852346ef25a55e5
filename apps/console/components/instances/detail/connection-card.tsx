import { Card, CardBody, CardHeader, CardTitle } from '@/components/ui/card'
import { CodeBlock } from '@/components/ui/code-block'
import { Table, TBody, Td, Th, THead, Tr } from '@/components/ui/table'
import type { Instance } from '@/data/instances/instance-query'
import { connectionUri, preferredEndpoint, redisCliCommand } from '../connection'

/** The username in the API's redacted connection URI, or `default`. */
export function usernameFromUri(uri: string | null | undefined): string {
  if (!uri) return 'default'
  try {
    const user = decodeURIComponent(new URL(uri).username)
    return user || 'default'
  } catch {
    return 'default'
  }
}

export function ConnectionCard({ instance }: { instance: Instance }) {
  const endpoint = preferredEndpoint(instance.endpoints)
  const username = usernameFromUri(instance.connection_uri)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Connect</CardTitle>
      </CardHeader>
      <CardBody className="space-y-4">
        {instance.endpoints.length ? (
          <Table aria-label="Endpoints">
            <THead>
              <tr>
                <Th>Endpoint</Th>
                <Th>Role</Th>
                <Th>Host</Th>
                <Th>Port</Th>
                <Th>TLS</Th>
              </tr>
            </THead>
            <TBody>
              {instance.endpoints.map((e) => (
                <Tr key={`${e.type}-${e.host}-${e.port}`}>
                  <Td className="capitalize">{e.type}</Td>
                  <Td>{e.role === 'primary' ? 'Primary (read-write)' : 'Read-only (replica)'}</Td>
                  <Td className="font-mono text-xs">{e.host}</Td>
                  <Td className="font-mono text-xs">{e.port}</Td>
                  <Td>{e.tls ? 'Yes' : 'No'}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        ) : (
          <p className="text-sm text-muted">
            Endpoints appear when provisioning has allocated the instance&rsquo;s address.
          </p>
        )}
        {endpoint ? (
          <>
            <div className="space-y-1.5">
              <h3 className="text-xs font-medium text-muted uppercase">Connection string</h3>
              <CodeBlock value={instance.connection_uri || connectionUri(endpoint, username)} label="Connection string" />
            </div>
            <div className="space-y-1.5">
              <h3 className="text-xs font-medium text-muted uppercase">redis-cli</h3>
              <CodeBlock value={redisCliCommand(endpoint, username)} label="redis-cli command" />
              <p className="text-xs text-muted">
                redis-cli asks for the password. It was shown once when the instance was created; reset it on the Users
                tab if it is lost.
              </p>
            </div>
          </>
        ) : null}
      </CardBody>
    </Card>
  )
}

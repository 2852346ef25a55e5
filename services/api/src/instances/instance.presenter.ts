// An instance as the API shows it (InstanceDto in the spec). It is written straight to JSON text
// from the row PostgreSQL printed, so a list of 50 never parses the JSON columns or builds objects
// only to serialise them again. The connection URI never carries a password.
import type { InstanceTextRow } from '@basalt/db';
import type { EndpointDto, InstanceDto } from './instance.dto.js';

const str = JSON.stringify;
// For values whose type rules out anything JSON escapes (uuid, enum labels, to_char timestamps):
// a fifth of the presenter's time went to JSON.stringify on them.
const plain = (value: string | null) => (value === null ? 'null' : `"${value}"`);

/** redis[s]://user:********@host:port for the primary endpoint (private first); IPv6 in brackets. */
export function connectionUri(endpoints: EndpointDto[], username = 'default'): string | null {
  const primary = endpoints.filter((e) => e.role === 'primary');
  const endpoint = primary.find((e) => e.type === 'private') ?? primary[0];
  if (!endpoint) return null;
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `${endpoint.tls ? 'rediss' : 'redis'}://${username}:********@${host}:${endpoint.port}`;
}

/** The instance's JSON text, fields in spec order. JSON columns are valid JSON as PostgreSQL prints them. */
export function instanceJson(row: InstanceTextRow): string {
  const endpoints = row.endpoints.startsWith('[') ? row.endpoints : '[]';
  const nodes = row.nodes.startsWith('[') ? row.nodes : '[]';
  const uri = endpoints === '[]' ? null : connectionUri(JSON.parse(endpoints) as EndpointDto[]);
  return (
    `{"id":${plain(row.id)},"project_id":${plain(row.project_id)},"name":${str(row.name)},"instance_type":${str(row.instance_type)},` +
    `"region":${str(row.region)},"engine_version":${str(row.engine_version)},"disk_gib":${Number(row.disk_gib)},` +
    `"architecture":${plain(row.architecture)},"replicas":${Number(row.replicas)},` +
    `"status":${plain(row.status)},"health":${plain(row.health)},"health_reason":${str(row.health_reason)},"fault":${row.fault ?? 'null'},"endpoints":${endpoints},` +
    `"connection_uri":${str(uri)},"nodes":${nodes},"tls_enabled":${row.tls_enabled === true},` +
    `"deletion_protection":${row.deletion_protection === true},"data_browser_enabled":${row.data_browser_enabled !== false},"tags":${row.tags.startsWith('{') ? row.tags : '{}'},` +
    `"parameters":${row.parameters.startsWith('{') ? row.parameters : '{}'},"backup_window":${str(row.backup_window)},` +
    `"backup_retention_days":${Number(row.backup_retention_days)},"restored_from":${row.restored_from?.startsWith('{') ? row.restored_from : 'null'},` +
    `"current_operation_id":${plain(row.current_operation_id)},` +
    `"created_at":${plain(row.created_at)},"updated_at":${plain(row.updated_at)}}`
  );
}

export function toInstanceDto(row: InstanceTextRow): InstanceDto {
  return JSON.parse(instanceJson(row)) as InstanceDto;
}

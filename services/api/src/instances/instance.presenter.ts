// Rows to response shapes. The connection URI never carries a password.
import type { InstanceRow } from '@basalt/db';
import type { EndpointDto, FaultDto, InstanceDto, InstanceParametersDto, NodeDto } from './instance.dto.js';

export function connectionUri(endpoints: EndpointDto[], username = 'default'): string | null {
  const endpoint = endpoints.find((e) => e.type === 'private') ?? endpoints[0];
  if (!endpoint) return null;
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  return `${endpoint.tls ? 'rediss' : 'redis'}://${username}:********@${host}:${endpoint.port}`;
}

export function toInstanceDto(row: InstanceRow): InstanceDto {
  const endpoints = (Array.isArray(row.endpoints) ? row.endpoints : []) as EndpointDto[];
  return {
    id: row.id,
    project_id: row.projectId,
    name: row.name,
    instance_type: row.instanceType,
    region: row.region,
    engine_version: row.engineVersion,
    disk_gib: row.diskGib,
    status: row.status,
    health: row.health,
    fault: (row.fault ?? null) as FaultDto | null,
    endpoints,
    connection_uri: connectionUri(endpoints),
    nodes: (Array.isArray(row.nodes) ? row.nodes : []) as NodeDto[],
    tls_enabled: row.tlsEnabled,
    deletion_protection: row.deletionProtection,
    tags: (row.tags ?? {}) as Record<string, string>,
    parameters: (row.parameters ?? {}) as InstanceParametersDto,
    current_operation_id: row.currentOperationId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

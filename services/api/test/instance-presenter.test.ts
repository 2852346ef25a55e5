// The instance presenter writes JSON text from a text row: the result must be the InstanceDto
// the spec describes, field for field, with the connection URI for every endpoint shape.
import { describe, expect, it } from 'vitest';
import type { InstanceTextRow } from '@basalt/db';
import { instanceJson, toInstanceDto } from '../src/instances/instance.presenter.js';

const row = (overrides: Partial<InstanceTextRow> = {}): InstanceTextRow => ({
  id: '6f1c1a52-8d0e-4b53-9d1e-0a3b8f1f2c11',
  project_id: '0b9e2f0e-2a57-4f0e-bb7e-5b1c9a8d7e66',
  name: 'cache "a"\n',
  instance_type: 'kv.standard.small',
  region: 'local',
  engine_version: '1.0',
  disk_gib: 10,
  architecture: 'standalone',
  replicas: 0,
  status: 'running',
  health: 'healthy',
  health_reason: null,
  fault: null,
  endpoints: '[{"host": "10.77.0.2", "port": 6379, "role": "primary", "tls": false, "type": "private"}]',
  nodes: '[{"name": "node-0", "private_ip": "10.77.0.2", "role": "primary", "status": "running", "lag_bytes": null}]',
  tls_enabled: false,
  deletion_protection: true,
  data_browser_enabled: true,
  tags: '{"team": "web"}',
  parameters: '{"fsync": "always"}',
  backup_window: '03:00-04:00',
  backup_retention_days: 7,
  restored_from: null,
  current_operation_id: null,
  created_at: '2026-11-22T04:16:35.123Z',
  updated_at: '2026-11-22T04:17:00.000Z',
  sort_value: '2026-11-22T04:16:35.123456Z',
  ...overrides,
});

describe('instance presenter', () => {
  it('writes every field of the spec in order, strings escaped', () => {
    const dto = toInstanceDto(row());
    expect(Object.keys(dto)).toEqual([
      'id', 'project_id', 'name', 'instance_type', 'region', 'engine_version', 'disk_gib', 'architecture', 'replicas', 'status', 'health', 'health_reason', 'fault', 'endpoints',
      'connection_uri', 'nodes', 'tls_enabled', 'deletion_protection', 'data_browser_enabled', 'tags', 'parameters', 'backup_window',
      'backup_retention_days', 'restored_from', 'current_operation_id', 'created_at', 'updated_at',
    ]);
    expect(dto).toEqual({
      id: '6f1c1a52-8d0e-4b53-9d1e-0a3b8f1f2c11',
      project_id: '0b9e2f0e-2a57-4f0e-bb7e-5b1c9a8d7e66',
      name: 'cache "a"\n',
      instance_type: 'kv.standard.small',
      region: 'local',
      engine_version: '1.0',
      disk_gib: 10,
      architecture: 'standalone',
      replicas: 0,
      status: 'running',
      health: 'healthy',
      health_reason: null,
      fault: null,
      endpoints: [{ host: '10.77.0.2', port: 6379, role: 'primary', tls: false, type: 'private' }],
      connection_uri: 'redis://default:********@10.77.0.2:6379',
      nodes: [{ name: 'node-0', private_ip: '10.77.0.2', role: 'primary', status: 'running', lag_bytes: null }],
      tls_enabled: false,
      deletion_protection: true,
      data_browser_enabled: true,
      tags: { team: 'web' },
      parameters: { fsync: 'always' },
      backup_window: '03:00-04:00',
      backup_retention_days: 7,
      restored_from: null,
      current_operation_id: null,
      created_at: '2026-11-22T04:16:35.123Z',
      updated_at: '2026-11-22T04:17:00.000Z',
    });
    expect(toInstanceDto(row({ fault: '{"code": "x", "message": "y", "step": "z"}', health: null })).fault).toEqual({ code: 'x', message: 'y', step: 'z' });
    expect(toInstanceDto(row({ restored_from: '{"point_in_time": "2026-12-01T10:15:30Z", "source_instance_id": "s"}' })).restored_from).toEqual({
      source_instance_id: 's',
      point_in_time: '2026-12-01T10:15:30Z',
    });
  });

  it('points the connection URI at the first private primary endpoint, brackets IPv6, says rediss for TLS', () => {
    const uri = (endpoints: unknown) => toInstanceDto(row({ endpoints: JSON.stringify(endpoints) })).connection_uri;
    expect(uri([])).toBeNull();
    expect(uri([{ role: 'primary', type: 'public', host: 'db.example.test', port: 6380, tls: true }])).toBe('rediss://default:********@db.example.test:6380');
    expect(
      uri([
        { role: 'primary', type: 'public', host: 'db.example.test', port: 6380, tls: true },
        { role: 'readonly', type: 'private', host: '10.0.0.8', port: 6379, tls: false },
        { role: 'primary', type: 'private', host: 'fd00::5', port: 6379, tls: false },
        { role: 'primary', type: 'private', host: '10.0.0.9', port: 6379, tls: false },
      ]),
    ).toBe('redis://default:********@[fd00::5]:6379');
    // A standard instance: the floating primary address, never the read-only one.
    expect(
      uri([
        { role: 'readonly', type: 'private', host: '10.0.0.8', port: 6379, tls: false },
        { role: 'primary', type: 'private', host: '10.0.0.7', port: 6379, tls: false },
      ]),
    ).toBe('redis://default:********@10.0.0.7:6379');
  });

  it('shows JSON columns that hold the wrong kind of value as empty, and the result always parses', () => {
    const dto = toInstanceDto(row({ endpoints: '{"not": "an array"}', nodes: 'null', tags: '[]', parameters: 'null', restored_from: 'null' }));
    expect(dto).toMatchObject({ endpoints: [], connection_uri: null, nodes: [], tags: {}, parameters: {}, restored_from: null });
    expect(() => JSON.parse(instanceJson(row({ name: '\u2028</script>' })))).not.toThrow();
  });
});

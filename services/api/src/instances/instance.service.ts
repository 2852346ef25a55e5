// Instances: the API records intent (rows, operation, job) and the worker does the work.
import { Inject, Injectable } from '@nestjs/common';
import PgBoss from 'pg-boss';
import {
  AllowlistRepository,
  BackupsRepository,
  RdbFilesRepository,
  CatalogRepository,
  type Database,
  encryptSecret,
  generatePassword,
  InstancesRepository,
  type InstanceRow,
  InstanceUsersRepository,
  OperationsRepository,
  type ModifyJob,
} from '@basalt/db';
import { ApiConfig } from '../config.js';
import { DATABASE } from '../database/database.module.js';
import { Conflict, Invalid, isUniqueViolation, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { decodeCursor, encodeCursor, isCursorTimestamp } from '../common/cursor.js';
import { ProjectAccess } from '../projects/project-access.service.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { normaliseAllowlist } from './allowlist.rules.js';
import { requireQuotaRoom } from './quota.js';
import { BACKUP_RETENTION_DAYS_DEFAULT, BACKUP_WINDOW_DEFAULT, nodeCountOf, parseTopology, type Topology } from '@basalt/api-client/rules';
import { resolveRestore } from '../backups/restore-source.js';
import { instanceJson, toInstanceDto } from './instance.presenter.js';
import type {
  CreatedInstanceDto,
  CreateInstanceDto,
  InstanceAcceptedDto,
  InstanceDetailDto,
  InstanceDto,
  InstanceListQuery,
  UpdateInstanceDto,
} from './instance.dto.js';

const DEFAULT_USERNAME = 'default';

interface ListCursor {
  v: string;
  id: string;
}
const isListCursor = (value: unknown): value is ListCursor =>
  typeof value === 'object' && value !== null && typeof (value as ListCursor).v === 'string' && typeof (value as ListCursor).id === 'string' &&
  /^[0-9a-f-]{36}$/i.test((value as ListCursor).id);

@Injectable()
export class InstanceService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly boss: PgBoss,
    private readonly config: ApiConfig,
    private readonly access: ProjectAccess,
    private readonly instances: InstancesRepository,
    private readonly catalog: CatalogRepository,
    private readonly operations: OperationsRepository,
    private readonly backups: BackupsRepository,
    private readonly rdbFiles: RdbFilesRepository,
    private readonly starter: OperationStarter,
  ) {}

  /** The instance as the API shows it, read fresh (the one presenter: instance.presenter.ts). */
  private async present(projectId: string, instanceId: string): Promise<InstanceDto> {
    const row = await this.instances.getText(projectId, instanceId);
    if (!row) throw new NotFound('Instance');
    return toInstanceDto(row);
  }

  /** An instance of a project the caller can see, else 404. */
  async load(auth: AuthContext, projectId: string, instanceId: string, role: 'viewer' | 'member' = 'viewer'): Promise<InstanceRow> {
    await this.access.require(auth, projectId, role);
    const instance = await this.instances.get(projectId, instanceId);
    if (!instance) throw new NotFound('Instance');
    return instance;
  }

  async create(auth: AuthContext, projectId: string, body: CreateInstanceDto): Promise<CreatedInstanceDto> {
    await this.access.require(auth, projectId, 'member');
    const region = await this.catalog.getRegion(body.region);
    if (!region) throw new Invalid(`Unknown region: ${body.region}`, [{ field: 'region', problems: ['unknown region'] }]);
    if (!region.available) throw new Conflict(`Region ${region.id} is unavailable: ${region.unavailableReason ?? 'its workers cannot place VMs there'}`, 'region_unavailable', [{ field: 'region', problems: ['region unavailable'] }]);
    const type = await this.catalog.getInstanceType(body.instance_type);
    if (!type) throw new Invalid(`Unknown instance type: ${body.instance_type}`, [{ field: 'instance_type', problems: ['unknown instance type'] }]);
    if (!type.regions.includes(region.id)) throw new Invalid(`${type.id} is not offered in region ${region.id}`);
    const diskGib = body.disk_gib ?? type.diskGibMin;
    if (diskGib < type.diskGibMin || diskGib > type.diskGibMax) {
      throw new Invalid(`disk_gib must be between ${type.diskGibMin} and ${type.diskGibMax} for ${type.id}`, [{ field: 'disk_gib', problems: ['out of range'] }]);
    }
    this.checkMaxClients(body.parameters?.maxclients, type.maxConnections);
    const topology = topologyOf(body);
    if (!region.architectures.includes(topology.architecture)) {
      throw new Conflict(
        `Region ${region.id} places ${region.architectures.join(', ') || 'no'} instances only: its workers run process VMs, which give a standard instance's nodes no VM of their own`,
        'architecture_unavailable',
        [{ field: 'architecture', problems: ['not offered in this region'] }],
      );
    }
    const allowlist = normaliseAllowlist(body.allowlist ?? []);
    if (await this.instances.nameTaken(projectId, body.name)) throw new Conflict(`An instance named ${body.name} exists in this project`, 'duplicate_name');
    const restore = body.restore_from && (await resolveRestore({ backups: this.backups, instances: this.instances, rdbFiles: this.rdbFiles }, projectId, body.restore_from, diskGib));
    const password = body.password ?? generatePassword();

    try {
      const { instance, operation } = await this.starter.start({
        type: 'create',
        userId: auth.user.id,
        params: {
          instance_type: type.id,
          region: region.id,
          disk_gib: diskGib,
          architecture: topology.architecture,
          replicas: topology.replicas,
          ...(restore ? { restore_from: restore.restoredFrom } : {}),
        },
        job: restore ? { restore: restore.job } : undefined,
        instance: async (db) => {
          const instances = new InstancesRepository(db);
          await requireQuotaRoom(instances, this.config.quota, projectId, type, nodeCountOf(topology));
          const instance = await instances.insert({
            projectId,
            name: body.name,
            instanceType: type.id,
            region: region.id,
            engineVersion: body.engine_version ?? '1.0',
            diskGib,
            status: 'creating',
            tlsEnabled: body.tls_enabled ?? false,
            deletionProtection: body.deletion_protection ?? false,
            dataBrowserEnabled: body.data_browser_enabled ?? true,
            tags: body.tags ?? {},
            architecture: topology.architecture,
            replicas: topology.replicas,
            parameters: { ...(body.parameters ?? {}), ...(topology.replication_mode ? { replication_mode: topology.replication_mode } : {}) },
            backupWindow: body.backup_window ?? BACKUP_WINDOW_DEFAULT,
            backupRetentionDays: body.backup_retention_days ?? BACKUP_RETENTION_DAYS_DEFAULT,
            restoredFrom: restore?.restoredFrom ?? null,
          });
          await new InstanceUsersRepository(db).insert({
            instanceId: instance.id,
            username: DEFAULT_USERNAME,
            permission: 'admin',
            passwordEncrypted: encryptSecret(this.config.masterKey, password),
          });
          await new AllowlistRepository(db).replace(instance.id, allowlist);
          return instance;
        },
      });
      return {
        instance: await this.present(projectId, instance.id),
        operation: toOperationDto(operation),
        default_user: { username: DEFAULT_USERNAME, password },
      };
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(`An instance named ${body.name} exists in this project`, 'duplicate_name');
      throw error;
    }
  }

  async list(auth: AuthContext, projectId: string, query: InstanceListQuery): Promise<string> {
    await this.access.require(auth, projectId);
    const sort = query.sort ?? 'created_at';
    const limit = query.limit ?? 50;
    const after = query.cursor ? decodeCursor(query.cursor, isListCursor) : undefined;
    if (after && sort === 'created_at' && !isCursorTimestamp(after.v)) throw new Invalid('cursor does not match sort', undefined, 'invalid_cursor');
    let tag: { key: string; value?: string } | undefined;
    if (query.tag) {
      const colon = query.tag.indexOf(':');
      tag = colon < 0 ? { key: query.tag } : { key: query.tag.slice(0, colon), value: query.tag.slice(colon + 1) };
    }
    // The body is written as JSON text by the presenter; nothing is parsed and re-serialised.
    const rows = await this.instances.list(projectId, {
      status: query.status,
      region: query.region,
      instanceType: query.instance_type,
      nameContains: query.name,
      tag,
      sort,
      order: query.order ?? 'desc',
      limit: limit + 1,
      after: after && { value: after.v, id: after.id },
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit && last ? encodeCursor({ v: last.sort_value, id: last.id }) : null;
    return `{"items":[${page.map(instanceJson).join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}`;
  }

  async get(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceDetailDto> {
    await this.access.require(auth, projectId);
    const instance = await this.present(projectId, instanceId);
    const operation = instance.current_operation_id ? await this.operations.get(projectId, instance.current_operation_id) : undefined;
    return { ...instance, current_operation: operation ? toOperationDto(operation) : null };
  }

  async update(auth: AuthContext, projectId: string, instanceId: string, body: UpdateInstanceDto): Promise<InstanceAcceptedDto> {
    const instance = await this.load(auth, projectId, instanceId, 'member');
    if (Object.values(body).every((v) => v === undefined)) throw new Invalid('Nothing to change: give at least one field');
    if (instance.status === 'deleting' || instance.status === 'deleted') throw new Conflict(`Instance is ${instance.status}`, 'invalid_state');

    const changes: ModifyJob['changes'] = {};
    if (body.instance_type !== undefined && body.instance_type !== instance.instanceType) {
      const type = await this.catalog.getInstanceType(body.instance_type);
      if (!type) throw new Invalid(`Unknown instance type: ${body.instance_type}`, [{ field: 'instance_type', problems: ['unknown instance type'] }]);
      if (!type.regions.includes(instance.region)) throw new Invalid(`${type.id} is not offered in region ${instance.region}`);
      if ((body.disk_gib ?? instance.diskGib) > type.diskGibMax) throw new Invalid(`disk_gib exceeds ${type.diskGibMax} for ${type.id}`);
      changes.instance_type = { from: instance.instanceType, to: type.id };
    }
    const targetType = await this.catalog.getInstanceType(changes.instance_type?.to ?? instance.instanceType);
    if (body.disk_gib !== undefined && body.disk_gib !== instance.diskGib) {
      if (body.disk_gib < instance.diskGib) throw new Invalid('Disks only grow: disk_gib must not be smaller than now', [{ field: 'disk_gib', problems: ['shrink'] }]);
      if (targetType && body.disk_gib > targetType.diskGibMax) throw new Invalid(`disk_gib must be at most ${targetType.diskGibMax}`);
      changes.disk_gib = { from: instance.diskGib, to: body.disk_gib };
    }
    const parameters = { ...(instance.parameters as Record<string, unknown>) };
    if (body.parameters?.replication_mode !== undefined) {
      // The same rule as on create: only a standard instance replicates.
      topologyOf({ architecture: instance.architecture, replicas: instance.replicas || undefined, parameters: body.parameters });
    }
    if (body.parameters) {
      const given = Object.fromEntries(Object.entries(body.parameters).filter(([, v]) => v !== undefined));
      const changed = Object.fromEntries(Object.entries(given).filter(([k, v]) => parameters[k] !== v));
      if (Object.keys(changed).length) changes.parameters = Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, String(v)]));
      Object.assign(parameters, given);
    }
    if (targetType) this.checkMaxClients(parameters.maxclients as number | undefined, targetType.maxConnections);
    if (body.name !== undefined && body.name !== instance.name && (await this.instances.nameTaken(projectId, body.name, instance.id))) {
      throw new Conflict(`An instance named ${body.name} exists in this project`, 'duplicate_name');
    }

    const metadata = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.tags !== undefined ? { tags: body.tags } : {}),
      ...(body.deletion_protection !== undefined ? { deletionProtection: body.deletion_protection } : {}),
      ...(body.data_browser_enabled !== undefined ? { dataBrowserEnabled: body.data_browser_enabled } : {}),
      // Read by the worker's scheduler at each pass: nothing to deploy.
      ...(body.backup_window !== undefined ? { backupWindow: body.backup_window } : {}),
      ...(body.backup_retention_days !== undefined ? { backupRetentionDays: body.backup_retention_days } : {}),
    };
    // After a failed modify the instance is `error`: naming its sizing again (the new type to
    // retry, or the row's own to roll back) runs a modify that converges on it.
    const converge = instance.status === 'error' && [body.instance_type, body.disk_gib, body.parameters].some((v) => v !== undefined);
    const needsWork = Object.keys(changes).length > 0 || converge;
    try {
      if (!needsWork) {
        if (Object.keys(metadata).length) await this.instances.update(projectId, instance.id, metadata);
        return { instance: await this.present(projectId, instance.id), operation: null };
      }
      if (instance.status !== 'running' && instance.status !== 'error') {
        throw new Conflict(`Resize and parameter changes need a running instance; it is ${instance.status}`, 'invalid_state');
      }
      // The row keeps its type, disk and parameters until the worker's modify succeeds.
      const job: Omit<ModifyJob, 'instance_id' | 'operation_id'> = {
        changes,
        target: { instance_type: changes.instance_type?.to ?? instance.instanceType, disk_gib: changes.disk_gib?.to ?? instance.diskGib, parameters },
      };
      const { operation } = await this.starter.start({
        instance,
        type: 'modify',
        userId: auth.user.id,
        params: job as unknown as Record<string, unknown>,
        job,
        before: async (db) => {
          const instances = new InstancesRepository(db);
          if (targetType && targetType.id !== instance.instanceType) {
            await requireQuotaRoom(instances, this.config.quota, projectId, targetType, nodeCountOf(instance), instance.id);
          }
          if (Object.keys(metadata).length) await instances.update(projectId, instance.id, metadata);
        },
      });
      return { instance: await this.present(projectId, instance.id), operation: toOperationDto(operation) };
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(`An instance named ${body.name} exists in this project`, 'duplicate_name');
      throw error;
    }
  }

  async restart(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceAcceptedDto> {
    const instance = await this.load(auth, projectId, instanceId, 'member');
    if (instance.status !== 'running' && instance.status !== 'error') throw new Conflict(`Cannot restart while ${instance.status}`, 'invalid_state');
    const { operation } = await this.starter.start({ instance, type: 'restart', userId: auth.user.id });
    return { instance: await this.present(projectId, instance.id), operation: toOperationDto(operation) };
  }

  /**
   * A switchover of a `standard` instance (issue 15): the primary stops taking writes, the most
   * up-to-date replica catches up with all of them and takes over, the primary endpoint's
   * address moves to it, and the old primary follows it. No acknowledged write is lost.
   */
  async failover(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceAcceptedDto> {
    const instance = await this.load(auth, projectId, instanceId, 'member');
    if (instance.architecture !== 'standard') throw new Conflict('Only a standard instance has a replica to switch over to', 'invalid_state');
    if (instance.status !== 'running') throw new Conflict(`Cannot switch over while ${instance.status}`, 'invalid_state');
    const job = { mode: 'switchover' as const };
    const { operation } = await this.starter.start({ instance, type: 'failover', userId: auth.user.id, params: job, job });
    return { instance: await this.present(projectId, instance.id), operation: toOperationDto(operation) };
  }

  async delete(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceAcceptedDto> {
    const instance = await this.load(auth, projectId, instanceId, 'member');
    if (instance.deletionProtection) throw new Conflict('Deletion protection is on; turn it off with PATCH first', 'deletion_protected');
    if (instance.status === 'deleted') throw new Conflict('Instance is already deleted', 'invalid_state');
    // A delete that failed leaves the instance `deleting` with its fault: DELETE again runs it again.
    if (instance.status === 'deleting' && (await this.deleteUnderWay(projectId, instance))) {
      throw new Conflict('Instance is already being deleted', 'invalid_state');
    }
    const { operation } = await this.starter.start({ instance, type: 'delete', userId: auth.user.id });
    return { instance: await this.present(projectId, instance.id), operation: toOperationDto(operation) };
  }

  /** The instance's current operation is a delete that has not finished (pending or running). */
  private async deleteUnderWay(projectId: string, instance: InstanceRow): Promise<boolean> {
    const current = instance.currentOperationId ? await this.operations.get(projectId, instance.currentOperationId) : undefined;
    return current?.type === 'delete' && (current.status === 'pending' || current.status === 'running');
  }

  private checkMaxClients(maxclients: number | undefined, limit: number): void {
    if (maxclients !== undefined && maxclients > limit) {
      throw new Invalid(`parameters.maxclients must be at most ${limit} for this instance type`, [{ field: 'parameters.maxclients', problems: ['too large'] }]);
    }
  }
}

/** The architecture, replicas and replication mode asked for (@basalt/api-client/rules), else 400. */
function topologyOf(body: Pick<CreateInstanceDto, 'architecture' | 'replicas' | 'parameters'>): Topology {
  const parsed = parseTopology({
    architecture: body.architecture,
    replicas: body.replicas,
    replication_mode: body.parameters?.replication_mode,
  });
  if ('topology' in parsed) return parsed.topology;
  throw new Invalid(
    parsed.problems.map((p) => `${p.field} ${p.problem}`).join('; '),
    parsed.problems.map((p) => ({ field: p.field, problems: [p.problem] })),
  );
}

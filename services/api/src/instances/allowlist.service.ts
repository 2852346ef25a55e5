// The allowlist of an instance: validated, normalised CIDRs; changes on a live instance are
// applied by an `apply_allowlist` operation.
import { Inject, Injectable } from '@nestjs/common';
import { AllowlistRepository, type AllowlistEntryInput, type Database, type InstanceRow, type Db } from '@basalt/db';
import { DATABASE } from '../database/database.module.js';
import { Invalid } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { normaliseCidr } from '@basalt/api-client/rules';
import { normaliseAllowlist } from './allowlist.rules.js';
import { changeAccess } from './access-change.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { toOperationDto } from '../operations/operation.dto.js';
import { type AllowlistDto, type AllowlistEntryInputDto, MAX_ALLOWLIST_ENTRIES, toAllowlistEntryDto } from './allowlist.dto.js';
import { InstanceService } from './instance.service.js';

@Injectable()
export class AllowlistService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly instances: InstanceService,
    private readonly allowlist: AllowlistRepository,
    private readonly starter: OperationStarter,
  ) {}

  async get(auth: AuthContext, projectId: string, instanceId: string): Promise<AllowlistDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    return { items: (await this.allowlist.list(instance.id)).map(toAllowlistEntryDto), operation: null };
  }

  async replace(auth: AuthContext, projectId: string, instanceId: string, entries: AllowlistEntryInputDto[]): Promise<AllowlistDto> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    const normalised = normaliseAllowlist(entries, 'entries');
    return this.apply(auth, instance, (db) => new AllowlistRepository(db).replace(instance.id, normalised));
  }

  async patch(auth: AuthContext, projectId: string, instanceId: string, add: AllowlistEntryInputDto[], remove: string[]): Promise<AllowlistDto> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    if (!add.length && !remove.length) throw new Invalid('Nothing to change: give add or remove');
    const additions = normaliseAllowlist(add, 'add');
    const removals = remove.map((cidr, index) => {
      const normalised = normaliseCidr(cidr);
      if (!normalised) throw new Invalid('Invalid CIDR in remove', [{ field: `remove.${index}`, problems: ['not a CIDR'] }]);
      return normalised;
    });
    const current = new Set((await this.allowlist.list(instance.id)).map((e) => e.cidr));
    removals.forEach((c) => current.delete(c));
    additions.forEach((e) => current.add(e.cidr));
    if (current.size > MAX_ALLOWLIST_ENTRIES) throw new Invalid(`An allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries`, undefined, 'allowlist_too_large');
    return this.apply(auth, instance, (db) => new AllowlistRepository(db).patch(instance.id, additions, removals));
  }

  private async apply(auth: AuthContext, instance: InstanceRow, change: (db: Db) => Promise<void>): Promise<AllowlistDto> {
    const operation = await changeAccess(this.database, this.starter, auth, instance, 'allowlist', change);
    return { items: (await this.allowlist.list(instance.id)).map(toAllowlistEntryDto), operation: operation && toOperationDto(operation) };
  }
}

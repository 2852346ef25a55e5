// Database users of an instance. Passwords are generated or given, returned once, stored
// encrypted with the master key, and never logged. Changes on a live instance are applied by an
// `apply_users` operation.
import { Inject, Injectable } from '@nestjs/common';
import { type Database, type Db, encryptSecret, generatePassword, type InstanceRow, InstanceUsersRepository } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { DATABASE } from '../database/database.module.js';
import { Conflict, NotFound } from '../common/errors.js';
import type { AuthContext } from '../common/request-context.js';
import { OperationStarter } from '../operations/operation-starter.service.js';
import { type OperationDto, toOperationDto } from '../operations/operation.dto.js';
import { assertAccessChangeable, changeAccess } from './access-change.js';
import { InstanceService } from './instance.service.js';
import {
  type InstanceUserChangeDto,
  type InstanceUserDeletedDto,
  type InstanceUserDto,
  type InstanceUserWithPasswordDto,
  type PermissionName,
  toInstanceUserDto,
} from './instance-user.dto.js';

const MAX_USERS = 100;

@Injectable()
export class InstanceUserService {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly config: ApiConfig,
    private readonly instances: InstanceService,
    private readonly users: InstanceUsersRepository,
    private readonly starter: OperationStarter,
  ) {}

  async list(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceUserDto[]> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    return (await this.users.list(instance.id)).map(toInstanceUserDto);
  }

  async get(auth: AuthContext, projectId: string, instanceId: string, username: string): Promise<InstanceUserDto> {
    const instance = await this.instances.load(auth, projectId, instanceId);
    const user = await this.users.get(instance.id, username);
    if (!user) throw new NotFound('User');
    return toInstanceUserDto(user);
  }

  async create(auth: AuthContext, projectId: string, instanceId: string, username: string, permission: PermissionName, password?: string): Promise<InstanceUserWithPasswordDto> {
    const instance = await this.writable(auth, projectId, instanceId);
    if (await this.users.get(instance.id, username)) throw new Conflict(`User ${username} exists`, 'duplicate_username');
    if ((await this.users.count(instance.id)) >= MAX_USERS) throw new Conflict(`An instance has at most ${MAX_USERS} users`, 'too_many_users');
    const secret = password ?? generatePassword();
    const operation = await this.apply(auth, instance, async (db) => {
      await new InstanceUsersRepository(db).insert({ instanceId: instance.id, username, permission, passwordEncrypted: encryptSecret(this.config.masterKey, secret) });
    }).catch((error: { code?: string; cause?: { code?: string } }) => {
      if (error?.code === '23505' || error?.cause?.code === '23505') throw new Conflict(`User ${username} exists`, 'duplicate_username');
      throw error;
    });
    return { user: toInstanceUserDto((await this.users.get(instance.id, username))!), password: secret, operation };
  }

  async update(auth: AuthContext, projectId: string, instanceId: string, username: string, permission: PermissionName): Promise<InstanceUserChangeDto> {
    const instance = await this.writable(auth, projectId, instanceId);
    await this.existing(instance, username);
    const operation = await this.apply(auth, instance, (db) => new InstanceUsersRepository(db).updatePermission(instance.id, username, permission).then(() => {}));
    return { user: toInstanceUserDto((await this.users.get(instance.id, username))!), operation };
  }

  /** New password now; the old one keeps working until revoked or the rotation window ends. */
  async resetPassword(auth: AuthContext, projectId: string, instanceId: string, username: string, password?: string): Promise<InstanceUserWithPasswordDto> {
    const instance = await this.writable(auth, projectId, instanceId);
    await this.existing(instance, username);
    const secret = password ?? generatePassword();
    const validUntil = new Date(Date.now() + this.config.passwordRotationSeconds * 1000);
    const operation = await this.apply(auth, instance, (db) =>
      new InstanceUsersRepository(db).rotatePassword(instance.id, username, encryptSecret(this.config.masterKey, secret), validUntil).then(() => {}),
    );
    return { user: toInstanceUserDto((await this.users.get(instance.id, username))!), password: secret, operation };
  }

  async revokeOldPassword(auth: AuthContext, projectId: string, instanceId: string, username: string): Promise<InstanceUserChangeDto> {
    const instance = await this.writable(auth, projectId, instanceId);
    await this.existing(instance, username);
    const operation = await this.apply(auth, instance, (db) => new InstanceUsersRepository(db).revokeOldPassword(instance.id, username).then(() => {}));
    return { user: toInstanceUserDto((await this.users.get(instance.id, username))!), operation };
  }

  async delete(auth: AuthContext, projectId: string, instanceId: string, username: string): Promise<InstanceUserDeletedDto> {
    const instance = await this.writable(auth, projectId, instanceId);
    await this.existing(instance, username);
    if ((await this.users.count(instance.id)) <= 1) throw new Conflict('An instance keeps at least one user', 'last_user');
    const operation = await this.apply(auth, instance, (db) => new InstanceUsersRepository(db).delete(instance.id, username).then(() => {}));
    return { operation };
  }

  private async writable(auth: AuthContext, projectId: string, instanceId: string): Promise<InstanceRow> {
    const instance = await this.instances.load(auth, projectId, instanceId, 'member');
    assertAccessChangeable(instance.status);
    return instance;
  }

  private async existing(instance: InstanceRow, username: string): Promise<void> {
    if (!(await this.users.get(instance.id, username))) throw new NotFound('User');
  }

  private async apply(auth: AuthContext, instance: InstanceRow, change: (db: Db) => Promise<void>): Promise<OperationDto | null> {
    const operation = await changeAccess(this.database, this.starter, auth, instance, 'users', change);
    return operation && toOperationDto(operation);
  }
}

// Login, logout, sessions, and the first admin.
import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { generatePassword, ProjectsRepository, UsersRepository, type UserRow } from '@basalt/db';
import { ApiConfig } from '../config.js';
import { Unauthenticated } from '../common/errors.js';
import { hashPassword, hashToken, verifyPassword } from '../common/password-hash.js';
import { LoginThrottle } from './login-throttle.js';
import type { UserDto } from './auth.dto.js';
import { AuthCache } from '../common/auth-cache.js';

// Verified against when the e-mail is unknown, so both paths take the same time.
const DUMMY_HASH = hashPassword(randomBytes(16).toString('hex'));

export function toUserDto(user: UserRow): UserDto {
  return { id: user.id, email: user.email, name: user.name, is_admin: user.isAdmin, created_at: user.createdAt.toISOString() };
}

@Injectable()
export class AuthService {
  private readonly logger = new Logger('AuthService');
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly users: UsersRepository,
    private readonly projects: ProjectsRepository,
    private readonly config: ApiConfig,
    private readonly cache: AuthCache,
  ) {
    this.throttle = new LoginThrottle(config);
  }

  /** Returns the user and a new session token (the caller sets it as a cookie). */
  async login(email: string, password: string, clientAddress: string): Promise<{ user: UserRow; token: string }> {
    this.throttle.admit(clientAddress, email);
    const user = await this.users.findByEmail(email);
    const stored = user?.passwordHash ?? (await DUMMY_HASH);
    const valid = await this.throttle.hashing(() => verifyPassword(password, stored));
    if (!user || !valid) throw new Unauthenticated('Wrong e-mail or password');
    const token = randomBytes(32).toString('base64url');
    await this.users.createSession(user.id, hashToken(token), new Date(Date.now() + this.config.sessionTtlSeconds * 1000));
    return { user, token };
  }

  async logout(sessionTokenHash: string | null): Promise<void> {
    if (!sessionTokenHash) return;
    await this.users.deleteSession(sessionTokenHash);
    this.cache.credentials.delete(`session:${sessionTokenHash}`);
  }

  /** A new user always starts with a project of their own. */
  async createUser(values: { email: string; name: string; password: string; isAdmin: boolean }): Promise<UserRow> {
    const user = await this.users.create({ email: values.email, name: values.name, passwordHash: await hashPassword(values.password), isAdmin: values.isAdmin });
    await this.projects.create('default', user.id);
    return user;
  }

  /** Creates the first admin from BASALT_ADMIN_EMAIL / BASALT_ADMIN_PASSWORD, or with a generated password printed once. */
  async ensureAdmin(): Promise<void> {
    const email = this.config.adminEmail ?? 'admin@basalt.local';
    if (await this.users.findByEmail(email)) return;
    const password = this.config.adminPassword ?? generatePassword();
    try {
      await this.createUser({ email, name: 'Administrator', password, isAdmin: true });
    } catch (error) {
      // Another API process on the same database, started at the same moment, made it first.
      if (await this.users.findByEmail(email)) return;
      throw error;
    }
    if (this.config.adminPassword) this.logger.log(`Created admin ${email} from BASALT_ADMIN_EMAIL/BASALT_ADMIN_PASSWORD`);
    // Shown exactly once, on the console of the first start, when nobody chose a password.
    else process.stdout.write(`Created admin ${email} with generated password: ${password}\n`);
  }
}

// Rows the API would write for a request (instance, its default user, an operation) and
// the job it would enqueue, written through @basalt/db, so the worker can be driven
// without the API in the loop.
import PgBoss from 'pg-boss';
import { eq } from 'drizzle-orm';
import {
  CatalogRepository,
  createDatabase,
  createQueues,
  encryptSecret,
  generatePassword,
  migrate,
  parseMasterKey,
  schema,
  QUEUE_KINDS,
  startOperation,
  type Database,
  type QueueKey,
} from '@basalt/db';
import { MASTER_KEY } from './worker-process.js';

/** The control plane's tables and queue, and the project the rows below go in. */
export interface ControlPlane {
  database: Database;
  boss: PgBoss;
  projectId: string;
}

export interface CreatedInstance {
  id: string;
  operationId: string;
  username: string;
  password: string;
}

export async function openControlPlane(url: string): Promise<ControlPlane & { close(): Promise<void> }> {
  await migrate(url);
  const database = createDatabase(url, { max: 4 });
  await new CatalogRepository(database.db).seed();
  const boss = new PgBoss({ connectionString: url, max: 2 });
  boss.on('error', () => {});
  await boss.start();
  await createQueues(boss);
  const [user] = await database.db
    .insert(schema.users)
    .values({ email: `owner-${Date.now()}@e2e.test`, passwordHash: 'not-used' })
    .returning();
  const [project] = await database.db.insert(schema.projects).values({ name: 'e2e', createdBy: user!.id }).returning();
  return {
    database,
    boss,
    projectId: project!.id,
    close: async () => {
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
      await database.close();
    },
  };
}

export async function createInstance(cp: ControlPlane, name: string, instanceType: string): Promise<CreatedInstance> {
  const masterKey = parseMasterKey(MASTER_KEY);
  const password = generatePassword();
  const [instance] = await cp.database.db
    .insert(schema.instances)
    .values({ projectId: cp.projectId, name, instanceType, region: 'local', engineVersion: '1.0', diskGib: 10 })
    .returning();
  await cp.database.db.insert(schema.instanceUsers).values({
    instanceId: instance!.id,
    username: 'default',
    permission: 'admin',
    passwordEncrypted: encryptSecret(masterKey, password),
  });
  const operationId = await requestOperation(cp, instance!.id, 'provision');
  return { id: instance!.id, operationId, username: 'default', password };
}

/**
 * Starts an operation as the API does for every change: @basalt/db's one starter writes the
 * operation, points the instance at it, moves its status (the one the kind owns) and enqueues
 * the job, in one transaction.
 */
export async function requestOperation(
  cp: ControlPlane,
  instanceId: string,
  key: Exclude<QueueKey, 'benchmark' | 'failover' | 'typeReport'>,
  params: Record<string, unknown> = {},
): Promise<string> {
  const instance = await getInstance(cp, instanceId);
  const { operation } = await startOperation(cp.database.pool, cp.boss, { instance, type: QUEUE_KINDS[key], userId: null, params, job: params as never });
  return operation.id;
}

export async function getInstance(cp: ControlPlane, id: string) {
  const [row] = await cp.database.db.select().from(schema.instances).where(eq(schema.instances.id, id));
  return row!;
}

export async function getOperation(cp: ControlPlane, id: string) {
  const [row] = await cp.database.db.select().from(schema.operations).where(eq(schema.operations.id, id));
  return row!;
}

export async function operationEvents(cp: ControlPlane, id: string) {
  return cp.database.db.select().from(schema.operationEvents).where(eq(schema.operationEvents.operationId, id));
}

/** Waits until the operation finishes; returns it (succeeded or failed). */
export async function waitForOperation(cp: ControlPlane, id: string, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const operation = await getOperation(cp, id);
    if (operation.status === 'succeeded' || operation.status === 'failed') return operation;
    if (Date.now() > deadline) throw new Error(`operation ${id} still ${operation.status} after ${timeoutMs} ms: ${JSON.stringify(operation.steps)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Deletes every instance that is not deleted yet (a test's cleanup, even after a failure). */
export async function deleteAllInstances(cp: ControlPlane, timeoutMs = 300_000): Promise<void> {
  const rows = await cp.database.db.select().from(schema.instances);
  const live = rows.filter((row) => row.status !== 'deleted');
  const operations = await Promise.all(live.map((row) => requestOperation(cp, row.id, 'delete')));
  for (const id of operations) await waitForOperation(cp, id, timeoutMs).catch(() => {});
}

// Resume, not redo (issue 45), against a real PostgreSQL: an operation whose worker died keeps
// the steps it finished on its row; the retry (a second OperationRun on the same row, as the
// next worker makes it) skips the resumable ones it meets before the first step that has to
// run, recalling their results, and runs every step from there on. The fault hook is a test
// setting that a worker refuses without its flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogRepository, createDatabase, migrate, ProvisioningRepository, schema, stepsOf, type Database } from '@basalt/db';
import { createTestDatabase, type TestDatabase } from './test-support/database.js';
import { OperationRun, Preempted, RECALL_NOTHING } from './operation.js';
import { parseFault } from './fault-hook.js';

let testDb: TestDatabase;
let database: Database;
let repo: ProvisioningRepository;
let projectId: string;
let instanceId: string;

beforeAll(async () => {
  testDb = await createTestDatabase('worker_resume');
  await migrate(testDb.url);
  database = createDatabase(testDb.url, { max: 4 });
  await new CatalogRepository(database.db).seed();
  repo = new ProvisioningRepository(database.db, database.pool);
  const [user] = await database.db.insert(schema.users).values({ email: 'resume@test', passwordHash: 'x' }).returning();
  const [project] = await database.db.insert(schema.projects).values({ name: 'resume', createdBy: user!.id }).returning();
  projectId = project!.id;
  const [instance] = await database.db
    .insert(schema.instances)
    .values({ projectId, name: 'resumed', instanceType: 'kv.standard.small', region: 'local', engineVersion: '1.0', diskGib: 10 })
    .returning();
  instanceId = instance!.id;
});

afterAll(async () => {
  await database?.close();
  await testDb?.drop();
});

async function newOperation(type: 'create' | 'modify' | 'failover'): Promise<string> {
  const operation = await repo.operations().insert({ projectId, instanceId, type, params: {}, createdBy: null });
  return operation.id;
}

/** A new attempt at the operation, as the next worker makes one: from the row the last one left. */
async function attempt<K extends 'create' | 'modify' | 'failover'>(type: K, operationId: string, variant?: string) {
  const run = new OperationRun(repo, operationId, stepsOf(type, variant));
  const row = await repo.operations().getById(operationId);
  await run.start(row!.steps);
  return run;
}

async function eventsOf(operationId: string) {
  return (await repo.operations().eventsAfter(operationId, 0)).map((e) => `${e.kind}${e.step ? ` ${e.step}` : ''}`);
}

/** The work of a step, counting its runs. */
function counted() {
  const runs: string[] = [];
  const work = (name: string, result: unknown = undefined) => async () => {
    runs.push(name);
    return result;
  };
  return { runs, work };
}

describe('a retry of an operation whose worker died', () => {
  it('skips the resumable steps an earlier attempt finished, recalls their results, and re-runs the check', async () => {
    const id = await newOperation('create');
    const first = await attempt('create', id);
    const one = counted();
    await first.step('allocate_addresses', one.work('allocate_addresses', ['10.0.0.2']));
    await first.step('terraform_init', one.work('terraform_init'));
    await first.step('terraform_apply', one.work('terraform_apply'));
    await first.step('ansible_deploy', one.work('ansible_deploy'));
    // The worker dies here, as health_check starts: nothing records its end.
    const row = await repo.operations().getById(id);
    expect((row!.steps as { name: string; status: string }[]).map((s) => `${s.name}:${s.status}`)).toEqual([
      'allocate_addresses:succeeded', 'terraform_init:succeeded', 'terraform_apply:succeeded', 'ansible_deploy:succeeded', 'health_check:pending',
    ]);

    const second = await attempt('create', id);
    const two = counted();
    const held = await second.step('allocate_addresses', two.work('allocate_addresses', ['other']), undefined, { recall: async () => ['10.0.0.2'] });
    expect(held).toEqual(['10.0.0.2']);
    expect(second.willSkip('terraform_apply')).toBe(true);
    await second.step('terraform_apply', two.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    await second.step('ansible_deploy', two.work('ansible_deploy'), undefined, { recall: RECALL_NOTHING });
    await second.step('health_check', two.work('health_check'));
    await second.succeed();
    expect(two.runs).toEqual(['health_check']);
    const events = await eventsOf(id);
    const retry = events.slice(events.indexOf('operation_resumed'));
    expect(retry).toEqual([
      'operation_resumed',
      'step_skipped allocate_addresses',
      'step_skipped terraform_apply',
      'step_skipped ansible_deploy',
      'step_started health_check',
      'step_succeeded health_check',
      'operation_succeeded',
    ]);
    expect(events.filter((e) => e === 'step_started terraform_apply')).toHaveLength(1);
  });

  it('runs every step after the first one that runs, and a step the dead worker was in runs again', async () => {
    const id = await newOperation('create');
    const first = await attempt('create', id);
    const noop = counted();
    await first.step('allocate_addresses', noop.work('allocate_addresses'));
    await first.step('terraform_init', noop.work('terraform_init'));
    await first.step('terraform_apply', noop.work('terraform_apply'));
    // Killed during the deploy: the step is `running` on the row.
    await expect(first.step('ansible_deploy', () => Promise.reject(new Error('killed')))).rejects.toThrow();
    await repo.updateOperation(id, { status: 'running' });

    const second = await attempt('create', id);
    const two = counted();
    await second.step('allocate_addresses', two.work('allocate_addresses'), undefined, { recall: RECALL_NOTHING });
    await second.step('terraform_apply', two.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    expect(second.willSkip('ansible_deploy')).toBe(false);
    await second.step('ansible_deploy', two.work('ansible_deploy'), undefined, { recall: RECALL_NOTHING });
    await second.step('health_check', two.work('health_check'));
    expect(two.runs).toEqual(['ansible_deploy', 'health_check']);
  });

  it('never skips a step its kind does not mark resumable, nor one without a way to recall it', async () => {
    const id = await newOperation('create');
    const first = await attempt('create', id);
    const noop = counted();
    await first.step('allocate_addresses', noop.work('allocate_addresses'));
    await first.step('terraform_init', noop.work('terraform_init'));
    const second = await attempt('create', id);
    const two = counted();
    await second.step('allocate_addresses', two.work('allocate_addresses'));
    // Without `resume` the step ran, so nothing after it is skipped either.
    await second.step('terraform_init', two.work('terraform_init'), undefined, { recall: RECALL_NOTHING });
    expect(two.runs).toEqual(['allocate_addresses', 'terraform_init']);

    const failover = await newOperation('failover');
    const attempt1 = await attempt('failover', failover);
    await attempt1.step('check_primary', noop.work('check_primary'));
    const attempt2 = await attempt('failover', failover);
    expect(attempt2.willSkip('check_primary')).toBe(false);
    await repo.updateOperation(failover, { status: 'succeeded' });
  });

  it('resumes a rolling deploy by node: the nodes finished are skipped whatever order the retry takes them in', async () => {
    const id = await newOperation('modify');
    const first = await attempt('modify', id);
    const noop = counted();
    await first.step('terraform_apply', noop.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    await first.step('ansible_deploy', noop.work('deploy b'), undefined, { key: 'node-b', recall: RECALL_NOTHING });
    await first.step('ansible_deploy', noop.work('deploy c'), undefined, { key: 'node-c', recall: RECALL_NOTHING });

    const second = await attempt('modify', id);
    const two = counted();
    await second.step('terraform_apply', two.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    await second.step('ansible_deploy', two.work('deploy c'), undefined, { key: 'node-c', recall: RECALL_NOTHING });
    expect(second.willSkip('ansible_deploy', 'node-a')).toBe(false);
    await second.step('ansible_deploy', two.work('deploy a'), undefined, { key: 'node-a', recall: RECALL_NOTHING });
    // node-b was finished, but a step ran before it: it runs again.
    await second.step('ansible_deploy', two.work('deploy b'), undefined, { key: 'node-b', recall: RECALL_NOTHING });
    expect(two.runs).toEqual(['deploy a', 'deploy b']);
    const row = await repo.operations().getById(id);
    const deploy = (row!.steps as { name: string; done?: string[] }[]).find((s) => s.name === 'ansible_deploy');
    expect([...deploy!.done!].sort()).toEqual(['node-a', 'node-b', 'node-c']);
  });
});

describe('failover first', () => {
  it('finds the failover the monitor started, not a switchover; a run it preempts waits pending and resumes', async () => {
    const operations = repo.operations();
    const switchover = await operations.insert({ projectId, instanceId, type: 'failover', params: { mode: 'switchover' }, createdBy: null });
    expect(await operations.rescuingFailover(instanceId)).toBeUndefined();
    const resize = await newOperation('modify');
    const run = await attempt('modify', resize);
    run.beforeStep = async (name) => {
      const rescue = await operations.rescuingFailover(instanceId);
      if (rescue) throw new Preempted(name, rescue.id);
    };
    const noop = counted();
    await run.step('terraform_apply', noop.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    const automatic = await operations.insert({ projectId, instanceId, type: 'failover', params: { mode: 'automatic' }, createdBy: null });
    expect((await operations.rescuingFailover(instanceId))?.id).toBe(automatic.id);
    const preempted = await run.step('ansible_deploy', noop.work('ansible_deploy'), undefined, { recall: RECALL_NOTHING }).catch((error: unknown) => error);
    expect(preempted).toBeInstanceOf(Preempted);
    await run.pause((preempted as Error).message);
    expect(noop.runs).toEqual(['terraform_apply']);
    expect((await operations.getById(resize))!.status).toBe('pending');

    // The failover done, the resize resumes past what it had finished.
    for (const id of [automatic.id, switchover.id]) await repo.updateOperation(id, { status: 'succeeded' });
    const again = await attempt('modify', resize);
    const two = counted();
    await again.step('terraform_apply', two.work('terraform_apply'), undefined, { recall: RECALL_NOTHING });
    await again.step('ansible_deploy', two.work('ansible_deploy'), undefined, { recall: RECALL_NOTHING });
    expect(two.runs).toEqual(['ansible_deploy']);
    expect(await eventsOf(resize)).toContain('operation_preempted');
  });
});

describe('the fault hook', () => {
  it('is refused without the test flag, and parses kind, step and delay with it', () => {
    expect(parseFault({})).toBeUndefined();
    expect(() => parseFault({ BASALT_FAULT: 'kill:create:terraform_apply' })).toThrow(/test setting/);
    expect(parseFault({ BASALT_FAULT: 'kill:create:terraform_apply', BASALT_TEST_FAULTS: '1' })).toEqual({ how: 'kill', kind: 'create', step: 'terraform_apply', afterMs: 0 });
    expect(parseFault({ BASALT_FAULT: 'kill-group:modify:ansible_deploy@1500', BASALT_TEST_FAULTS: '1' })).toEqual({ how: 'kill-group', kind: 'modify', step: 'ansible_deploy', afterMs: 1500 });
    for (const bad of ['kill:create', 'stop:create:x', 'kill:create:x;rm -rf /', 'kill:create:x@-1', '$(touch /tmp/pwned):a:b']) {
      expect(() => parseFault({ BASALT_FAULT: bad, BASALT_TEST_FAULTS: '1' }), bad).toThrow(/must be/);
    }
  });
});

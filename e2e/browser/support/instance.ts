// A real instance for a browser test: created through the API on a local VM by the worker,
// waited for until `running`; and deleted (waited for) so that no VM outlives the test.
import type { BasaltClient, Schemas } from '@basalt/api-client';

type Instance = Schemas['InstanceDetailDto'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates a small standalone instance and returns it once running, with its one-time password. */
export async function createRunningInstance(api: BasaltClient, projectId: string, name: string): Promise<{ instance: Instance; password: string }> {
  const created = await api.POST('/v1/projects/{project}/instances', {
    params: { path: { project: projectId } },
    body: { name, instance_type: 'kv.standard.small', region: 'local', engine_version: '1.0', tls_enabled: false, deletion_protection: false },
  });
  if (created.response.status !== 202) throw new Error(`create answered ${created.response.status}: ${JSON.stringify(created.error)}`);
  const path = { params: { path: { project: projectId, instance: created.data!.instance.id } } };
  for (let waited = 0; ; waited++) {
    const current = (await api.GET('/v1/projects/{project}/instances/{instance}', path)).data;
    if (current?.status === 'running') return { instance: current, password: created.data!.default_user.password };
    if (current?.status === 'create_failed' || waited > 240) throw new Error(`instance ${current?.status} after ${waited} s: ${JSON.stringify(current?.fault)}`);
    await sleep(1000);
  }
}

/** Deletes the instance and waits (up to 4 minutes) until it is `deleted`. */
export async function deleteInstanceAndWait(api: BasaltClient, projectId: string, instanceId: string): Promise<void> {
  const path = { params: { path: { project: projectId, instance: instanceId } } };
  await api.DELETE('/v1/projects/{project}/instances/{instance}', path).catch(() => {});
  for (let waited = 0; waited < 240; waited++) {
    if ((await api.GET('/v1/projects/{project}/instances/{instance}', path)).data?.status === 'deleted') return;
    await sleep(1000);
  }
}

// Issue 12: child processes get an allowlisted environment. The worker holds the master key and
// the superuser database URL; Terraform, Ansible, the VM (systemd-nspawn) and the engine do not
// need them and must not hold them. Read from /proc/<pid>/environ of the VM's nspawn process and
// of every engine this platform runs, on a real local VM.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startProvisioningPlatform, type ProvisioningPlatform } from '../provisioning/support/stack.js';
import { MASTER_KEY } from '../provisioning/support/worker-process.js';

const SECRET_NAMES = ['BASALT_MASTER_KEY', 'DATABASE_URL', 'PG_CONN_STR', 'PGPASSFILE', 'BASALT_ADMIN_PASSWORD'];

let platform: ProvisioningPlatform;

beforeAll(async () => {
  platform = await startProvisioningPlatform('sec_env');
}, 300_000);

afterAll(async () => {
  await platform?.stop();
});

function environOf(pid: number): string[] {
  return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
}

test("neither the VM's process nor the engine holds the master key or a database URL", async () => {
  const { data, response } = await platform.client.POST('/v1/projects/{project}/instances', {
    params: { path: { project: platform.projectId } },
    body: { name: 'environ', instance_type: 'kv.standard.small', region: 'local' },
  });
  expect(response.status).toBe(202);
  await platform.waitForStatus(data!.instance.id, ['running'], 300_000);

  const vms = path.join(platform.dataDir, 'vms');
  const pids = fs.readdirSync(vms).flatMap((vm) =>
    ['nspawn.pid', path.join('run', 'engine.pid')].map((file) => path.join(vms, vm, file)).filter((file) => fs.existsSync(file)).map((file) => Number(fs.readFileSync(file, 'utf8'))),
  );
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) {
    const environ = environOf(pid);
    expect(environ.map((entry) => entry.split('=')[0]).filter((name) => SECRET_NAMES.includes(name!)), `pid ${pid}`).toEqual([]);
    expect(environ.join('\n')).not.toContain(MASTER_KEY);
    expect(environ.join('\n')).not.toMatch(/postgres(ql)?:\/\//);
  }
});

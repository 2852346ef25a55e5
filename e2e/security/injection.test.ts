// Issue 12: nothing a customer types is ever evaluated. Through the public API, values that
// would act if a template engine or a shell saw them — Jinja lookups that run a command (the
// issue's reproducer ran `id` as root on the worker host, through Ansible's -e @vars.json), shell
// substitutions, separators, newlines, printf and TOML/ACL metacharacters — go into passwords,
// tags and allowlist descriptions. The instance must run, the file a payload would create must
// never appear, and each value must come back byte for byte: AUTH with the password works on the
// real engine (ioredis), the tags and descriptions read back unchanged.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import { ROOT } from '../support/env.js';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { commandAs, createRunningInstance, endpointOf, instancePath, startSecurityPlatform } from './support.js';

const marker = `pwned${randomBytes(4).toString('hex')}`;
/** Where a payload's file would land: the Ansible run's working directories and the temp dir. */
const landing = [path.join(ROOT, 'infra', 'ansible'), path.join(ROOT, 'infra', 'ansible', 'playbooks'), os.tmpdir(), '/tmp'];

/**
 * A password the API accepts (no spaces or quotes) that, rendered as a Jinja template, runs
 * `touch <marker>` through the pipe lookup: it builds the space from a dict's string form.
 */
const TEMPLATE_PASSWORD = `{{lookup(dict(pipe=1)|first,(dict(touch=1)|first)~(dict(a=1)|string)[5]~(dict(${marker}a=1)|first))}}`;
const SHELL_PASSWORD = `$(touch${'${IFS}'}${marker}b);id|cat>${marker}c&{{7*7}}%s%n<>#~*`;
const TAG_VALUE = `{{ lookup('pipe', 'touch /tmp/${marker}d') }} $(touch /tmp/${marker}e) \`touch /tmp/${marker}f\`; touch /tmp/${marker}g\nuser evil on nopass ~* +@all\n"quoted" 'single' \\ %s %(x)s [security] x = 1 é 🔑`;
const DESCRIPTION = `{% for x in range(3) %}{{ x }}{% endfor %} $(touch /tmp/${marker}h) \`id\` ; | & \n allowlist = "0.0.0.0/0"`;

let platform: ProvisioningPlatform;
let instance: Schemas['InstanceDto'];
let endpoint: { host: string; port: number };

beforeAll(async () => {
  platform = await startSecurityPlatform('sec_inject');
  const created = await createRunningInstance(platform, {
    name: 'payloads',
    password: TEMPLATE_PASSWORD,
    tags: { note: TAG_VALUE, 'k8s.io/app': '{{7*7}}' },
    allowlist: [{ cidr: '127.0.0.0/8', description: DESCRIPTION }],
  });
  instance = created.instance;
  endpoint = endpointOf(instance);
  expect(created.password).toBe(TEMPLATE_PASSWORD);
}, 600_000);

afterAll(async () => {
  await platform?.stop();
});

function payloadFiles(): string[] {
  return landing.flatMap((dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.startsWith(marker)).map((name) => path.join(dir, name)) : []));
}

describe('customer text is data', () => {
  test('a password that is a Jinja command is the password, byte for byte, and runs nothing', async () => {
    expect(await commandAs(endpoint, { username: 'default', password: TEMPLATE_PASSWORD }, 'PING')).toBe('PONG');
    expect(payloadFiles()).toEqual([]);
  });

  test('tags and allowlist descriptions come back as they were sent', async () => {
    const read = await platform.getInstance(instance.id);
    expect(read.tags).toEqual({ note: TAG_VALUE, 'k8s.io/app': '{{7*7}}' });
    const allowlist = await platform.client.GET('/v1/projects/{project}/instances/{instance}/allowlist', { params: { path: instancePath(platform, instance) } });
    expect(allowlist.data!.items).toEqual([expect.objectContaining({ cidr: '127.0.0.0/8', description: DESCRIPTION })]);
  });

  test('a new user and a reset carry shell and template payloads to the engine unchanged', async () => {
    const path_ = instancePath(platform, instance);
    const created = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users', {
      params: { path: path_ },
      body: { username: 'app.user-1', permission: 'read_write', password: '{{7*7}}aaaaaaaaaaaa' },
    });
    expect(created.response.status).toBe(201);
    const applied = await platform.waitForOperation(created.data!.operation!.id, 240_000);
    expect(applied.status, JSON.stringify(applied.error)).toBe('succeeded');
    expect(await commandAs(endpoint, { username: 'app.user-1', password: '{{7*7}}aaaaaaaaaaaa' }, 'SET', 'k', 'v')).toBe('OK');

    const reset = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users/{username}/reset-password', {
      params: { path: { ...path_, username: 'default' } },
      body: { password: SHELL_PASSWORD },
    });
    expect(reset.response.status).toBe(200);
    const resetDone = await platform.waitForOperation(reset.data!.operation!.id, 240_000);
    expect(resetDone.status, JSON.stringify(resetDone.error)).toBe('succeeded');
    expect(await commandAs(endpoint, { username: 'default', password: SHELL_PASSWORD }, 'GET', 'k')).toBe('v');
    expect(payloadFiles()).toEqual([]);
  });

  test('a username that would add a rule or a user to the engine file is refused', async () => {
    for (const username of ['a b', 'x\nuser evil on nopass ~* +@all', 'basalt:control-plane', 'app>secret', '']) {
      const { response } = await platform.client.POST('/v1/projects/{project}/instances/{instance}/users', {
        params: { path: instancePath(platform, instance) },
        body: { username, permission: 'admin', password: 'long-enough-password' },
      });
      expect(response.status, JSON.stringify(username)).toBe(400);
    }
  });
});

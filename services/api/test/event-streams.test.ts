// Issue 43: live server-sent event streams are bounded per user, across API processes (two
// here, on one database). Without a worker the instance's create operation stays pending, so
// each stream of it stays open until its client leaves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type RunningApi } from './support/api-process.js';
import { type Caller, createBody, loginAdmin, newUser } from './support/clients.js';

let api: RunningApi;
let replica: RunningApi;
let admin: Caller;
let other: Caller;
let operationId: string;
const open: AbortController[] = [];

beforeAll(async () => {
  api = await startApi();
  admin = await loginAdmin(api);
  other = await newUser(api, admin);
  const project = admin.defaultProjectId;
  const created = await admin.client.POST('/v1/projects/{project}/instances', { params: { path: { project } }, body: createBody('streams-1') });
  operationId = created.data!.operation!.id;
  // The other user may read it too: a member of the project.
  await admin.client.POST('/v1/projects/{project}/members', { params: { path: { project } }, body: { email: other.email, role: 'viewer' } });
  replica = await startApi({}, { databaseUrl: api.databaseUrl, masterKey: api.masterKey });
});
afterAll(async () => {
  for (const controller of open) controller.abort();
  await replica?.stop();
  await api?.stop();
});

const stream = async (caller: Caller, on: RunningApi = api) => {
  const controller = new AbortController();
  const response = await fetch(`${on.baseUrl}/v1/operations/${operationId}/events`, { headers: { cookie: caller.cookie, accept: 'text/event-stream' }, signal: controller.signal });
  if (response.status === 200) open.push(controller);
  return { response, controller };
};

describe('live event streams per user', () => {
  it('serves ten at once, refuses the eleventh with 429 and the error body, and frees a slot when a stream closes', async () => {
    const first = await Promise.all(Array.from({ length: 10 }, () => stream(admin)));
    expect(first.map((s) => s.response.status)).toEqual(Array(10).fill(200));
    // The eleventh, on another replica of the API: the count is the user's, not the process's.
    const eleventh = await stream(admin, replica);
    expect(eleventh.response.status).toBe(429);
    expect(await eleventh.response.json()).toMatchObject({ code: 'too_many_streams', message: expect.stringContaining('At most 10'), request_id: expect.any(String) });
    expect((await stream(admin)).response.status).toBe(429);
    // Another user's streams are theirs to count.
    expect((await stream(other)).response.status).toBe(200);

    first[0]!.controller.abort();
    let again = 0;
    for (let i = 0; i < 50 && again !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = (await stream(admin, replica)).response.status;
    }
    expect(again).toBe(200);
  });
});

// Issue 43's attacks on the engine, tried as the issue tried them: with nothing but an instance's
// own `default` user (`admin`: ~* &* +@all), through a real client (ioredis), against one
// instance created through the public API (a process VM: up in seconds). Each answered as the
// attacker wanted before managed mode and the Lua sandbox:
// - Lua bytecode (loadstring(string.dump(...)), load, a binary chunk given to EVAL, SCRIPT LOAD
//   or FUNCTION LOAD): Lua 5.1's loader trusts crafted bytecode (CVE-2015-4335);
// - a script removing the guard of the globals and library tables;
// - REPLICAOF/SLAVEOF to a listener of the attacker's choosing (a port scanner and a request
//   forger from the platform's addresses), and the masteruser/masterauth-file settings that
//   sent a file's first line to it;
// - CONFIG SET of anything (PostgreSQL and the engine would disagree);
// - ACL SETUSER/DELUSER/GETUSER/LIST/USERS/LOAD/SAVE (users change through the API);
// - DEBUG (DEBUG SLEEP stalls the primary at will, and sets off failovers).
// What a customer legitimately uses keeps working on the same instance.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '@basalt/api-client';
import type { ProvisioningPlatform } from '../provisioning/support/stack.js';
import { commandAs, createRunningInstance, endpointOf, instancePath, startSecurityPlatform } from './support.js';

let platform: ProvisioningPlatform;
let instance: Schemas['InstanceDto'];
let endpoint: { host: string; port: number };
let customer: { username: string; password: string };

beforeAll(async () => {
  platform = await startSecurityPlatform('sec_managed');
  const created = await createRunningInstance(platform, { name: 'managed' });
  instance = created.instance;
  endpoint = endpointOf(instance);
  customer = { username: 'default', password: created.password };
}, 300_000);

afterAll(async () => {
  await platform?.stop();
});

/** One command as the customer's `default` user; the reply, or the engine's error as text. */
const asCustomer = (...command: [string, ...(string | Buffer)[]]) => commandAs(endpoint, customer, ...command);

/** The engine's refusal of a platform command: it names the command and what to use instead. */
const refused = (command: string) => `error: ERR ${command} is not available on a managed instance: `;

/**
 * A Lua 5.1 binary chunk (x86-64 layout, as string.dump writes it) of `return 1`: the header,
 * then the main function: no source name, vararg, 2 stack slots, LOADK 0 0 / RETURN 0 2 /
 * RETURN 0 1, the constant 1, no prototypes, no debug info. Stock Lua 5.1 runs it.
 */
function bytecodeReturningOne(): Buffer {
  const int = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
  const number = Buffer.alloc(8);
  number.writeDoubleLE(1);
  return Buffer.concat([
    Buffer.from([0x1b, 0x4c, 0x75, 0x61, 0x51, 0x00, 0x01, 0x04, 0x08, 0x04, 0x08, 0x00]),
    Buffer.alloc(8), // source: size_t 0 (none)
    int(0), int(0), // linedefined, lastlinedefined
    Buffer.from([0, 0, 2, 2]), // upvalues, parameters, is_vararg, maxstacksize
    int(3), int(0x00000001), int(0x0100001e), int(0x0080001e),
    int(1), Buffer.from([3]), number, // one constant: the number 1
    int(0), // prototypes
    int(0), int(0), int(0), // line info, locals, upvalue names
  ]);
}

describe('the instance as deployed', () => {
  test('runs its engine in managed mode', async () => {
    expect(await asCustomer('CONFIG', 'GET', 'managed')).toEqual(['managed', 'yes']);
  });
});

describe('Lua bytecode', () => {
  test('the issue\'s probe: loadstring is not there, nor load, nor string.dump', async () => {
    expect(await asCustomer('EVAL', 'return type(loadstring(string.dump(function() return 1 end)))', '0')).toBe(
      "error: ERR user_script:1: Script attempted to access nonexistent global variable 'loadstring'",
    );
    expect(await asCustomer('EVAL', 'return type(load)', '0')).toBe("error: ERR user_script:1: Script attempted to access nonexistent global variable 'load'");
    expect(await asCustomer('EVAL', 'return type(string.dump)', '0')).toBe('nil');
  });

  test('a binary chunk is refused by EVAL, SCRIPT LOAD and FUNCTION LOAD, and never registered', async () => {
    const chunk = bytecodeReturningOne();
    expect(await asCustomer('EVAL', chunk, '0')).toBe('error: ERR Error compiling script (new function): user_script: binary chunks are refused, scripts are Lua source text');
    expect(await asCustomer('SCRIPT', 'LOAD', chunk)).toBe('error: ERR Error compiling script (new function): user_script: binary chunks are refused, scripts are Lua source text');
    expect(await asCustomer('FUNCTION', 'LOAD', Buffer.concat([Buffer.from('#!lua name=bytecode\n'), chunk]))).toBe(
      'error: ERR Error registering functions: binary chunks are refused, libraries are Lua source text',
    );
    // Not registered: a text library of that name loads without REPLACE.
    expect(await asCustomer('FUNCTION', 'LOAD', "#!lua name=bytecode\nredis.register_function('bytecode', function() return 2 end)")).toBe('bytecode');
  });
});

describe("the globals' guard", () => {
  test.each([
    'setmetatable(_G, nil)',
    'setmetatable(_G, {})',
    'local g = getmetatable(_G); g.__newindex = nil',
    "rawset(_G, 'loadstring', 1)",
    "rawset(string, 'format', 1)",
    "rawset(redis, 'call', 1)",
    "string.format = function() return 'forged' end",
    'redis.call = function() return 1 end',
    'cjson.encode = 1',
    'table.insert = 1',
    "getmetatable('').__index = {}",
    'setmetatable(string, nil)',
    '_G = {}',
  ])('%s is refused', async (trick) => {
    expect(await asCustomer('EVAL', trick, '0')).toBe('error: ERR user_script:1: Attempt to modify a readonly table');
  });

  test('holds after every trick: the libraries are the originals and no global was added', async () => {
    expect(await asCustomer('EVAL', "return string.format('%d-%s', 7, cjson.encode({1}))", '0')).toBe('7-[1]');
    expect(await asCustomer('EVAL', 'return tostring(rawget(_G, "loadstring"))', '0')).toBe('nil');
    expect(await asCustomer('EVAL', "return redis.call('PING')", '0')).toBe('PONG');
  });
});

describe('replication to where the customer says', () => {
  test('REPLICAOF and SLAVEOF to a listener are refused, and nothing arrives at it', async () => {
    const arrived: string[] = [];
    const listener = net.createServer((socket) => {
      socket.on('data', (data) => arrived.push(data.toString('latin1')));
      arrived.push('connection');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = String((listener.address() as net.AddressInfo).port);
    try {
      // The issue's chain: the auth settings first (a file's first line as the password), then the replica's connection.
      expect(await asCustomer('CONFIG', 'SET', 'masteruser', 'x')).toMatch(new RegExp(`^${refused('CONFIG SET')}'masteruser' is set by the platform`));
      expect(await asCustomer('CONFIG', 'SET', 'masterauth-file', '/etc/passwd')).toMatch(new RegExp(`^${refused('CONFIG SET')}'masterauth-file' is set by the platform`));
      expect(await asCustomer('REPLICAOF', '127.0.0.1', port)).toMatch(new RegExp(`^${refused('REPLICAOF')}.*failover`));
      expect(await asCustomer('SLAVEOF', '127.0.0.1', port)).toMatch(new RegExp(`^${refused('SLAVEOF')}`));
      // Nor from a script (REPLICAOF is a no-script command there, as in Redis).
      expect(await asCustomer('EVAL', `return redis.call('REPLICAOF', '127.0.0.1', '${port}')`, '0')).toMatch(/^error: ERR /);
      // A replica connects at once; give it a while.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(arrived).toEqual([]);
      expect(String(await asCustomer('INFO', 'replication'))).toMatch(/role:master/);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  test('PSYNC and REPLCONF, a replica\'s side of the stream, are refused too', async () => {
    expect(await asCustomer('PSYNC', '?', '-1')).toMatch(new RegExp(`^${refused('PSYNC')}`));
    expect(await asCustomer('REPLCONF', 'listening-port', '1')).toMatch(new RegExp(`^${refused('REPLCONF')}`));
  });

  test("BACKUP, the raw log, is the control plane's alone: refused to the customer's admin user, naming the backup routes", async () => {
    for (const command of [['SEGMENTS'], ['READ', '1', '0', '16'], ['ARCHIVED', '1'], ['BASE'], ['HELP']]) {
      expect(await asCustomer('BACKUP', ...command)).toMatch(new RegExp(`^${refused(`BACKUP ${command[0]}`)}.*POST /v1/projects/\\{project\\}/instances/\\{instance\\}/backups`));
    }
  });
});

describe('CONFIG', () => {
  test('CONFIG SET of every parameter CONFIG GET lists is refused, and none changes', async () => {
    const before = (await asCustomer('CONFIG', 'GET', '*')) as string[];
    expect(before.length).toBeGreaterThan(20);
    for (let i = 0; i < before.length; i += 2) {
      const [name, value] = [before[i]!, before[i + 1]!];
      expect(await asCustomer('CONFIG', 'SET', name, value), name).toMatch(new RegExp(`^${refused('CONFIG SET')}`));
    }
    expect(await asCustomer('CONFIG', 'GET', '*')).toEqual(before);
  });

  test("the refusal names the API's parameter for the settings the API changes", async () => {
    const instancePathText = '/v1/projects/{project}/instances/{instance}';
    expect(await asCustomer('CONFIG', 'SET', 'maxclients', '5')).toBe(`${refused('CONFIG SET')}settings change through the API: PATCH ${instancePathText} with {"parameters":{"maxclients":...}}`);
    expect(await asCustomer('CONFIG', 'SET', 'appendfsync', 'no')).toBe(`${refused('CONFIG SET')}settings change through the API: PATCH ${instancePathText} with {"parameters":{"fsync":...}}`);
    expect(await asCustomer('CONFIG', 'SET', 'timeout', '1')).toBe(`${refused('CONFIG SET')}settings change through the API: PATCH ${instancePathText} with {"parameters":{"timeout":...}}`);
    expect(await asCustomer('CONFIG', 'SET', 'requirepass', 'x')).toBe(`${refused('CONFIG SET')}settings change through the API: POST ${instancePathText}/users/default/reset-password`);
    expect(await asCustomer('CONFIG', 'RESETSTAT')).toMatch(new RegExp(`^${refused('CONFIG RESETSTAT')}`));
  });

  test("the control plane's own user still changes a setting: PATCH parameters reaches the engine", async () => {
    const patched = await platform.client.PATCH('/v1/projects/{project}/instances/{instance}', {
      params: { path: instancePath(platform, instance) },
      body: { parameters: { maxclients: 321 } },
    });
    expect(patched.response.status, JSON.stringify(patched.error)).toBe(202);
    const done = await platform.waitForOperation(patched.data!.operation!.id, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(await asCustomer('CONFIG', 'GET', 'maxclients')).toEqual(['maxclients', '321']);
  });
});

describe('ACL', () => {
  test.each(['SETUSER eve on nopass ~* +@all', 'DELUSER default', 'GETUSER basalt:control-plane', 'LIST', 'USERS', 'LOAD', 'SAVE'])('ACL %s is refused', async (line) => {
    const [subcommand, ...args] = line.split(' ') as [string, ...string[]];
    expect(await asCustomer('ACL', subcommand, ...args)).toMatch(new RegExp(`^${refused(`ACL ${subcommand}`)}.*(/users|ACL WHOAMI)`));
  });

  test('no user was made, and ACL WHOAMI and ACL CAT still answer', async () => {
    expect(await commandAs(endpoint, { username: 'eve', password: 'anything' }, 'PING')).toMatch(/WRONGPASS/);
    expect(await asCustomer('ACL', 'WHOAMI')).toBe('default');
    expect(await asCustomer('ACL', 'CAT')).toEqual(expect.arrayContaining(['keyspace', 'read', 'write']));
  });
});

describe('DEBUG', () => {
  // Every DEBUG subcommand the engine has (engine/server/src/cmd/debug_*.rs).
  test.each([
    ['SLEEP', '5'],
    ['OBJECT', 'greeting'],
    ['RELOAD'],
    ['LOG', 'x'],
    ['DIGEST-VALUE', 'greeting'],
    ['SET-ACTIVE-EXPIRE', '0'],
    ['QUICKLIST-PACKED-THRESHOLD', '100'],
    ['HELP'],
  ])('DEBUG %s is refused at once', async (...args) => {
    const started = Date.now();
    expect(await asCustomer('DEBUG', ...args)).toMatch(new RegExp(`^${refused(`DEBUG ${args[0]}`)}.*SLOWLOG`));
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  test('SHUTDOWN is refused and the instance still answers', async () => {
    expect(await asCustomer('SHUTDOWN', 'NOSAVE')).toMatch(new RegExp(`^${refused('SHUTDOWN')}.*restart`));
    expect(await asCustomer('PING')).toBe('PONG');
  });
});

describe('what a customer uses', () => {
  test('SET/GET, a text script, a text library, MULTI, INFO, SLOWLOG, CLIENT LIST and CONFIG GET work', async () => {
    expect(await asCustomer('SET', 'greeting', 'hello')).toBe('OK');
    expect(await asCustomer('GET', 'greeting')).toBe('hello');
    expect(await asCustomer('EVAL', "return redis.call('GET', KEYS[1]) .. ARGV[1]", '1', 'greeting', '!')).toBe('hello!');
    expect(await asCustomer('FUNCTION', 'LOAD', 'REPLACE', "#!lua name=greet\nredis.register_function('greet', function(keys) return redis.call('GET', keys[1]) end)")).toBe('greet');
    expect(await asCustomer('FCALL', 'greet', '1', 'greeting')).toBe('hello');
    expect(String(await asCustomer('INFO', 'server'))).toMatch(/# Server/);
    expect(Array.isArray(await asCustomer('SLOWLOG', 'GET'))).toBe(true);
    expect(String(await asCustomer('CLIENT', 'LIST'))).toMatch(/cmd=client/);
    expect(await asCustomer('CONFIG', 'GET', 'appendfsync')).toEqual(['appendfsync', expect.stringMatching(/^(always|everysec|no)$/)]);
  });
});

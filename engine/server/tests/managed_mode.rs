//! Managed mode (issue 43) at the wire: each platform command refused to a customer `admin`
//! user (`~* &* +@all`) with the `-ERR` naming what to use instead, and run for the control
//! plane's user; an unmanaged server unchanged; the Lua sandbox (bytecode, globals' guard,
//! binary chunks, memory).

mod security_support;
use security_support::{start, TempDir};

fn users_file(dir: &TempDir) -> String {
    let hash = |p: &str| basalt_server::acl::hash::hash_password(p.as_bytes());
    let file = dir.0.join("users.acl");
    std::fs::write(
        &file,
        format!(
            "user default on #{} ~* &* +@all\nuser app on #{} ~* &* +@all\nuser basalt:control-plane on #{} ~* &* +@all\n",
            hash("admin-pw"),
            hash("app-pw"),
            hash("control-pw")
        ),
    )
    .unwrap();
    file.to_str().unwrap().to_string()
}

/// Each platform command with its exact refusal (commands that would stop or stall the server
/// are sent only to customers).
const REFUSED: &[(&[&str], &str)] = &[
    (&["REPLICAOF", "127.0.0.1", "1"], "-ERR REPLICAOF is not available on a managed instance: replication is the platform's: create a standard instance (POST /v1/projects/{project}/instances) for replicas, fail over with POST /v1/projects/{project}/instances/{instance}/failover\r\n"),
    (&["SLAVEOF", "NO", "ONE"], "-ERR SLAVEOF is not available on a managed instance: replication is the platform's: create a standard instance (POST /v1/projects/{project}/instances) for replicas, fail over with POST /v1/projects/{project}/instances/{instance}/failover\r\n"),
    (&["PSYNC", "?", "-1"], "-ERR PSYNC is not available on a managed instance: only the instance's own replicas stream from it; create a standard instance for replicas\r\n"),
    (&["REPLCONF", "listening-port", "1"], "-ERR REPLCONF is not available on a managed instance: only the instance's own replicas stream from it; create a standard instance for replicas\r\n"),
    (&["DEBUG", "SLEEP", "0"], "-ERR DEBUG SLEEP is not available on a managed instance: DEBUG is the platform's; slow commands show in SLOWLOG GET and GET /v1/projects/{project}/instances/{instance}/slowlog\r\n"),
    // The subcommands Redis' own scripting tests use (cmd/debug_protocol.rs,
    // cmd/debug_set_disable_deny_scripts.rs) are the platform's like the rest of DEBUG.
    (&["DEBUG", "PROTOCOL", "string"], "-ERR DEBUG PROTOCOL is not available on a managed instance: DEBUG is the platform's; slow commands show in SLOWLOG GET and GET /v1/projects/{project}/instances/{instance}/slowlog\r\n"),
    (&["DEBUG", "SET-DISABLE-DENY-SCRIPTS", "1"], "-ERR DEBUG SET-DISABLE-DENY-SCRIPTS is not available on a managed instance: DEBUG is the platform's; slow commands show in SLOWLOG GET and GET /v1/projects/{project}/instances/{instance}/slowlog\r\n"),
    (&["SHUTDOWN", "NOSAVE"], "-ERR SHUTDOWN is not available on a managed instance: restart the instance with POST /v1/projects/{project}/instances/{instance}/restart\r\n"),
    (&["CONFIG", "SET", "maxclients", "5"], "-ERR CONFIG SET is not available on a managed instance: settings change through the API: PATCH /v1/projects/{project}/instances/{instance} with {\"parameters\":{\"maxclients\":...}}\r\n"),
    (&["CONFIG", "SET", "masterauth-file", "/etc/passwd"], "-ERR CONFIG SET is not available on a managed instance: 'masterauth-file' is set by the platform; settings change through the API: PATCH /v1/projects/{project}/instances/{instance} with parameters (fsync, maxclients, timeout, replication_mode)\r\n"),
    (&["CONFIG", "SET", "masteruser", "x"], "-ERR CONFIG SET is not available on a managed instance: 'masteruser' is set by the platform; settings change through the API: PATCH /v1/projects/{project}/instances/{instance} with parameters (fsync, maxclients, timeout, replication_mode)\r\n"),
    (&["CONFIG", "RESETSTAT"], "-ERR CONFIG RESETSTAT is not available on a managed instance: the platform's monitoring reads these counters; see GET /v1/projects/{project}/instances/{instance}/metrics\r\n"),
    (&["ACL", "SETUSER", "eve", "on", "nopass", "+@all"], "-ERR ACL SETUSER is not available on a managed instance: users change through the API: POST /v1/projects/{project}/instances/{instance}/users, PATCH .../users/{username}\r\n"),
    (&["ACL", "DELUSER", "app"], "-ERR ACL DELUSER is not available on a managed instance: users change through the API: DELETE /v1/projects/{project}/instances/{instance}/users/{username}\r\n"),
    (&["ACL", "GETUSER", "app"], "-ERR ACL GETUSER is not available on a managed instance: users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own\r\n"),
    (&["ACL", "LIST"], "-ERR ACL LIST is not available on a managed instance: users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own\r\n"),
    (&["ACL", "USERS"], "-ERR ACL USERS is not available on a managed instance: users and their permissions are listed by GET /v1/projects/{project}/instances/{instance}/users; ACL WHOAMI names your own\r\n"),
    (&["ACL", "LOAD"], "-ERR ACL LOAD is not available on a managed instance: the users file is the platform's: users change through the API (POST /v1/projects/{project}/instances/{instance}/users)\r\n"),
    (&["ACL", "SAVE"], "-ERR ACL SAVE is not available on a managed instance: the users file is the platform's: users change through the API (POST /v1/projects/{project}/instances/{instance}/users)\r\n"),
];

#[tokio::test]
async fn platform_commands_are_refused_to_customers_and_run_for_the_control_plane() {
    let dir = TempDir::new("managed-mode");
    let file = users_file(&dir);
    let server = start(&dir, &[("users-file", &file), ("managed", "yes")]).await;
    for (user, password) in [("default", "admin-pw"), ("app", "app-pw")] {
        let mut c = server.client().await;
        assert_eq!(c.call(&["AUTH", user, password]).await, "+OK\r\n");
        for (command, refusal) in REFUSED {
            assert_eq!(c.call(command).await, *refusal, "{user}: {command:?}");
        }
        // A MULTI with one of them is refused at EXEC.
        assert_eq!(c.call(&["MULTI"]).await, "+OK\r\n");
        assert!(c.call(&["DEBUG", "SLEEP", "0"]).await.starts_with("-ERR DEBUG SLEEP is not available"));
        assert!(c.call(&["EXEC"]).await.starts_with("-EXECABORT"));
        // What customers keep.
        assert_eq!(c.call(&["ACL", "WHOAMI"]).await, format!("${}\r\n{user}\r\n", user.len()));
        assert!(c.call(&["ACL", "CAT"]).await.starts_with('*'));
        assert_eq!(c.call(&["CONFIG", "GET", "maxclients"]).await, "*2\r\n$10\r\nmaxclients\r\n$5\r\n10000\r\n");
        assert_eq!(c.call(&["CONFIG", "GET", "managed"]).await, "*2\r\n$7\r\nmanaged\r\n$3\r\nyes\r\n");
        assert!(c.call(&["INFO", "server"]).await.starts_with('$'));
        assert!(c.call(&["SLOWLOG", "GET"]).await.starts_with('*'));
        assert!(c.call(&["CLIENT", "LIST"]).await.starts_with('$'));
        assert_eq!(c.call(&["WAIT", "0", "0"]).await, ":0\r\n");
    }
    let mut control = server.client().await;
    assert_eq!(control.call(&["AUTH", "basalt:control-plane", "control-pw"]).await, "+OK\r\n");
    assert_eq!(control.call(&["CONFIG", "SET", "maxclients", "500"]).await, "+OK\r\n");
    assert_eq!(control.call(&["CONFIG", "RESETSTAT"]).await, "+OK\r\n");
    assert_eq!(control.call(&["DEBUG", "SLEEP", "0"]).await, "+OK\r\n");
    assert_eq!(control.call(&["DEBUG", "PROTOCOL", "string"]).await, "$11\r\nHello World\r\n");
    assert_eq!(control.call(&["ACL", "LOAD"]).await, "+OK\r\n");
    assert_eq!(control.call(&["ACL", "SAVE"]).await, "+OK\r\n");
    assert!(control.call(&["ACL", "LIST"]).await.starts_with('*'));
    assert!(control.call(&["ACL", "GETUSER", "app"]).await.starts_with('*'));
    assert_eq!(control.call(&["ACL", "SETUSER", "eve", "on", "nopass", "+@all"]).await, "+OK\r\n");
    assert_eq!(control.call(&["ACL", "DELUSER", "eve"]).await, ":1\r\n");
    assert_eq!(control.call(&["REPLICAOF", "NO", "ONE"]).await, "+OK\r\n");
    server.stop().await;
}

#[tokio::test]
async fn an_unmanaged_server_runs_them_for_an_admin_user() {
    let dir = TempDir::new("unmanaged-mode");
    let file = users_file(&dir);
    let server = start(&dir, &[("users-file", &file)]).await;
    let mut c = server.client().await;
    assert_eq!(c.call(&["AUTH", "admin-pw"]).await, "+OK\r\n");
    assert_eq!(c.call(&["CONFIG", "SET", "maxclients", "500"]).await, "+OK\r\n");
    assert_eq!(c.call(&["CONFIG", "GET", "managed"]).await, "*2\r\n$7\r\nmanaged\r\n$2\r\nno\r\n");
    assert_eq!(c.call(&["DEBUG", "SLEEP", "0"]).await, "+OK\r\n");
    assert_eq!(c.call(&["ACL", "SETUSER", "eve", "on", "nopass", "+@all"]).await, "+OK\r\n");
    assert_eq!(c.call(&["ACL", "DELUSER", "eve"]).await, ":1\r\n");
    assert_eq!(c.call(&["REPLICAOF", "NO", "ONE"]).await, "+OK\r\n");
    server.stop().await;
}

#[tokio::test]
async fn lua_is_sandboxed_as_redis_7_does_it() {
    let dir = TempDir::new("lua-sandbox");
    let server = start(&dir, &[]).await;
    let mut c = server.client().await;
    assert_eq!(
        c.call(&eval_args("return type(loadstring(string.dump(function() return 1 end)))")).await,
        "-ERR user_script:1: Script attempted to access nonexistent global variable 'loadstring'\r\n"
    );
    for name in ["load", "dofile", "loadfile", "print", "setfenv", "getfenv", "newproxy"] {
        assert_eq!(
            c.call(&eval_args(&format!("return {name}"))).await,
            format!("-ERR user_script:1: Script attempted to access nonexistent global variable '{name}'\r\n")
        );
    }
    assert_eq!(c.call(&eval_args("return type(string.dump)")).await, "$3\r\nnil\r\n");
    let readonly = "-ERR user_script:1: Attempt to modify a readonly table\r\n";
    for trick in [
        "setmetatable(_G, nil)",
        "setmetatable(_G, {})",
        "local g = getmetatable(_G); g.__index = {}",
        "local g = getmetatable(_G); g.__newindex = nil",
        "rawset(_G, 'loadstring', 1)",
        "_G = {}",
        "redis = 1",
        "x = 1",
        "redis.call = function() return 1 end",
        "rawset(redis, 'call', 1)",
        "string.dump = function() end",
        "cjson.encode = 1",
        "cmsgpack.pack = 1",
        "bit.lshift = 1",
        "table.insert = 1",
        "math.random = 1",
        "getmetatable('').__index = {}",
        "setmetatable(string, nil)",
    ] {
        assert_eq!(c.call(&eval_args(trick)).await, readonly, "{trick}");
    }
    // The guard still holds after every trick, and the libraries work.
    assert_eq!(c.call(&eval_args("return y")).await, "-ERR user_script:1: Script attempted to access nonexistent global variable 'y'\r\n");
    assert_eq!(c.call(&eval_args("return ('abc'):upper() .. cjson.encode({1})")).await, "$6\r\nABC[1]\r\n");
    // A binary chunk is refused by EVAL, SCRIPT LOAD and FUNCTION LOAD.
    let chunk = "\x1bLuaQ\x00\x01\x04\x08\x04\x08\x00";
    let binary = "-ERR Error compiling script (new function): user_script: binary chunks are refused, scripts are Lua source text\r\n";
    assert_eq!(c.call(&["EVAL", chunk, "0"]).await, binary);
    assert_eq!(c.call(&["SCRIPT", "LOAD", chunk]).await, binary);
    assert_eq!(
        c.call(&["FUNCTION", "LOAD", &format!("#!lua name=bin\n{chunk}")]).await,
        "-ERR Error registering functions: binary chunks are refused, libraries are Lua source text\r\n"
    );
    // A script past the memory bound fails; the server and the next script go on.
    assert_eq!(c.call(&eval_args("return #string.rep('x', 2000 * 1024 * 1024)")).await, "-ERR not enough memory\r\n");
    assert_eq!(
        c.call(&eval_args("local t = {} local s = string.rep('x', 1024 * 1024) for i = 1, 5000 do t[i] = s .. i end return #t")).await,
        "-ERR not enough memory\r\n"
    );
    assert_eq!(c.call(&eval_args("return 1")).await, ":1\r\n");
    assert_eq!(c.call(&["PING"]).await, "+PONG\r\n");
    server.stop().await;
}

fn eval_args(script: &str) -> [&str; 3] {
    ["EVAL", script, "0"]
}

//! Users and permissions at the wire: AUTH and HELLO AUTH, -WRONGPASS, -NOPERM for a
//! read-only user, key patterns, two-password rotation, the ACL subcommands, and the users
//! file across a restart (the recovery scenario of this file).

mod security_support;

use security_support::{start, TempDir};

const NOPERM_SET: &str = "-NOPERM User reader has no permissions to run the 'set' command\r\n";
const WRONGPASS: &str = "-WRONGPASS invalid username-password pair or user is disabled.\r\n";

#[tokio::test]
async fn requirepass_and_read_only_user() {
    let dir = TempDir::new("acl");
    let server = start(&dir, &[("requirepass", "s3cret")]).await;
    let mut c = server.client().await;
    assert_eq!(c.call(&["GET", "k"]).await, "-NOAUTH Authentication required.\r\n");
    assert_eq!(c.call(&["AUTH", "wrong"]).await, WRONGPASS);
    assert_eq!(c.call(&["AUTH", "s3cret"]).await, "+OK\r\n");
    assert_eq!(c.call(&["SET", "k", "v"]).await, "+OK\r\n");
    assert_eq!(c.call(&["ACL", "SETUSER", "reader", "on", ">rpw", "~*", "+@read", "+@connection", "+acl|whoami"]).await, "+OK\r\n");
    assert_eq!(c.call(&["ACL", "WHOAMI"]).await, "$7\r\ndefault\r\n");

    let mut r = server.client().await;
    assert_eq!(r.call(&["AUTH", "reader", "nope"]).await, WRONGPASS);
    assert_eq!(r.call(&["AUTH", "reader", "rpw"]).await, "+OK\r\n");
    assert_eq!(r.call(&["GET", "k"]).await, "$1\r\nv\r\n");
    assert_eq!(r.call(&["SET", "k", "x"]).await, NOPERM_SET);
    // SORT ... GET reads keys its arguments do not name: only for a user with every key.
    assert_eq!(c.call(&["ACL", "SETUSER", "few", "on", ">fpw", "~s*", "+@all"]).await, "+OK\r\n");
    let mut few = server.client().await;
    assert_eq!(few.call(&["AUTH", "few", "fpw"]).await, "+OK\r\n");
    assert_eq!(few.call(&["SORT", "s", "GET", "w_*"]).await, "-ERR GET option of SORT denied due to insufficient ACL permissions.\r\n");
    assert_eq!(c.call(&["SORT", "s", "GET", "#"]).await, "*0\r\n");
    assert_eq!(r.call(&["ACL", "WHOAMI"]).await, "$6\r\nreader\r\n");
    assert_eq!(
        r.call(&["ACL", "SETUSER", "reader", "+@all"]).await,
        "-NOPERM User reader has no permissions to run the 'acl|setuser' command\r\n"
    );
    // HELLO 3 AUTH switches user and protocol at once.
    let mut h = server.client().await;
    let hello = h.call(&["HELLO", "3", "AUTH", "reader", "rpw"]).await;
    assert!(hello.starts_with("%7\r\n"), "{hello}");
    assert_eq!(h.call(&["SET", "k", "x"]).await, NOPERM_SET);
    assert_eq!(h.call(&["HELLO", "3", "AUTH", "reader", "bad"]).await, WRONGPASS);
    server.stop().await;
}

#[tokio::test]
async fn key_patterns_and_categories() {
    let dir = TempDir::new("acl-keys");
    let server = start(&dir, &[]).await;
    let mut admin = server.client().await;
    assert_eq!(admin.call(&["ACL", "SETUSER", "app", "on", ">pw", "~app:*", "+@all", "-flushall"]).await, "+OK\r\n");
    let mut app = server.client().await;
    assert_eq!(app.call(&["AUTH", "app", "pw"]).await, "+OK\r\n");
    assert_eq!(app.call(&["SET", "app:1", "v"]).await, "+OK\r\n");
    assert_eq!(app.call(&["SET", "other", "v"]).await, "-NOPERM No permissions to access a key\r\n");
    assert_eq!(app.call(&["MSET", "app:2", "a", "other", "b"]).await, "-NOPERM No permissions to access a key\r\n");
    assert_eq!(app.call(&["MGET", "app:1", "app:2"]).await, "*2\r\n$1\r\nv\r\n$-1\r\n");
    assert_eq!(app.call(&["FLUSHALL"]).await, "-NOPERM User app has no permissions to run the 'flushall' command\r\n");
    // Bad rules are refused whole: nothing of the command applies.
    assert_eq!(
        admin.call(&["ACL", "SETUSER", "app", "-@all", "+nosuch"]).await,
        "-ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL\r\n"
    );
    assert_eq!(app.call(&["GET", "app:1"]).await, "$1\r\nv\r\n");
    // A deleted user's open connection is refused from then on.
    assert_eq!(admin.call(&["ACL", "DELUSER", "app", "ghost"]).await, ":1\r\n");
    assert_eq!(app.call(&["GET", "app:1"]).await, "-NOPERM User app is disabled or was deleted\r\n");
    assert_eq!(admin.call(&["ACL", "DELUSER", "default"]).await, "-ERR The 'default' user cannot be removed\r\n");
    assert_eq!(admin.call(&["ACL", "USERS"]).await, "*1\r\n$7\r\ndefault\r\n");
    let line = "user default on nopass ~* &* +@all";
    assert_eq!(admin.call(&["ACL", "LIST"]).await, format!("*1\r\n${}\r\n{line}\r\n", line.len()));
    let cats = admin.call(&["ACL", "CAT"]).await;
    assert!(cats.contains("$4\r\nread\r\n") && cats.contains("$5\r\nwrite\r\n"), "{cats}");
    let read = admin.call(&["ACL", "CAT", "read"]).await;
    assert!(read.contains("$3\r\nget\r\n") && !read.contains("$3\r\nset\r\n"), "{read}");
    assert_eq!(admin.call(&["ACL", "CAT", "nope"]).await, "-ERR Unknown category 'nope'\r\n");
    server.stop().await;
}

#[tokio::test]
async fn two_password_rotation_then_restart() {
    let dir = TempDir::new("acl-rotate");
    for round in 0..2 {
        let server = start(&dir, &[]).await;
        let mut admin = server.client().await;
        if round == 0 {
            assert_eq!(admin.call(&["ACL", "SETUSER", "svc", "on", ">old", "~*", "+@all"]).await, "+OK\r\n");
            let mut old = server.client().await;
            assert_eq!(old.call(&["AUTH", "svc", "old"]).await, "+OK\r\n");
            // Rotation: add the new password; both work.
            assert_eq!(admin.call(&["ACL", "SETUSER", "svc", ">new"]).await, "+OK\r\n");
            assert_eq!(
                admin.call(&["ACL", "SETUSER", "svc", ">third"]).await,
                "-ERR Error in ACL SETUSER modifier '>third': A user holds at most 2 passwords; remove one with '<password' or '!hash' first\r\n"
            );
            let mut again = server.client().await;
            assert_eq!(again.call(&["AUTH", "svc", "old"]).await, "+OK\r\n");
            let mut new = server.client().await;
            assert_eq!(new.call(&["AUTH", "svc", "new"]).await, "+OK\r\n");
            assert_eq!(old.call(&["SET", "a", "1"]).await, "+OK\r\n");
            // The old password goes: logging in with it fails, the new one works.
            assert_eq!(admin.call(&["ACL", "SETUSER", "svc", "<old"]).await, "+OK\r\n");
            let mut late = server.client().await;
            assert_eq!(late.call(&["AUTH", "svc", "old"]).await, WRONGPASS);
            assert_eq!(late.call(&["AUTH", "svc", "new"]).await, "+OK\r\n");
            let getuser = admin.call(&["ACL", "GETUSER", "svc"]).await;
            assert!(getuser.contains("passwords\r\n*1\r\n$64\r\n"), "{getuser}");
            assert_eq!(admin.call(&["ACL", "SETUSER", "default", "off"]).await, "+OK\r\n");
        } else {
            // After the restart: users come back from the users file, default stays off.
            assert_eq!(admin.call(&["PING"]).await, "-NOAUTH Authentication required.\r\n");
            assert_eq!(admin.call(&["AUTH", "svc", "old"]).await, WRONGPASS);
            assert_eq!(admin.call(&["AUTH", "svc", "new"]).await, "+OK\r\n");
            assert_eq!(admin.call(&["GET", "a"]).await, "$1\r\n1\r\n");
            let file = std::fs::read_to_string(dir.0.join("users.acl")).unwrap();
            assert!(file.contains("user svc on #") && !file.contains("new"), "{file}");
        }
        server.stop().await;
    }
}

#[tokio::test]
async fn users_file_option() {
    let dir = TempDir::new("acl-file");
    let file = dir.0.join("elsewhere").join("team.acl");
    let file_arg = file.to_str().unwrap().to_string();
    for round in 0..2 {
        let server = start(&dir, &[("users-file", &file_arg), ("requirepass", "first")]).await;
        let mut c = server.client().await;
        if round == 0 {
            assert_eq!(c.call(&["AUTH", "first"]).await, "+OK\r\n");
            assert_eq!(c.call(&["CONFIG", "GET", "aclfile"]).await, format!("*2\r\n$7\r\naclfile\r\n${}\r\n{file_arg}\r\n", file_arg.len()));
            assert_eq!(c.call(&["CONFIG", "SET", "requirepass", "second"]).await, "+OK\r\n");
            assert_eq!(c.call(&["CONFIG", "GET", "requirepass"]).await, "*2\r\n$11\r\nrequirepass\r\n$0\r\n\r\n");
        } else {
            // The file now defines `default` (password "second"), so --requirepass is ignored.
            assert_eq!(c.call(&["AUTH", "first"]).await, WRONGPASS);
            assert_eq!(c.call(&["AUTH", "second"]).await, "+OK\r\n");
        }
        server.stop().await;
    }
    assert!(file.exists() && !dir.0.join("users.acl").exists());
}

/// The control plane's user (`basalt:` prefix) comes only from the users file: an admin user
/// can neither change nor delete it, and it keeps working.
#[tokio::test]
async fn control_plane_user_is_out_of_reach_of_acl_commands() {
    let dir = TempDir::new("acl-reserved");
    let file = dir.0.join("users.acl");
    let hash = |p: &str| basalt_server::acl::hash::hash_password(p.as_bytes());
    std::fs::write(
        &file,
        format!(
            "user default on #{} ~* &* +@all\nuser basalt:control-plane on #{} resetkeys -@all +auth +ping +acl|load\n",
            hash("admin-pw"),
            hash("control-pw")
        ),
    )
    .unwrap();
    let file_arg = file.to_str().unwrap().to_string();
    let server = start(&dir, &[("users-file", &file_arg)]).await;
    let mut admin = server.client().await;
    assert_eq!(admin.call(&["AUTH", "admin-pw"]).await, "+OK\r\n");
    let refused = "-ERR The user 'basalt:control-plane' belongs to the control plane; only its users file changes it\r\n";
    assert_eq!(admin.call(&["ACL", "SETUSER", "basalt:control-plane", "+@all", "nopass"]).await, refused);
    assert_eq!(admin.call(&["ACL", "DELUSER", "basalt:control-plane"]).await, refused);
    assert_eq!(admin.call(&["ACL", "SETUSER", "basalt:other", "on", "nopass", "+@all"]).await, "-ERR The user 'basalt:other' belongs to the control plane; only its users file changes it\r\n");
    let mut control = server.client().await;
    assert_eq!(control.call(&["AUTH", "basalt:control-plane", "control-pw"]).await, "+OK\r\n");
    assert_eq!(control.call(&["ACL", "LOAD"]).await, "+OK\r\n");
    assert_eq!(
        control.call(&["SET", "k", "v"]).await,
        "-NOPERM User basalt:control-plane has no permissions to run the 'set' command\r\n"
    );
    server.stop().await;
}

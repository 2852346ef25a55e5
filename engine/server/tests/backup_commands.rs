//! BACKUP at the wire (issue 44): refused to every user outside `basalt:` (the server here is
//! not managed), each bad argument an `-ERR` and never a dropped connection; BASE's and
//! SEGMENTS' reply shapes; READ's bytes sealed with the backup key, opening only with the
//! segment id and offset they were read at; the settings in CONFIG GET and INFO.

mod security_support;
use security_support::{start, TempDir};

const KEY_HEX: &str = "0707070707070707070707070707070707070707070707070707070707070707";

fn users_file(dir: &TempDir) -> String {
    let hash = |p: &str| basalt_server::acl::hash::hash_password(p.as_bytes());
    let file = dir.0.join("users.acl");
    std::fs::write(
        &file,
        format!("user default on #{} ~* &* +@all\nuser basalt:control-plane on #{} ~* &* +@all\n", hash("admin-pw"), hash("control-pw")),
    )
    .unwrap();
    file.to_str().unwrap().to_string()
}

#[tokio::test]
async fn backup_commands_for_the_service_user_only_and_bounded() {
    let dir = TempDir::new("backup-commands");
    let users = users_file(&dir);
    let key = dir.0.join("backup.key");
    std::fs::write(&key, KEY_HEX).unwrap();
    let server = start(&dir, &[("users-file", &users), ("archive", "yes"), ("backup-key-file", key.to_str().unwrap()), ("fsync", "always")]).await;

    let mut customer = server.client().await;
    assert_eq!(customer.call(&["AUTH", "default", "admin-pw"]).await, "+OK\r\n");
    for command in [&["BACKUP", "SEGMENTS"][..], &["BACKUP", "READ", "1", "0", "10"], &["BACKUP", "ARCHIVED", "1"], &["BACKUP", "BASE"]] {
        let shown = format!("{} {}", command[0], command[1]);
        let expected = format!("-ERR {shown} is not available to this user: backups and point-in-time restores are the platform's: take one with POST /v1/projects/{{project}}/instances/{{instance}}/backups, restore into a new instance with POST /v1/projects/{{project}}/instances and restore_from\r\n");
        assert_eq!(customer.call(command).await, expected);
    }
    assert_eq!(customer.call(&["SET", "k", "v"]).await, "+OK\r\n");

    let mut c = server.client().await;
    assert_eq!(c.call(&["AUTH", "basalt:control-plane", "control-pw"]).await, "+OK\r\n");
    let bad: &[(&[&str], &str)] = &[
        (&["BACKUP", "READ", "0", "0", "1"], "-ERR segment id must be between 1 and 4294967295\r\n"),
        (&["BACKUP", "READ", "4294967296", "0", "1"], "-ERR segment id must be between 1 and 4294967295\r\n"),
        (&["BACKUP", "READ", "x", "0", "1"], "-ERR value is not an integer or out of range\r\n"),
        (&["BACKUP", "READ", "1", "-1", "1"], "-ERR offset must not be negative\r\n"),
        (&["BACKUP", "READ", "1", "0", "8388609"], "-ERR count must be between 0 and 8388608\r\n"),
        (&["BACKUP", "READ", "1", "0", "-5"], "-ERR count must be between 0 and 8388608\r\n"),
        (&["BACKUP", "READ", "1", "999999", "1"], "-ERR offset 999999 is past the "),
        (&["BACKUP", "READ", "77", "0", "1"], "-ERR no segment 77 to read\r\n"),
        (&["BACKUP", "READ", "1", "0"], "-ERR wrong number of arguments for 'backup|read' command\r\n"),
        (&["BACKUP", "ARCHIVED", "1"], "-ERR segment 1 is not sealed yet\r\n"),
        (&["BACKUP", "ARCHIVED", "9"], "-ERR no segment 9\r\n"),
        (&["BACKUP", "NOPE"], "-ERR unknown subcommand 'NOPE'. Try BACKUP HELP.\r\n"),
    ];
    for (command, expected) in bad {
        let reply = c.call(command).await;
        assert!(reply.starts_with(expected), "{command:?}: {reply:?}");
    }

    let base = c.call(&["BACKUP", "BASE"]).await;
    assert!(base.starts_with("*6\r\n$7\r\nend-lsn\r\n:1\r\n$11\r\nend-time-ms\r\n:"), "{base:?}");
    assert!(base.contains("$8\r\nsegments\r\n*1\r\n*16\r\n$2\r\nid\r\n:1\r\n$5\r\nbytes\r\n:"), "{base:?}");
    assert!(base.ends_with("$6\r\nsealed\r\n:0\r\n$8\r\narchived\r\n:0\r\n"), "{base:?}");
    let segments = c.call(&["BACKUP", "SEGMENTS"]).await;
    assert!(segments.starts_with("*1\r\n*16\r\n$2\r\nid\r\n:1\r\n"), "{segments:?}");

    // READ: the segment's bytes, sealed with the backup key and bound to (segment, offset).
    let file = std::fs::read(dir.0.join("wal-0000000001.log")).unwrap();
    let sealed = c.raw.call(&[b"BACKUP", b"READ", b"1", b"4", b"1000"]).await;
    let header_end = sealed.windows(2).position(|w| w == b"\r\n").unwrap() + 2;
    let mut body = sealed[header_end..sealed.len() - 2].to_vec();
    let cipher = basalt_storage::Cipher::new(&[7u8; 32]).unwrap();
    let aad = |id: u32, offset: u64| [&b"basalt-backup-v1"[..], &id.to_le_bytes(), &offset.to_le_bytes()].concat();
    assert!(cipher.open(&aad(1, 5), &mut body.clone()).is_err(), "opened at another offset");
    let plain = cipher.open(&aad(1, 4), &mut body).unwrap().to_vec();
    assert!(!plain.is_empty() && plain.len() < 1000);
    assert_eq!(plain, file[4..4 + plain.len()]);

    assert_eq!(c.call(&["CONFIG", "GET", "archive"]).await, "*2\r\n$7\r\narchive\r\n$3\r\nyes\r\n");
    assert_eq!(c.call(&["CONFIG", "GET", "backup-encryption"]).await, "*2\r\n$17\r\nbackup-encryption\r\n$3\r\nyes\r\n");
    assert!(c.call(&["CONFIG", "SET", "archive-seal-interval", "0"]).await.starts_with("-ERR CONFIG SET failed"));
    assert_eq!(c.call(&["CONFIG", "SET", "archive-seal-interval", "250"]).await, "+OK\r\n");
    let info = c.call(&["INFO", "persistence"]).await;
    for line in ["wal_format:2\r\n", "archive_enabled:1\r\n", "archive_seal_interval_ms:250\r\n", "archived_upto_segment:0\r\n", "recovery_target:none\r\n"] {
        assert!(info.contains(line), "{line:?} not in {info}");
    }
    assert_eq!(c.call(&["PING"]).await, "+PONG\r\n");
    server.stop().await;
}

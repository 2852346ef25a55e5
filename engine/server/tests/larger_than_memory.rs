//! A data set four times `maxmemory` loads through the server, every key reads back, memory
//! stays near the bound, and after a restart every key reads back again.

mod spawned;
use spawned::*;

const MAXMEMORY: u64 = 8 << 20;
const VALUE: usize = 4096;

fn value(n: usize) -> Vec<u8> {
    let mut v = format!("{n}:").into_bytes();
    v.resize(VALUE, b'a' + (n % 26) as u8);
    v
}

fn read_all_back(c: &mut Resp, n: usize, when: &str) {
    let keys: Vec<String> = (0..n).map(|i| format!("big:{i}")).collect();
    for (i, v) in c.get_many(&keys).into_iter().enumerate() {
        assert!(v.as_deref() == Some(&value(i)[..]), "{when}: big:{i} missing or wrong");
    }
    let used: u64 = c.info_field("memory", "used_memory").expect("INFO used_memory").parse().unwrap();
    assert!(used <= MAXMEMORY + MAXMEMORY / 8, "{when}: used_memory {used} far above maxmemory {MAXMEMORY}");
}

#[test]
fn four_times_maxmemory_loads_and_reads_back() {
    let dir = TempDir::new("ltm");
    let n = (4 * MAXMEMORY as usize) / VALUE;
    let flags = ["--fsync", "everysec", "--maxmemory", &MAXMEMORY.to_string()];
    {
        let engine = Engine::start(&dir.0, &flags);
        let mut c = engine.connect();
        for chunk in (0..n).collect::<Vec<_>>().chunks(64) {
            let mut out = Vec::new();
            for &i in chunk {
                encode(&[b"SET", format!("big:{i}").as_bytes(), &value(i)], &mut out);
            }
            c.send(&out).unwrap();
            for &i in chunk {
                assert_eq!(c.read().unwrap(), Reply::Status("OK".into()), "SET big:{i}");
            }
        }
        assert_eq!(c.cmd(&[b"DBSIZE"]), Reply::Int(n as i64));
        read_all_back(&mut c, n, "after load");
        // SHUTDOWN closes the connection without a reply, as in Redis.
        let mut out = Vec::new();
        encode(&[b"SHUTDOWN"], &mut out);
        c.send(&out).unwrap();
        let _ = c.read();
    }
    let engine = Engine::start(&dir.0, &flags);
    let mut c = engine.connect();
    assert_eq!(c.cmd(&[b"DBSIZE"]), Reply::Int(n as i64));
    read_all_back(&mut c, n, "after restart");
}

//! A damaged RDB is refused with the offset it went wrong at, never a panic: an RDB redis-server
//! 7.0 saved, with one byte changed here and there, cut short, mutated at random, and files
//! whose lengths lie. A failed import leaves the data dir empty.

mod common;

use basalt_rdb::{import, ImportOptions, Limits, RdbError, Reader};
use common::{fill, Redis, TempDir};

fn read_all(bytes: &[u8]) -> Result<usize, RdbError> {
    let mut r = Reader::new(bytes, Limits::default())?;
    let mut n = 0;
    while r.next_item()?.is_some() {
        n += 1;
    }
    Ok(n)
}

#[test]
fn damaged_and_truncated_rdbs_are_refused() {
    let tmp = TempDir::new("damaged");
    let redis = Redis::start(tmp.path(), "dump.rdb");
    let mut c = redis.conn();
    fill::fill(&mut c);
    c.ok(&["SAVE"]).unwrap();
    drop(redis);
    let good = std::fs::read(tmp.path().join("dump.rdb")).unwrap();
    let len = good.len();
    assert!(read_all(&good).unwrap() > 30);

    for at in [9, len / 7, len / 3, len / 2, 2 * len / 3, len - 9, len - 5, len - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x5a;
        let err = read_all(&bad).expect_err("a changed byte is noticed");
        let offset = err.offset().expect("the error names an offset");
        // The offset of the damaged item (a packed blob is named by where its key starts), or
        // of the checksum when what changed still parses.
        assert!(offset <= len as u64, "byte {at}: {err}");
        assert!(err.to_string().contains(&format!("offset {offset}")), "{err}");
    }

    for cut in [5, 9, 10, len / 2, len - 8, len - 1] {
        match read_all(&good[..cut]) {
            Err(RdbError::Truncated { offset, .. }) => assert_eq!(offset, cut as u64),
            other => panic!("cut at {cut}: {other:?}"),
        }
    }

    // Random damage: 300 files, each with a few bytes changed or cut short. Errors, no panic.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..300 {
        let mut bad = good.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() % len as u64) as usize;
            bad[at] = next() as u8;
        }
        if next() % 3 == 0 {
            bad.truncate((next() % len as u64) as usize);
        }
        if bad != good {
            assert!(read_all(&bad).is_err());
        }
    }

    // An import of a damaged file fails and leaves the (existing, empty) dir empty.
    let mut bad = good.clone();
    bad[len / 2] ^= 1;
    let damaged = tmp.path().join("damaged.rdb");
    std::fs::write(&damaged, &bad).unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let mut opts = ImportOptions::new(&damaged, &data);
    opts.skip_functions = true;
    let err = import(&opts).expect_err("damaged");
    assert!(err.to_string().contains("offset"), "{err}");
    assert_eq!(std::fs::read_dir(&data).unwrap().count(), 0);
}

#[test]
fn lying_lengths_are_errors_without_huge_allocations() {
    let header = b"REDIS0010".to_vec();
    let with = |tail: &[u8]| [header.clone(), tail.to_vec()].concat();
    // A key of 2^64-1 bytes; one of ~500 MB that is not there; a list of 2^40 elements.
    let cases: Vec<Vec<u8>> = vec![
        with(&[0, 0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
        with(&[0, 0x80, 0x1f, 0xff, 0xff, 0xff, b'k']),
        with(&[1, 1, b'k', 0x81, 0, 0, 1, 0, 0, 0, 0, 0, 1, b'a']),
        // LZF claiming 1 GiB from 1 byte.
        with(&[0, 1, b'k', 0xC3, 1, 0x80, 0x40, 0, 0, 0, 0]),
        // A stream with 2^32-1 nodes, a node key of 3 bytes.
        with(&[15, 1, b's', 0x80, 0xff, 0xff, 0xff, 0xff, 3, 1, 2, 3]),
        // An unknown type, a module type, a bad length byte.
        with(&[42, 1, b'k']),
        with(&[7, 1, b'k']),
        with(&[0, 0x82]),
        b"REDIS9999".to_vec(),
        b"NOTANRDB0".to_vec(),
    ];
    for case in cases {
        let err = read_all(&case).expect_err("refused");
        assert!(err.offset().is_some(), "{err}");
    }
    // The file limit holds for a stream of unknown length too.
    let mut big = with(&[0, 1, b'k', 0x80, 0, 0, 0x10, 0]);
    big.extend(std::iter::repeat(b'x').take(4096));
    let limits = Limits { max_file_bytes: 1024, ..Limits::default() };
    let mut r = Reader::new(big.as_slice(), limits).unwrap();
    assert!(matches!(r.next_item(), Err(RdbError::TooLarge { limit: 1024, .. })));
}

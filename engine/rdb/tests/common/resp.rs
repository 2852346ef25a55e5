//! A tiny blocking RESP2 client: send a command, read one reply.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

#[derive(Debug, Clone, PartialEq)]
pub enum Resp {
    Simple(String),
    Error(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
    Array(Option<Vec<Resp>>),
}

impl Resp {
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Resp::Bulk(Some(b)) => b.clone(),
            Resp::Simple(s) => s.as_bytes().to_vec(),
            Resp::Int(n) => n.to_string().into_bytes(),
            other => panic!("not a string reply: {other:?}"),
        }
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.bytes()).unwrap()
    }

    pub fn int(&self) -> i64 {
        match self {
            Resp::Int(n) => *n,
            other => other.text().parse().unwrap(),
        }
    }

    pub fn is_nil(&self) -> bool {
        matches!(self, Resp::Bulk(None) | Resp::Array(None))
    }

    pub fn items(&self) -> &[Resp] {
        match self {
            Resp::Array(Some(v)) => v,
            other => panic!("not an array reply: {other:?}"),
        }
    }

    /// A flat `[name, value, name, value...]` reply (XINFO) looked up by name.
    pub fn field(&self, name: &str) -> &Resp {
        let items = self.items();
        items
            .chunks_exact(2)
            .find(|p| p[0].bytes() == name.as_bytes())
            .map(|p| &p[1])
            .unwrap_or_else(|| panic!("no field {name} in {self:?}"))
    }
}

pub struct Conn(BufReader<TcpStream>);

impl Conn {
    pub fn new(stream: TcpStream) -> Conn {
        Conn(BufReader::new(stream))
    }

    pub fn cmd<A: AsRef<[u8]>>(&mut self, args: &[A]) -> Resp {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            let a = a.as_ref();
            out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            out.extend_from_slice(a);
            out.extend_from_slice(b"\r\n");
        }
        self.0.get_mut().write_all(&out).unwrap();
        self.read().unwrap()
    }

    /// A command that must not fail.
    pub fn ok<A: AsRef<[u8]>>(&mut self, args: &[A]) -> Result<Resp, String> {
        match self.cmd(args) {
            Resp::Error(e) => Err(e),
            r => Ok(r),
        }
    }

    fn read(&mut self) -> std::io::Result<Resp> {
        let mut line = Vec::new();
        self.0.read_until(b'\n', &mut line)?;
        if line.len() < 3 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed"));
        }
        let body = String::from_utf8_lossy(&line[1..line.len() - 2]).into_owned();
        Ok(match line[0] {
            b'+' => Resp::Simple(body),
            b'-' => Resp::Error(body),
            b':' => Resp::Int(body.parse().unwrap()),
            b'$' => {
                let n: i64 = body.parse().unwrap();
                if n < 0 {
                    Resp::Bulk(None)
                } else {
                    let mut buf = vec![0u8; n as usize + 2];
                    self.0.read_exact(&mut buf)?;
                    buf.truncate(n as usize);
                    Resp::Bulk(Some(buf))
                }
            }
            b'*' => {
                let n: i64 = body.parse().unwrap();
                if n < 0 {
                    Resp::Array(None)
                } else {
                    let mut items = Vec::with_capacity(n as usize);
                    for _ in 0..n {
                        items.push(self.read()?);
                    }
                    Resp::Array(Some(items))
                }
            }
            other => panic!("unexpected RESP type byte {other}"),
        })
    }
}

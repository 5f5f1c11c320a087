//! A loopback HTTP/1.1 server whose answers tests script byte for byte.
//!
//! Hand-written over `std::net` rather than a server framework on purpose:
//! tests need exact control of status lines, headers (`Retry-After`,
//! `Location`), hangs and malformed bodies. Each connection carries one
//! request and is then closed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A request as the server received it.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// `GET`, `POST`...
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query string (after `?`), empty when none.
    pub query: String,
    /// Header names and values as sent.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// A header's value (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The request target as sent: the path, then `?query` when there is one.
    pub fn target(&self) -> String {
        if self.query.is_empty() {
            self.path.clone()
        } else {
            format!("{}?{}", self.path, self.query)
        }
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// A query parameter's value (not percent-decoded).
    pub fn query_param(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// Status, headers, body.
    Http {
        /// Status code.
        status: u16,
        /// Headers besides `content-length` and `connection: close`.
        headers: Vec<(String, String)>,
        /// Body bytes.
        body: Vec<u8>,
    },
    /// Read the request and never answer (for `duration`).
    Hang(Duration),
}

impl Reply {
    /// A JSON answer.
    pub fn json(status: u16, body: &serde_json::Value) -> Reply {
        Reply::Http {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string().into_bytes(),
        }
    }

    /// An answer with this content type.
    pub fn typed(status: u16, content_type: &str, body: impl Into<String>) -> Reply {
        Reply::Http {
            status,
            headers: vec![("content-type".into(), content_type.into())],
            body: body.into().into_bytes(),
        }
    }

    /// A plain-text answer.
    pub fn text(status: u16, body: impl Into<String>) -> Reply {
        Reply::Http {
            status,
            headers: vec![("content-type".into(), "text/plain".into())],
            body: body.into().into_bytes(),
        }
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: impl Into<String>) -> Reply {
        Reply::Http {
            status,
            headers: vec![("location".into(), location.into())],
            body: vec![],
        }
    }

    /// The same answer with one more header.
    pub fn with_header(mut self, name: &str, value: impl Into<String>) -> Reply {
        if let Reply::Http { headers, .. } = &mut self {
            headers.push((name.to_string(), value.into()));
        }
        self
    }
}

type Handler = dyn Fn(&Request) -> Reply + Send + Sync;

/// A running server; it stops serving when dropped (its threads end with
/// the test process).
pub struct LoopbackServer {
    addr: SocketAddr,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl LoopbackServer {
    /// Serves every request with `handler`.
    pub fn start(handler: impl Fn(&Request) -> Reply + Send + Sync + 'static) -> LoopbackServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding a loopback port");
        let addr = listener.local_addr().expect("the loopback port");
        let seen: Arc<Mutex<Vec<Request>>> = Arc::default();
        let log = seen.clone();
        let handler: Arc<Handler> = Arc::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let log = log.clone();
                let handler = handler.clone();
                std::thread::spawn(move || serve(stream, &*handler, &log));
            }
        });
        LoopbackServer { addr, seen }
    }

    /// Serves `replies` in order, one per request; requests beyond them
    /// get status 599 (so an unexpected retry shows up).
    pub fn sequence(replies: Vec<Reply>) -> LoopbackServer {
        let queue = Mutex::new(replies.into_iter());
        LoopbackServer::start(move |_| {
            queue
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .next()
                .unwrap_or_else(|| Reply::text(599, "unexpected request"))
        })
    }

    /// The server's address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The requests received so far, in arrival order.
    pub fn requests(&self) -> Vec<Request> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The last request received (a default one when none).
    pub fn last(&self) -> Request {
        self.requests().pop().unwrap_or_default()
    }
}

fn serve(stream: TcpStream, handler: &Handler, log: &Mutex<Vec<Request>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut req = Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        ..Request::default()
    };
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap_or(0);
            }
            req.headers
                .push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let mut body = vec![0u8; len.min(64 << 20)];
    let _ = reader.read_exact(&mut body);
    req.body = body;
    let reply = handler(&req);
    log.lock().unwrap_or_else(|p| p.into_inner()).push(req);
    let mut stream = stream;
    match reply {
        Reply::Hang(d) => std::thread::sleep(d),
        Reply::Http {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            let _ = stream.flush();
        }
    }
}

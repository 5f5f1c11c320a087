//! Streamable HTTP (`ccos mcp serve --http ADDR`): the rmcp SDK's
//! `StreamableHttpService` (sessions, so approvals can be asked in the
//! middle of a run) on hyper, at `/mcp`.
//!
//! - A loopback address (127.0.0.0/8, ::1) is the default; only
//!   `Host: localhost|127.0.0.1|::1` is accepted there (DNS rebinding) and
//!   any browser `Origin` is refused.
//! - Any other address needs a bearer token: every request must carry
//!   `Authorization: Bearer TOKEN` or is answered 401. A token may be set
//!   on loopback too.
//! - Request bodies are bounded (4 MiB, the SDK's limit).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use ccos_world::World;
use http::{Request, Response, StatusCode};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use sha2::{Digest, Sha256};

use crate::server::{CcosServer, ServeError, ServeOptions, Shared, Stop, finish};

/// The path of the MCP endpoint.
pub const ENDPOINT: &str = "/mcp";

/// The shortest bearer token accepted.
pub const MIN_TOKEN_LEN: usize = 16;

/// True for loopback addresses (127.0.0.0/8, ::1, and ::ffff:127.x).
pub fn is_loopback(addr: &SocketAddr) -> bool {
    match addr.ip() {
        std::net::IpAddr::V4(v4) => v4.is_loopback(),
        std::net::IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    }
}

/// A bound HTTP listener, not serving yet (so the caller can print the
/// address, e.g. when the port was 0).
pub struct HttpServer {
    listener: std::net::TcpListener,
    addr: SocketAddr,
    token: Option<Arc<String>>,
}

impl HttpServer {
    /// Binds `addr`. A non-loopback address without a token is refused (a
    /// usage error); a token shorter than [`MIN_TOKEN_LEN`] too.
    pub fn bind(addr: SocketAddr, token: Option<String>) -> Result<HttpServer, ServeError> {
        if let Some(t) = &token
            && (t.len() < MIN_TOKEN_LEN || t.chars().any(|c| c.is_whitespace() || c.is_control()))
        {
            return Err(ServeError::Usage(format!(
                "the bearer token must be at least {MIN_TOKEN_LEN} characters, without spaces"
            )));
        }
        if !is_loopback(&addr) && token.is_none() {
            return Err(ServeError::Usage(format!(
                "refusing to serve on {addr} without a bearer token: anyone who can reach it could run plans; \
                 set one with --token-env VAR (or $CCOS_MCP_TOKEN), or serve on 127.0.0.1"
            )));
        }
        let listener = std::net::TcpListener::bind(addr)
            .map_err(|e| ServeError::Failed(format!("cannot listen on {addr}: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| ServeError::Failed(format!("cannot listen on {addr}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError::Failed(format!("cannot listen on {addr}: {e}")))?;
        Ok(HttpServer {
            listener,
            addr,
            token: token.map(Arc::new),
        })
    }

    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The endpoint's URL.
    pub fn url(&self) -> String {
        format!("http://{}{ENDPOINT}", self.addr)
    }

    /// Serves until `stop` fires, then waits (up to `drain`) for the
    /// operations still running.
    pub fn serve(
        self,
        world: Arc<World>,
        options: ServeOptions,
        stop: Stop,
        drain: Duration,
    ) -> Result<(), ServeError> {
        let loopback = is_loopback(&self.addr);
        let token = self.token.clone();
        let ct = stop.token();
        let mut config = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(true)
            .with_cancellation_token(ct.child_token());
        config = if loopback {
            config.enforce_origin_validation()
        } else {
            // Reached by name or address from elsewhere; the token guards it.
            config.disable_allowed_hosts()
        };
        let factory_world = world.clone();
        let shared = Shared::default();
        let factory_shared = shared.clone();
        let service = StreamableHttpService::new(
            move || {
                Ok(CcosServer::with_shared(
                    factory_world.clone(),
                    options.clone(),
                    factory_shared.clone(),
                ))
            },
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let listener = self.listener;
        let result = world.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener)
                .map_err(|e| ServeError::Failed(format!("listening: {e}")))?;
            loop {
                let (stream, _) = tokio::select! {
                    _ = ct.cancelled() => break,
                    accepted = listener.accept() => match accepted {
                        Ok(a) => a,
                        // Too many open files, a connection reset before
                        // accept: keep serving the others.
                        Err(_) => {
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            continue;
                        }
                    },
                };
                let service = service.clone();
                let token = token.clone();
                let conn_ct = ct.clone();
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(move |req: Request<Incoming>| {
                        let service = service.clone();
                        let token = token.clone();
                        async move { Ok::<_, Infallible>(handle(service, token, req).await) }
                    });
                    let conn = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler);
                    tokio::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        _ = conn_ct.cancelled() => conn.as_mut().graceful_shutdown(),
                    }
                });
            }
            Ok(())
        });
        finish(&world, &shared, drain);
        result
    }
}

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut r = Response::new(Full::new(Bytes::from(text.to_string())).boxed());
    *r.status_mut() = status;
    r.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}

/// Compares a presented token with the expected one in time independent
/// of where they differ (both hashed first, so lengths do not leak either).
fn token_matches(presented: &str, expected: &str) -> bool {
    let a = Sha256::digest(presented.as_bytes());
    let b = Sha256::digest(expected.as_bytes());
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

fn authorized(req: &Request<Incoming>, token: &str) -> bool {
    req.headers()
        .get_all(http::header::AUTHORIZATION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| {
            let (scheme, rest) = v.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
        })
        .any(|t| token_matches(t, token))
}

async fn handle<S, M>(
    service: StreamableHttpService<S, M>,
    token: Option<Arc<String>>,
    req: Request<Incoming>,
) -> Response<Body>
where
    S: rmcp::ServerHandler + Send + 'static,
    M: rmcp::transport::streamable_http_server::SessionManager,
{
    if let Some(t) = &token
        && !authorized(&req, t)
    {
        let mut r = plain(
            StatusCode::UNAUTHORIZED,
            "401 unauthorized: send Authorization: Bearer <token>\n",
        );
        r.headers_mut().insert(
            http::header::WWW_AUTHENTICATE,
            http::HeaderValue::from_static("Bearer realm=\"ccos\""),
        );
        return r;
    }
    if req.uri().path() != ENDPOINT {
        return plain(
            StatusCode::NOT_FOUND,
            "404 not found: the MCP endpoint is /mcp\n",
        );
    }
    service.handle(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_addresses_are_recognised() {
        for a in [
            "127.0.0.1:1",
            "127.3.4.5:1",
            "[::1]:1",
            "[::ffff:127.0.0.1]:1",
        ] {
            assert!(is_loopback(&a.parse().unwrap()), "{a}");
        }
        for a in ["0.0.0.0:1", "192.168.1.2:1", "[::]:1", "10.0.0.1:1"] {
            assert!(!is_loopback(&a.parse().unwrap()), "{a}");
        }
    }

    #[test]
    fn non_loopback_needs_a_token_and_tokens_are_long() {
        let e = HttpServer::bind("0.0.0.0:0".parse().unwrap(), None)
            .err()
            .unwrap();
        assert!(matches!(e, ServeError::Usage(_)), "{e}");
        assert!(e.to_string().contains("bearer token"), "{e}");
        let e = HttpServer::bind("127.0.0.1:0".parse().unwrap(), Some("short".into()))
            .err()
            .unwrap();
        assert!(matches!(e, ServeError::Usage(_)), "{e}");
        let s = HttpServer::bind("127.0.0.1:0".parse().unwrap(), None).unwrap();
        assert!(s.url().starts_with("http://127.0.0.1:") && s.url().ends_with("/mcp"));
    }

    #[test]
    fn tokens_compare_exactly() {
        assert!(token_matches("0123456789abcdef", "0123456789abcdef"));
        assert!(!token_matches("0123456789abcdeF", "0123456789abcdef"));
        assert!(!token_matches("0123456789abcde", "0123456789abcdef"));
        assert!(!token_matches("", "0123456789abcdef"));
    }
}

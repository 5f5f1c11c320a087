//! HTTP plumbing shared by the `ccos.http.*` built-ins and the OpenAPI
//! executor: a client with timeouts, capped body reads, and conversion of
//! responses to RTFS values.

use std::collections::BTreeMap;
use std::time::Duration;

/// Default total timeout of one request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
/// Default connect timeout.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest response body read (larger ones are an error, not truncated).
pub const MAX_RESPONSE_BYTES: usize = 16 * 1024 * 1024;

/// Most redirects followed for one request.
pub const MAX_REDIRECTS: usize = 5;

/// The hosts HTTP-performing capabilities may reach: `host` (any port) or
/// `host:port`, compared case-insensitively. Empty: nothing is reachable.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList {
    hosts: Vec<String>,
}

impl AllowList {
    /// An allow-list of these `host` / `host:port` entries.
    pub fn new<S: AsRef<str>>(hosts: &[S]) -> AllowList {
        AllowList {
            hosts: hosts
                .iter()
                .map(|h| h.as_ref().trim().to_ascii_lowercase())
                .filter(|h| !h.is_empty())
                .collect(),
        }
    }

    /// The entries, lower case.
    pub fn hosts(&self) -> &[String] {
        &self.hosts
    }

    /// `Ok` when `url` is `http`/`https` to an allowed host; otherwise why
    /// not, naming the host.
    pub fn check(&self, url: &reqwest::Url) -> Result<(), String> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!("unsupported URL scheme {}", url.scheme()));
        }
        let host = url.host_str().unwrap_or("").to_ascii_lowercase();
        let host_port = url.port_or_known_default().map(|p| format!("{host}:{p}"));
        let allowed = self
            .hosts
            .iter()
            .any(|h| *h == host || Some(h) == host_port.as_ref());
        if allowed {
            Ok(())
        } else {
            Err(format!(
                "host {} is not in the HTTP allow-list ({})",
                host_port.unwrap_or(host),
                if self.hosts.is_empty() {
                    "empty: set [http] allow_hosts in config.toml or the policy".to_string()
                } else {
                    self.hosts.join(", ")
                }
            ))
        }
    }
}

/// Why a request went nowhere or failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendError {
    /// A redirect led to a host the allow-list does not admit: the request
    /// was not sent there.
    Denied(String),
    /// Anything else (connection, timeout, a body too large).
    Failed(String),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Denied(m) | SendError::Failed(m) => f.write_str(m),
        }
    }
}

/// Marks a redirect refused by the allow-list, found again in reqwest's
/// error chain.
#[derive(Debug)]
struct RedirectDenied(String);

impl std::fmt::Display for RedirectDenied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RedirectDenied {}

/// The origin (`scheme://host:port`) requests to `url` go to, as the
/// redirect checks compare it; `None` when `url` does not parse.
pub fn origin(url: &str) -> Option<String> {
    let u = reqwest::Url::parse(url).ok()?;
    let o = u.origin();
    o.is_tuple().then(|| o.ascii_serialization())
}

/// Builds a client with the given total timeout whose redirects are each
/// checked against `allow` (at most [`MAX_REDIRECTS`]): a hop to a host
/// not allowed ends the request with [`SendError::Denied`] before anything
/// is sent to that host.
pub fn client(timeout: Duration, allow: &AllowList) -> Result<reqwest::Client, String> {
    client_with(timeout, allow, false)
}

/// [`client`] for a request that carries credentials: a redirect must also
/// keep the first URL's origin (scheme, host and port), so an API key in
/// a header of its own (which HTTP clients do not know to drop, unlike
/// `Authorization`) never follows a redirect to another service.
pub fn credentialed_client(
    timeout: Duration,
    allow: &AllowList,
) -> Result<reqwest::Client, String> {
    client_with(timeout, allow, true)
}

fn client_with(
    timeout: Duration,
    allow: &AllowList,
    same_origin: bool,
) -> Result<reqwest::Client, String> {
    let allow = allow.clone();
    let policy = reqwest::redirect::Policy::custom(move |attempt| {
        if attempt.previous().len() >= MAX_REDIRECTS {
            return attempt.error(RedirectDenied(format!(
                "more than {MAX_REDIRECTS} redirects"
            )));
        }
        if same_origin
            && let Some(first) = attempt.previous().first()
            && first.origin() != attempt.url().origin()
        {
            let msg = format!(
                "redirect to {} refused: the request carries credentials for {}",
                attempt.url(),
                first.origin().ascii_serialization()
            );
            return attempt.error(RedirectDenied(msg));
        }
        match allow.check(attempt.url()) {
            Ok(()) => attempt.follow(),
            Err(why) => {
                let msg = format!("redirect to {} refused: {why}", attempt.url());
                attempt.error(RedirectDenied(msg))
            }
        }
    });
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
        .redirect(policy)
        .user_agent(concat!("ccos/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("creating the HTTP client: {e}"))
}

/// A fully read response.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Headers, lower-case names; repeated headers joined with `, `.
    pub headers: BTreeMap<String, String>,
    /// The body bytes (at most `MAX_RESPONSE_BYTES`).
    pub body: Vec<u8>,
}

impl Response {
    /// The `content-type` header, if any.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get("content-type").map(String::as_str)
    }

    /// The body as an RTFS value: parsed JSON when the content type says
    /// JSON (or, with no content type, when it parses), else text.
    pub fn body_value(&self) -> rtfs::Value {
        let text = String::from_utf8_lossy(&self.body);
        let json_type = self
            .content_type()
            .map(|c| c.to_ascii_lowercase().contains("json"));
        if json_type != Some(false)
            && let Ok(j) = serde_json::from_str::<serde_json::Value>(&text)
        {
            return rtfs::from_json(&j);
        }
        rtfs::Value::string(&text)
    }

    /// The first `max` characters of the body, for error messages.
    pub fn excerpt(&self, max: usize) -> String {
        let text = String::from_utf8_lossy(&self.body);
        let mut s: String = text.chars().take(max).collect();
        if text.chars().count() > max {
            s.push('…');
        }
        s
    }

    /// `{:status :headers :body}` as an RTFS map.
    pub fn to_value(&self) -> rtfs::Value {
        let headers = rtfs::Value::map(
            self.headers
                .iter()
                .map(|(k, v)| (rtfs::json::json_key(k), rtfs::Value::string(v))),
        );
        rtfs::Value::map([
            (
                rtfs::Value::keyword("status"),
                rtfs::Value::Int(i64::from(self.status)),
            ),
            (rtfs::Value::keyword("headers"), headers),
            (rtfs::Value::keyword("body"), self.body_value()),
        ])
    }
}

/// Sends a request and reads the whole response, refusing bodies over
/// `max_bytes`.
pub async fn send(req: reqwest::RequestBuilder, max_bytes: usize) -> Result<Response, SendError> {
    let mut resp = req.send().await.map_err(classify)?;
    let status = resp.status().as_u16();
    let mut headers: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in resp.headers() {
        let v = String::from_utf8_lossy(value.as_bytes()).into_owned();
        headers
            .entry(name.as_str().to_ascii_lowercase())
            .and_modify(|old| {
                old.push_str(", ");
                old.push_str(&v);
            })
            .or_insert(v);
    }
    if let Some(len) = resp.content_length()
        && len > max_bytes as u64
    {
        return Err(SendError::Failed(format!(
            "response body of {len} bytes exceeds the {max_bytes}-byte limit"
        )));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(classify)? {
        if body.len() + chunk.len() > max_bytes {
            return Err(SendError::Failed(format!(
                "response body exceeds the {max_bytes}-byte limit"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// A redirect refused by the allow-list is a denial; anything else a
/// failure with a readable message.
fn classify(e: reqwest::Error) -> SendError {
    use std::error::Error as _;
    let mut src = e.source();
    while let Some(s) = src {
        if let Some(d) = s.downcast_ref::<RedirectDenied>() {
            return SendError::Denied(d.0.clone());
        }
        src = s.source();
    }
    SendError::Failed(describe(e))
}

/// A readable message for a reqwest error (timeouts named as such).
fn describe(e: reqwest::Error) -> String {
    use std::error::Error as _;
    let mut msg = if e.is_timeout() {
        "request timed out".to_string()
    } else if e.is_connect() {
        "could not connect".to_string()
    } else {
        e.to_string()
    };
    let mut src = e.source();
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

/// Percent-encodes a path segment (everything but RFC 3986 unreserved
/// characters).
pub fn encode_path_segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Text of an RTFS value used as a URL or header parameter: strings and
/// keywords as themselves, everything else printed as JSON.
pub fn param_text(v: &rtfs::Value) -> Result<String, String> {
    match v {
        rtfs::Value::Str(s) | rtfs::Value::Keyword(s) => Ok(s.to_string()),
        rtfs::Value::Nil => Ok(String::new()),
        other => rtfs::to_json(other)
            .map(|j| j.to_string())
            .map_err(|e| e.message),
    }
}

/// Whether a plan may set header `name`: not the ones that say where a
/// request goes or who sent it (`Host`, `Forwarded`, `X-Forwarded-*`,
/// `X-Real-IP`: a proxy routing by them would take the request past the
/// allow-list) nor the ones that frame the message (`Content-Length`,
/// `Transfer-Encoding`, `Connection`).
pub fn check_header_name(name: &str) -> Result<(), String> {
    let n = name.to_ascii_lowercase();
    let framing = matches!(
        n.as_str(),
        "host" | "forwarded" | "x-real-ip" | "content-length" | "transfer-encoding" | "connection"
    );
    if framing || n.starts_with("x-forwarded-") || n.starts_with(':') {
        return Err(format!(
            "header {name:?} may not be set by a plan: it says where the request goes or how it is framed"
        ));
    }
    Ok(())
}

/// Headers from an RTFS map value (`{"Accept" "text/plain"}`), checked.
pub fn headers_from_value(v: Option<&rtfs::Value>) -> Result<reqwest::header::HeaderMap, String> {
    let mut map = reqwest::header::HeaderMap::new();
    let Some(v) = v else { return Ok(map) };
    if matches!(v, rtfs::Value::Nil) {
        return Ok(map);
    }
    let m = v
        .as_map()
        .ok_or_else(|| format!(":headers must be a map, got {}", v.type_name()))?;
    for (k, val) in m.iter() {
        let name = param_text(k)?;
        check_header_name(&name)?;
        let value = param_text(val)?;
        let hn = reqwest::header::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("invalid header name {name:?}"))?;
        let hv = reqwest::header::HeaderValue::from_str(&value)
            .map_err(|_| format!("invalid value for header {name:?}"))?;
        map.append(hn, hv);
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_encoded() {
        assert_eq!(encode_path_segment("a b/c?é"), "a%20b%2Fc%3F%C3%A9");
        assert_eq!(encode_path_segment("Az09-._~"), "Az09-._~");
    }

    #[test]
    fn routing_and_framing_headers_are_refused() {
        for name in [
            "Host",
            "host",
            "Forwarded",
            "X-Forwarded-Host",
            "Content-Length",
            ":authority",
        ] {
            assert!(check_header_name(name).is_err(), "{name}");
        }
        for name in ["Accept", "X-Api-Key", "Authorization"] {
            assert!(check_header_name(name).is_ok(), "{name}");
        }
        let v = rtfs::Value::map([(
            rtfs::Value::string("Host"),
            rtfs::Value::string("evil.example.com"),
        )]);
        assert!(headers_from_value(Some(&v)).is_err());
    }

    #[test]
    fn json_bodies_parse_text_stays() {
        let mut r = Response {
            status: 200,
            headers: BTreeMap::from([("content-type".into(), "application/json".into())]),
            body: br#"{"a":1}"#.to_vec(),
        };
        assert_eq!(r.body_value().to_string(), "{:a 1}");
        r.headers.insert("content-type".into(), "text/plain".into());
        assert_eq!(r.body_value().to_string(), "\"{\\\"a\\\":1}\"");
    }
}

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

/// Builds a client with the given total timeout.
pub fn client(timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(CONNECT_TIMEOUT.min(timeout))
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
pub async fn send(req: reqwest::RequestBuilder, max_bytes: usize) -> Result<Response, String> {
    let mut resp = req.send().await.map_err(describe)?;
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
        return Err(format!(
            "response body of {len} bytes exceeds the {max_bytes}-byte limit"
        ));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp.chunk().await.map_err(describe)? {
        if body.len() + chunk.len() > max_bytes {
            return Err(format!("response body exceeds the {max_bytes}-byte limit"));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Response {
        status,
        headers,
        body,
    })
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

//! Tool results (`CallToolResult`) as RTFS values.
//!
//! - `structuredContent` present → that value (objects become maps);
//! - otherwise one text content → the text parsed as JSON when it is JSON
//!   (`"{\"a\":1}"` → `{:a 1}`), else the string;
//! - several contents → a vector of the converted items;
//! - no content → `nil`;
//! - non-text items (images, audio, resources, links) → their JSON object as a map.
//!
//! An `isError: true` result is an error carrying the server's text.

use serde_json::Value as Json;

/// Converts a raw `CallToolResult` (JSON) to an RTFS value, or to the
/// tool's error message when it reports `isError`.
pub fn to_rtfs(result: &Json) -> Result<rtfs::Value, String> {
    let content: &[Json] = result
        .get("content")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    if result.get("isError").and_then(Json::as_bool) == Some(true) {
        let text: Vec<&str> = content
            .iter()
            .filter_map(|c| c.get("text").and_then(Json::as_str))
            .collect();
        let msg = if text.is_empty() {
            "the tool reported an error without a message".to_string()
        } else {
            text.join("\n")
        };
        return Err(msg);
    }
    if let Some(s) = result.get("structuredContent") {
        return Ok(rtfs::from_json(s));
    }
    Ok(match content {
        [] => rtfs::Value::Nil,
        [one] => item(one),
        many => rtfs::Value::vector(many.iter().map(item).collect()),
    })
}

fn item(c: &Json) -> rtfs::Value {
    match (c.get("type").and_then(Json::as_str), c.get("text")) {
        (Some("text") | None, Some(Json::String(t))) => text_value(t),
        _ => rtfs::from_json(c),
    }
}

fn text_value(t: &str) -> rtfs::Value {
    let trimmed = t.trim_start();
    if (trimmed.starts_with('{') || trimmed.starts_with('['))
        && let Ok(j) = serde_json::from_str::<Json>(t)
    {
        return rtfs::from_json(&j);
    }
    rtfs::Value::string(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rt(j: Json) -> String {
        to_rtfs(&j)
            .map(|v| v.to_string())
            .unwrap_or_else(|e| format!("ERR {e}"))
    }

    #[test]
    fn contents_become_values() {
        assert_eq!(
            rt(json!({"content": [{"type": "text", "text": "hi"}]})),
            "\"hi\""
        );
        assert_eq!(
            rt(json!({"content": [{"type": "text", "text": "{\"a\": [1, 2]}"}]})),
            "{:a [1 2]}"
        );
        assert_eq!(
            rt(json!({"content": [{"type": "text", "text": "[1"}]})),
            "\"[1\""
        );
        assert_eq!(
            rt(json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "7"}]})),
            "[\"a\" \"7\"]"
        );
        assert_eq!(
            rt(
                json!({"content": [{"type": "text", "text": "x"}], "structuredContent": {"sum": 3}})
            ),
            "{:sum 3}"
        );
        assert_eq!(rt(json!({"content": []})), "nil");
        let img =
            rt(json!({"content": [{"type": "image", "data": "AA==", "mimeType": "image/png"}]}));
        assert!(img.contains(":mimeType \"image/png\""), "{img}");
    }

    #[test]
    fn is_error_is_an_error_with_the_message() {
        assert_eq!(
            rt(json!({"isError": true, "content": [{"type": "text", "text": "no such file"}]})),
            "ERR no such file"
        );
        assert!(rt(json!({"isError": true})).starts_with("ERR the tool reported"));
    }
}

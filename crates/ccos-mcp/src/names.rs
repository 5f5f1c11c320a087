//! Capability ids for MCP tools: `mcp.<server>.<tool>`, reversibly.
//!
//! Capability ids may only contain `[A-Za-z0-9_.-]`. Server and tool names
//! are free text, so they are escaped: every other character `c` becomes
//! `_x<HEX>_` (its Unicode scalar value in upper-case hex). A literal `_`
//! is kept as is, except when the next character is `x`: then that `_` is
//! escaped (`_x5F_`), so in an encoded name `_x` always starts an escape
//! and decoding is unambiguous. In a server name `.`
//! is escaped too, so the first `.` after `mcp.` always separates the server
//! from the tool. Names that are already valid (`read_text_file`,
//! `get-sum`) are unchanged, and [`parse_capability_id`] recovers the
//! originals exactly.

/// The prefix of every MCP capability id.
pub const ID_PREFIX: &str = "mcp.";

fn is_plain(c: char, allow_dot: bool) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || (allow_dot && c == '.')
}

/// If `s` starts with an escape sequence `_x<HEX>_`, returns the decoded
/// char and the sequence's byte length.
fn escape_at(s: &str) -> Option<(char, usize)> {
    let rest = s.strip_prefix("_x")?;
    let end = rest.find('_')?;
    let hex = &rest[..end];
    if hex.is_empty()
        || hex.len() > 6
        || !hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
    {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
    Some((c, 2 + end + 1))
}

fn encode(name: &str, allow_dot: bool) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        let plain = is_plain(c, allow_dot) && !(c == '_' && chars.peek() == Some(&'x'));
        if plain {
            out.push(c);
        } else {
            out.push_str(&format!("_x{:X}_", c as u32));
        }
    }
    out
}

/// Escapes a server name for use in a capability id or file name (no `.`).
pub fn encode_server(name: &str) -> String {
    encode(name, false)
}

/// Escapes a tool name for use in a capability id (`.` is kept).
pub fn encode_tool(name: &str) -> String {
    encode(name, true)
}

/// Reverses [`encode_server`] / [`encode_tool`]; `None` when `s` contains a
/// character that no encoding produces.
pub fn decode(s: &str) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        if rest.starts_with("_x") {
            let (c, len) = escape_at(rest)?;
            out.push(c);
            i += len;
            continue;
        }
        let c = rest.chars().next()?;
        if !is_plain(c, true) {
            return None;
        }
        out.push(c);
        i += c.len_utf8();
    }
    Some(out)
}

/// The capability id of `tool` on `server`: `mcp.<server>.<tool>`.
pub fn capability_id(server: &str, tool: &str) -> String {
    format!("{ID_PREFIX}{}.{}", encode_server(server), encode_tool(tool))
}

/// Splits a capability id made by [`capability_id`] back into the original
/// `(server, tool)` names; `None` when it is not such an id.
pub fn parse_capability_id(id: &str) -> Option<(String, String)> {
    let rest = id.strip_prefix(ID_PREFIX)?;
    let (server, tool) = rest.split_once('.')?;
    if server.is_empty() || tool.is_empty() {
        return None;
    }
    Some((decode(server)?, decode(tool)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn valid_names_are_unchanged() {
        assert_eq!(
            capability_id("filesystem", "read_text_file"),
            "mcp.filesystem.read_text_file"
        );
        assert_eq!(
            capability_id("everything", "get-sum"),
            "mcp.everything.get-sum"
        );
        assert_eq!(capability_id("a_b-c", "x.y"), "mcp.a_b-c.x.y");
    }

    #[test]
    fn other_characters_are_escaped_and_reversible() {
        let id = capability_id("my server.v2", "read file/ä");
        assert_eq!(id, "mcp.my_x20_server_x2E_v2.read_x20_file_x2F__xE4_");
        assert_eq!(
            parse_capability_id(&id),
            Some(("my server.v2".to_string(), "read file/ä".to_string()))
        );
        // A literal name that looks like an escape round-trips too.
        let id = capability_id("s", "a_x41_b");
        assert_eq!(id, "mcp.s.a_x5F_x41_b");
        assert_eq!(
            parse_capability_id(&id),
            Some(("s".into(), "a_x41_b".into()))
        );
        assert!(
            capability_id("s", "t")
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        );
    }

    #[test]
    fn non_mcp_ids_do_not_parse() {
        assert_eq!(parse_capability_id("ccos.echo"), None);
        assert_eq!(parse_capability_id("mcp.onlyserver"), None);
        assert_eq!(parse_capability_id("mcp.s.bad/char"), None);
    }

    proptest! {
        #[test]
        fn ids_round_trip(server in "\\PC{1,12}", tool in "\\PC{1,16}") {
            let id = capability_id(&server, &tool);
            prop_assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)));
            prop_assert_eq!(parse_capability_id(&id), Some((server, tool)));
        }

        #[test]
        fn underscore_heavy_names_round_trip(server in "[_xA-F0-9.]{1,12}", tool in "[_xA-F0-9.]{1,16}") {
            let id = capability_id(&server, &tool);
            prop_assert_eq!(parse_capability_id(&id), Some((server, tool)));
        }
    }
}

//! Capability ids for MCP tools: `mcp.<server>.<tool>`, reversibly.
//!
//! Capability ids may only contain `[A-Za-z0-9_.-]`. Server and tool names
//! are free text, so they are escaped reversibly by the one escaper of ids
//! (`ccos_marketplace::ids::encode_name`: every other character becomes
//! `_x<HEX>_`, and a literal `_x` is escaped too). In a server name `.`
//! is escaped too, so the first `.` after `mcp.` always separates the server
//! from the tool. Names that are already valid (`read_text_file`,
//! `get-sum`) are unchanged, and [`parse_capability_id`] recovers the
//! originals exactly.

/// The prefix of every MCP capability id.
pub const ID_PREFIX: &str = "mcp.";

use ccos_marketplace::ids::{decode_name as decode_impl, encode_name};

/// Escapes a server name for use in a capability id or file name (no `.`).
pub fn encode_server(name: &str) -> String {
    encode_name(name, false)
}

/// Escapes a tool name for use in a capability id (`.` is kept).
pub fn encode_tool(name: &str) -> String {
    encode_name(name, true)
}

/// Reverses [`encode_server`] / [`encode_tool`]; `None` when `s` contains a
/// character that no encoding produces.
pub fn decode(s: &str) -> Option<String> {
    decode_impl(s)
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

//! Capability ids: validation, word splitting for search, and "did you
//! mean" suggestions.

/// Longest id the marketplace accepts (MCP and OpenAPI names can be long).
pub const MAX_ID_LEN: usize = 128;

/// Checks that `id` is 1 to [`MAX_ID_LEN`] characters of `[A-Za-z0-9_.-]`.
///
/// The error says what is wrong (empty, too long, or the first bad character).
pub fn validate_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err("a capability id cannot be empty".into());
    }
    if id.len() > MAX_ID_LEN {
        return Err(format!(
            "capability id is {} characters long; the limit is {MAX_ID_LEN}",
            id.len()
        ));
    }
    if let Some(c) = id.chars().find(|c| !is_id_char(*c)) {
        return Err(format!(
            "capability id {id:?} contains {c:?}; only letters, digits, '_', '.' and '-' are allowed"
        ));
    }
    Ok(())
}

/// True for the characters allowed in ids: `[A-Za-z0-9_.-]`.
pub fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// Escapes free text (a tool or server name, an OpenAPI path segment) into
/// id characters, reversibly: every character outside `[A-Za-z0-9_-]`
/// (and `.` unless `allow_dot`) becomes `_x<HEX>_`, its Unicode scalar
/// value in upper-case hex. A literal `_` is kept, except before `x`: then
/// it is escaped (`_x5F_`), so in an encoded name `_x` always starts an
/// escape and [`decode_name`] is unambiguous. Valid names are unchanged.
pub fn encode_name(name: &str, allow_dot: bool) -> String {
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

/// Reverses [`encode_name`]; `None` when `s` contains a character no
/// encoding produces.
pub fn decode_name(s: &str) -> Option<String> {
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

/// Splits text into words the way identifiers are read: on every
/// non-alphanumeric character, and inside words at camelCase boundaries
/// (`getUserRepos` → `get User Repos`, `HTTPServer` → `HTTP Server`).
///
/// Returns `(byte_start, byte_end)` ranges into `text`, in order. Case is
/// kept; the search analyzer lower-cases afterwards.
pub fn split_words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_alphanumeric() {
            i += 1;
            continue;
        }
        // One alphanumeric run [i, j).
        let mut j = i;
        while j < chars.len() && chars[j].1.is_alphanumeric() {
            j += 1;
        }
        let mut start = i;
        for k in i + 1..j {
            let prev = chars[k - 1].1;
            let cur = chars[k].1;
            let next = chars.get(k + 1).map(|c| c.1).filter(|_| k + 1 < j);
            let lower_to_upper = (prev.is_lowercase() || prev.is_numeric()) && cur.is_uppercase();
            let acronym_end =
                prev.is_uppercase() && cur.is_uppercase() && next.is_some_and(char::is_lowercase);
            if lower_to_upper || acronym_end {
                out.push((chars[start].0, chars[k].0));
                start = k;
            }
        }
        let end = chars.get(j).map_or(text.len(), |c| c.0);
        out.push((chars[start].0, end));
        i = j;
    }
    out
}

/// The words of [`split_words`], lower-cased.
pub fn words(text: &str) -> Vec<String> {
    split_words(text)
        .into_iter()
        .map(|(a, b)| text[a..b].to_lowercase())
        .collect()
}

/// Up to `n` ids closest to `wanted` by edit distance (ties by id), among
/// those within a reasonable distance; for "did you mean" messages.
pub fn closest<'a>(wanted: &str, ids: impl Iterator<Item = &'a str>, n: usize) -> Vec<String> {
    // Nothing is near an id far beyond the longest accepted one, and the
    // edit distance would cost its length times every id's.
    if wanted.len() > 2 * MAX_ID_LEN {
        return vec![];
    }
    let limit = (wanted.chars().count() / 2).max(3);
    let mut scored: Vec<(usize, &str)> = ids
        .map(|id| (rtfs::builtins::edit_distance(wanted, id), id))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored
        .into_iter()
        .take(n)
        .map(|(_, id)| id.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_validate() {
        assert!(validate_id("ccos.math.add").is_ok());
        assert!(validate_id("api.GET_movie-movie_id").is_ok());
        assert!(validate_id("").is_err());
        assert!(validate_id("a b").unwrap_err().contains("' '"));
        assert!(validate_id(&"x".repeat(128)).is_ok());
        assert!(validate_id(&"x".repeat(129)).is_err());
    }

    #[test]
    fn identifiers_split_into_words() {
        assert_eq!(words("getUserRepos"), ["get", "user", "repos"]);
        assert_eq!(words("ccos.math.add"), ["ccos", "math", "add"]);
        assert_eq!(words("list_open-issues"), ["list", "open", "issues"]);
        assert_eq!(words("HTTPServer v2Api"), ["http", "server", "v2", "api"]);
        assert_eq!(words("  "), Vec::<String>::new());
        assert_eq!(words("café-Crème"), ["café", "crème"]);
    }

    #[test]
    fn closest_suggests_near_ids() {
        let ids = ["ccos.math.add", "ccos.math.sub", "ccos.echo"];
        let c = closest("ccos.math.ad", ids.iter().copied(), 2);
        assert_eq!(c[0], "ccos.math.add");
        assert!(closest("zzzzzzzzzzzzzzzzzzzzzzzzz", ids.iter().copied(), 3).is_empty());
    }
}

//! A minimal RFC 4180 CSV reader (quoted fields, `""` escapes, newlines
//! inside quotes, CRLF), enough for the benchmark files.

/// Parses CSV text into records of fields. An unterminated quote is an
/// error naming the record (1-based) where it started.
pub fn parse(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut record: Vec<String> = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    let mut quote_started_at = 0usize;
    let mut chars = text.chars().peekable();
    let mut touched = false;
    while let Some(c) = chars.next() {
        if in_quotes {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    in_quotes = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                quote_started_at = records.len() + 1;
                touched = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                touched = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                touched = false;
            }
            c => {
                field.push(c);
                touched = true;
            }
        }
    }
    if in_quotes {
        return Err(format!(
            "unterminated quoted field starting in record {quote_started_at}"
        ));
    }
    if touched || !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quotes_escapes_and_newlines() {
        let t = "Query,Tool\r\n\"a, \"\"b\"\"\nc\",T1\nplain,T2";
        let r = parse(t).unwrap();
        assert_eq!(
            r,
            vec![
                vec!["Query".to_string(), "Tool".into()],
                vec!["a, \"b\"\nc".into(), "T1".into()],
                vec!["plain".into(), "T2".into()],
            ]
        );
        assert_eq!(parse("x,y\n").unwrap().len(), 1);
        assert!(parse("\"open").unwrap_err().contains("record 1"));
    }
}

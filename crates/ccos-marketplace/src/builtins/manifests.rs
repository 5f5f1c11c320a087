//! The manifests of the built-in capabilities.

use std::collections::BTreeSet;

use serde_json::{Value as Json, json};

use crate::manifest::{CapabilityManifest, Effect, ProviderSpec, TrustTier};

fn cap(
    id: &str,
    description: &str,
    input: Json,
    output: Json,
    effects: &[Effect],
    example: &str,
) -> CapabilityManifest {
    let name = id.trim_start_matches("ccos.").replace(['.', '_'], " ");
    CapabilityManifest {
        id: id.into(),
        name,
        description: description.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        input_schema: input,
        output_schema: Some(output),
        provider: ProviderSpec::Builtin,
        trust_tier: TrustTier::System,
        local: true,
        effects: effects.iter().copied().collect::<BTreeSet<_>>(),
        examples: vec![example.into()],
    }
}

/// An object schema from `(name, schema, required)` triples.
fn obj(props: &[(&str, Json, bool)]) -> Json {
    let mut p = serde_json::Map::new();
    let mut req = vec![];
    for (name, schema, required) in props {
        p.insert((*name).into(), schema.clone());
        if *required {
            req.push(Json::from(*name));
        }
    }
    json!({"type": "object", "properties": p, "required": req, "additionalProperties": false})
}

fn s(desc: &str) -> Json {
    json!({"type": "string", "description": desc})
}

fn two_numbers() -> Json {
    json!({"type": "array", "prefixItems": [
        {"type": "number", "title": "a", "description": "first operand"},
        {"type": "number", "title": "b", "description": "second operand"}
    ], "minItems": 2, "maxItems": 2})
}

/// The manifests of every built-in capability, sorted by id.
pub fn manifests() -> Vec<CapabilityManifest> {
    use Effect::*;
    let num = json!({"type": "number"});
    let int = json!({"type": "integer"});
    let text_in = || obj(&[("text", s("the text"), true)]);
    let items = |d: &str| json!({"type": "array", "description": d});
    let file_out = json!({"type": "object", "properties": {"path": {"type": "string"}, "bytes": {"type": "integer"}}});
    let http_out = json!({"type": "object", "properties": {
        "status": {"type": "integer"}, "headers": {"type": "object"}, "body": {}}});
    let headers = json!({"type": "object", "description": "request headers, name to value"});
    let mut v = vec![
        cap(
            "ccos.echo",
            "Echo: returns the given message unchanged.",
            obj(&[("message", s("the message to return"), true)]),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.echo {:message "hi"})"#,
        ),
        cap(
            "ccos.math.add",
            "Add two numbers (sum, plus).",
            two_numbers(),
            num.clone(),
            &[Pure],
            "(call :ccos.math.add 2 3)",
        ),
        cap(
            "ccos.math.sub",
            "Subtract the second number from the first (difference, minus).",
            two_numbers(),
            num.clone(),
            &[Pure],
            "(call :ccos.math.sub 5 3)",
        ),
        cap(
            "ccos.math.mul",
            "Multiply two numbers (product, times).",
            two_numbers(),
            num.clone(),
            &[Pure],
            "(call :ccos.math.mul 5 4)",
        ),
        cap(
            "ccos.math.div",
            "Divide the first number by the second (quotient); division by zero is an error, a non-exact integer division gives a float.",
            two_numbers(),
            num,
            &[Pure],
            "(call :ccos.math.div 10 4)",
        ),
        cap(
            "ccos.text.count_words",
            "Count the words (whitespace-separated) in a text.",
            text_in(),
            int.clone(),
            &[Pure],
            r#"(call :ccos.text.count_words {:text "a b c"})"#,
        ),
        cap(
            "ccos.text.occurrences",
            "How many times one text occurs in another (a name, a letter, any text), case aside.",
            obj(&[
                ("text", s("the text to search"), true),
                ("of", s("what to count, as written"), true),
                (
                    "whole",
                    json!({"type": "boolean", "description": "true: only where no letter or digit adjoins it; false: anywhere, inside others too; unset: an error when the two counts differ"}),
                    false,
                ),
            ]),
            int.clone(),
            &[Pure],
            r#"(call :ccos.text.occurrences {:text "a cat, a hat" :of "a" :whole true})"#,
        ),
        cap(
            "ccos.text.count_lines",
            "Count the lines in a text.",
            text_in(),
            int.clone(),
            &[Pure],
            r#"(call :ccos.text.count_lines {:text "a\nb"})"#,
        ),
        cap(
            "ccos.text.count_chars",
            "Count the characters (Unicode scalar values) in a text.",
            text_in(),
            int.clone(),
            &[Pure],
            r#"(call :ccos.text.count_chars {:text "abc"})"#,
        ),
        cap(
            "ccos.text.split",
            "Split a text on a separator into a vector of strings (empty separator: characters).",
            obj(&[
                ("text", s("the text"), true),
                ("separator", s("the separator"), true),
            ]),
            json!({"type": "array", "items": {"type": "string"}}),
            &[Pure],
            r#"(call :ccos.text.split {:text "a,b" :separator ","})"#,
        ),
        cap(
            "ccos.data.count",
            "Count the items of a list (or the entries of a map).",
            obj(&[(
                "items",
                json!({"description": "the list (or map) to count"}),
                true,
            )]),
            int.clone(),
            &[Pure],
            r#"(call :ccos.data.count {:items [1 2 3]})"#,
        ),
        cap(
            "ccos.text.lines",
            "Split a text into its lines (line endings removed; a final newline adds no empty line).",
            text_in(),
            json!({"type": "array", "items": {"type": "string"}}),
            &[Pure],
            r#"(call :ccos.text.lines {:text "a\nb\n"})"#,
        ),
        cap(
            "ccos.text.numbers",
            "The numbers in a text: every standalone integer or decimal (with its sign), in order.",
            text_in(),
            json!({"type": "array", "items": {"type": "number"}}),
            &[Pure],
            r#"(call :ccos.text.numbers {:text "3\n-1.5\n42"})"#,
        ),
        cap(
            "ccos.text.join",
            "Join items into one string with a separator.",
            obj(&[
                ("items", items("the items to join"), true),
                (
                    "separator",
                    s("placed between items (default empty)"),
                    false,
                ),
            ]),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.text.join {:items ["a" "b"] :separator ", "})"#,
        ),
        cap(
            "ccos.text.upper",
            "Convert a text to upper case.",
            text_in(),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.text.upper {:text "abc"})"#,
        ),
        cap(
            "ccos.text.lower",
            "Convert a text to lower case.",
            text_in(),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.text.lower {:text "ABC"})"#,
        ),
        cap(
            "ccos.text.regex_find",
            "Find every match of a regular expression in a text (linear-time regex engine).",
            obj(&[
                ("text", s("the text to search"), true),
                ("pattern", s("regular expression"), true),
            ]),
            json!({"type": "array", "items": {"type": "string"}}),
            &[Pure],
            r#"(call :ccos.text.regex_find {:text "a1b22" :pattern "[0-9]+"})"#,
        ),
        cap(
            "ccos.json.parse",
            "Parse JSON text into a value.",
            obj(&[
                ("text", s("JSON text"), true),
                (
                    "expect",
                    json!({"type": "string", "enum": ["array", "object"], "description": "the kind of value the text must hold (else an error)"}),
                    false,
                ),
            ]),
            json!({}),
            &[Pure],
            r#"(call :ccos.json.parse {:text "{\"a\": 1}"})"#,
        ),
        cap(
            "ccos.json.format",
            "Format a value as JSON text, optionally pretty-printed.",
            obj(&[
                ("value", json!({"description": "the value to format"}), true),
                (
                    "pretty",
                    json!({"type": "boolean", "description": "indent the output"}),
                    false,
                ),
            ]),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.json.format {:value {:a 1}})"#,
        ),
        cap(
            "ccos.data.filter",
            "Keep the maps of a list whose key equals a value, or whose key is truthy when :equals is absent.",
            obj(&[
                (
                    "items",
                    json!({"type": "array", "items": {"type": "object"}, "description": "maps to filter"}),
                    true,
                ),
                (
                    "key",
                    json!({"type": ["string", "array"], "items": {"type": "string"}, "description": "the key to test, or the keys that may hold the value when the goal says none (the one the maps have)"}),
                    true,
                ),
                (
                    "equals",
                    json!({"description": "the value the key must equal"}),
                    false,
                ),
            ]),
            json!({"type": "array"}),
            &[Pure],
            r#"(call :ccos.data.filter {:items [{:a 1} {:a 2}] :key "a" :equals 2})"#,
        ),
        cap(
            "ccos.data.get",
            "Get the value under a key of a map, or the key's value of each map of a list (a field of records).",
            obj(&[
                (
                    "data",
                    json!({"description": "a map, or a list of maps"}),
                    true,
                ),
                (
                    "key",
                    s(
                        "the key, as written or in another case and spacing (\"app name\" for app_name)",
                    ),
                    true,
                ),
            ]),
            json!({}),
            &[Pure],
            r#"(call :ccos.data.get {:data {:port 8080} :key "port"})"#,
        ),
        cap(
            "ccos.data.related",
            "The other ends of the relations of one type that start or end at an entity (who works at a company, whom a person knows), from a list of relations.",
            obj(&[
                (
                    "relations",
                    json!({"type": "array", "items": {"type": "object"}, "description": "the relations, maps holding their two ends and their type"}),
                    true,
                ),
                (
                    "type",
                    s("the relation's type (\"works at\" for works_at)"),
                    true,
                ),
                ("from", s("the entity the relations start at"), false),
                ("to", s("the entity the relations end at"), false),
                (
                    "from_key",
                    s("the key of the end a relation starts at"),
                    true,
                ),
                ("to_key", s("the key of the end a relation ends at"), true),
                ("type_key", s("the key of a relation's type"), true),
            ]),
            json!({"type": "array", "items": {"type": "string"}}),
            &[Pure],
            r#"(call :ccos.data.related {:relations [{:from "Bob" :to "Globex" :type "works_at"}] :type "works at" :to "Globex" :from_key "from" :to_key "to" :type_key "type"})"#,
        ),
        cap(
            "ccos.data.sort",
            "Sort a list, by a key of its maps when :key is given, ascending unless :descending.",
            obj(&[
                ("items", items("the items to sort"), true),
                ("key", s("sort by this key of each map"), false),
                (
                    "descending",
                    json!({"type": "boolean", "description": "largest first"}),
                    false,
                ),
                (
                    "alphabetical",
                    json!({"type": "boolean", "description": "as words in a dictionary: case aside, numbers by their digits"}),
                    false,
                ),
            ]),
            json!({"type": "array"}),
            &[Pure],
            r#"(call :ccos.data.sort {:items [{:n 2} {:n 1}] :key "n"})"#,
        ),
        cap(
            "ccos.data.nth",
            "The nth item, at a position: 1 the first, 2 the second, -1 the last.",
            obj(&[
                ("items", items("the items, in order"), true),
                (
                    "position",
                    json!({"type": "integer", "description": "1 for the first item, -1 for the last; a position past the end is an error"}),
                    true,
                ),
            ]),
            json!({}),
            &[Pure],
            r#"(call :ccos.data.nth {:items ["a" "b" "c"] :position -1})"#,
        ),
        cap(
            "ccos.data.take",
            "Take the first N items of a list.",
            obj(&[
                ("items", items("the list"), true),
                (
                    "count",
                    json!({"type": "integer", "minimum": 0, "description": "how many"}),
                    true,
                ),
            ]),
            json!({"type": "array"}),
            &[Pure],
            r#"(call :ccos.data.take {:items [1 2 3] :count 2})"#,
        ),
        cap(
            "ccos.data.unique",
            "Remove duplicates from a list: its distinct items, each where it first appears.",
            obj(&[("items", items("the list"), true)]),
            json!({"type": "array"}),
            &[Pure],
            r#"(call :ccos.data.unique {:items [3 1 3 2 1]})"#,
        ),
        cap(
            "ccos.data.max",
            "The largest item of a list (maximum, highest); an empty list is an error.",
            obj(&[("items", items("the list"), true)]),
            json!({}),
            &[Pure],
            r#"(call :ccos.data.max {:items [4 19 7]})"#,
        ),
        cap(
            "ccos.data.min",
            "The smallest item of a list (minimum, lowest); an empty list is an error.",
            obj(&[("items", items("the list"), true)]),
            json!({}),
            &[Pure],
            r#"(call :ccos.data.min {:items [4 19 7]})"#,
        ),
        cap(
            "ccos.text.reverse",
            "Reverse a text, character by character.",
            text_in(),
            json!({"type": "string"}),
            &[Pure],
            r#"(call :ccos.text.reverse {:text "abc"})"#,
        ),
        cap(
            "ccos.file.read",
            "Read a UTF-8 text file (inside the allowed roots, at most 16 MiB).",
            obj(&[("path", s("file path"), true)]),
            json!({"type": "string"}),
            &[Read],
            r#"(call :ccos.file.read {:path "notes.txt"})"#,
        ),
        cap(
            "ccos.file.list",
            "List a directory: sorted entries with name, type and size.",
            obj(&[("path", s("directory path (default .)"), false)]),
            json!({"type": "array", "items": {"type": "object"}}),
            &[Read],
            r#"(call :ccos.file.list {:path "."})"#,
        ),
        cap(
            "ccos.file.write",
            "Write (create or overwrite) a text file inside the allowed roots.",
            obj(&[
                ("path", s("file path"), true),
                ("content", s("the text to write"), true),
            ]),
            file_out.clone(),
            &[Write],
            r#"(call :ccos.file.write {:path "out.txt" :content "hi"})"#,
        ),
        cap(
            "ccos.file.append",
            "Append text to a file (created if missing) inside the allowed roots.",
            obj(&[
                ("path", s("file path"), true),
                ("content", s("the text to append"), true),
            ]),
            file_out,
            &[Write],
            r#"(call :ccos.file.append {:path "log.txt" :content "line\n"})"#,
        ),
        cap(
            "ccos.file.stat",
            "File metadata: whether it exists, its type, size, and when it was last modified.",
            obj(&[("path", s("file path"), true)]),
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "the path"},
                "exists": {"type": "boolean", "description": "whether the file or directory exists"},
                "type": {"type": "string", "description": "file, dir, symlink or other (absent when it does not exist)"},
                "size": {"type": "integer", "description": "size in bytes"},
                "modified": {"type": ["string", "null"], "description": "modification time (RFC 3339)"}
            }}),
            &[Read],
            r#"(call :ccos.file.stat {:path "notes.txt"})"#,
        ),
        cap(
            "ccos.time.now",
            "The current date and time (UTC, RFC 3339).",
            obj(&[]),
            json!({"type": "string"}),
            &[Read],
            "(call :ccos.time.now {})",
        ),
        cap(
            "ccos.time.sleep",
            "Wait for a number of milliseconds (at most 600000).",
            obj(&[(
                "ms",
                json!({"type": "integer", "minimum": 0, "maximum": super::MAX_SLEEP_MS, "description": "milliseconds"}),
                true,
            )]),
            int,
            &[Read],
            "(call :ccos.time.sleep {:ms 100})",
        ),
        cap(
            "ccos.user.ask",
            "Ask the user a question and return the answer.",
            obj(&[
                ("prompt", s("the question"), true),
                (
                    "name",
                    s("the name of the value asked for (answers given as NAME=VALUE match it)"),
                    false,
                ),
            ]),
            json!({"type": "string"}),
            &[User],
            r#"(call :ccos.user.ask {:prompt "Which city?"})"#,
        ),
        cap(
            "ccos.http.get",
            "HTTP GET a URL (host must be allow-listed); returns status, headers and body (JSON parsed).",
            obj(&[
                ("url", s("the URL"), true),
                ("headers", headers.clone(), false),
            ]),
            http_out.clone(),
            &[Network],
            r#"(call :ccos.http.get {:url "https://example.org/"})"#,
        ),
        cap(
            "ccos.http.post",
            "HTTP POST to a URL (host must be allow-listed): a string body is sent as text, other values as JSON.",
            obj(&[
                ("url", s("the URL"), true),
                ("body", json!({"description": "request body"}), false),
                ("headers", headers, false),
            ]),
            http_out,
            &[Network],
            r#"(call :ccos.http.post {:url "https://example.org/" :body {:a 1}})"#,
        ),
    ];
    v.sort_by(|a, b| a.id.cmp(&b.id));
    v
}

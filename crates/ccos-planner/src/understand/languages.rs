//! Languages by their English names: what a language parameter takes when
//! the goal names one after "into", "to" or "from" ("translate 'hola'
//! *from Spanish into English*"). Only these: a person, a company or a
//! city after "from" is no language (attack trial: "translate 'hi' from
//! Bob into French" put Bob in `source_language`).

/// The languages most spoken or most translated, by their English names
/// (lower case), including the common regional forms the goal may qualify
/// ("Brazilian Portuguese" is read by its last word).
const LANGUAGES: &[&str] = &[
    "afrikaans",
    "albanian",
    "amharic",
    "arabic",
    "armenian",
    "azerbaijani",
    "basque",
    "belarusian",
    "bengali",
    "bosnian",
    "bulgarian",
    "burmese",
    "cantonese",
    "catalan",
    "chinese",
    "croatian",
    "czech",
    "danish",
    "dutch",
    "english",
    "esperanto",
    "estonian",
    "farsi",
    "filipino",
    "finnish",
    "french",
    "galician",
    "georgian",
    "german",
    "greek",
    "gujarati",
    "haitian",
    "hausa",
    "hebrew",
    "hindi",
    "hungarian",
    "icelandic",
    "igbo",
    "indonesian",
    "irish",
    "italian",
    "japanese",
    "javanese",
    "kannada",
    "kazakh",
    "khmer",
    "korean",
    "kurdish",
    "lao",
    "latin",
    "latvian",
    "lithuanian",
    "luxembourgish",
    "macedonian",
    "malay",
    "malayalam",
    "maltese",
    "mandarin",
    "maori",
    "marathi",
    "mongolian",
    "nepali",
    "norwegian",
    "pashto",
    "persian",
    "polish",
    "portuguese",
    "punjabi",
    "romanian",
    "russian",
    "serbian",
    "sinhala",
    "slovak",
    "slovenian",
    "somali",
    "spanish",
    "swahili",
    "swedish",
    "tagalog",
    "tajik",
    "tamil",
    "telugu",
    "thai",
    "tibetan",
    "turkish",
    "ukrainian",
    "urdu",
    "uzbek",
    "vietnamese",
    "welsh",
    "xhosa",
    "yiddish",
    "yoruba",
    "zulu",
];

/// Whether `name` names a language ("Spanish", "Brazilian Portuguese").
pub fn is_language(name: &str) -> bool {
    name.split_whitespace()
        .last()
        .map(str::to_lowercase)
        .is_some_and(|w| LANGUAGES.binary_search(&w.as_str()).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_names_languages_only() {
        assert!(LANGUAGES.windows(2).all(|w| w[0] < w[1]));
        assert!(is_language("Spanish") && is_language("Brazilian Portuguese"));
        for not in ["Bob", "Paris", "Google", "Mexico", "Twitter", "App Store"] {
            assert!(!is_language(not), "{not}");
        }
    }
}

//! Adjectives of nationality and region ("an *Italian* restaurant",
//! "*French* movies", "*Mediterranean* food"): they say what kind of thing
//! it is (its cuisine, language or origin), never the name of one thing.
//! Capitalised, they read as names; the binder places one only where a
//! kind of that sort goes (attack trial: "find Italian restaurants in
//! Rome" gave `{:restaurant_name "Italian"}`, "French movies" a genre).
//!
//! The language names ([`super::languages`]) count too: most are also the
//! adjective of their people ("Greek", "Thai").

/// Adjectives of nationality and region that are no language's name
/// (lower case, sorted).
const NATIONALITIES: &[&str] = &[
    "afghan",
    "african",
    "american",
    "argentine",
    "argentinian",
    "asian",
    "australian",
    "austrian",
    "bavarian",
    "belgian",
    "bolivian",
    "brazilian",
    "british",
    "cajun",
    "cambodian",
    "canadian",
    "caribbean",
    "chilean",
    "colombian",
    "congolese",
    "creole",
    "cuban",
    "cypriot",
    "ecuadorian",
    "egyptian",
    "emirati",
    "ethiopian",
    "european",
    "filipino",
    "ghanaian",
    "guatemalan",
    "haitian",
    "hawaiian",
    "hispanic",
    "honduran",
    "indian",
    "indonesian",
    "iranian",
    "iraqi",
    "irish",
    "israeli",
    "jamaican",
    "jordanian",
    "kenyan",
    "korean",
    "kuwaiti",
    "laotian",
    "latin",
    "lebanese",
    "libyan",
    "malaysian",
    "mediterranean",
    "mexican",
    "moroccan",
    "neapolitan",
    "nepalese",
    "nepali",
    "nigerian",
    "nordic",
    "pakistani",
    "palestinian",
    "parisian",
    "persian",
    "peruvian",
    "puerto rican",
    "qatari",
    "salvadoran",
    "saudi",
    "scandinavian",
    "scottish",
    "senegalese",
    "sicilian",
    "singaporean",
    "sri lankan",
    "sudanese",
    "swiss",
    "syrian",
    "taiwanese",
    "tex-mex",
    "texan",
    "tibetan",
    "tunisian",
    "tuscan",
    "ugandan",
    "uruguayan",
    "venezuelan",
    "yemeni",
];

/// Whether `name` is an adjective of nationality or region ("Italian",
/// "Sri Lankan"), or a language's name, which is its people's adjective
/// too ("Greek"). The whole name only: "French Open" and "Swiss Alps"
/// are names of one thing.
pub fn is_nationality(name: &str) -> bool {
    let lower = name.trim().to_lowercase();
    NATIONALITIES.binary_search(&lower.as_str()).is_ok()
        || (!lower.contains(' ') && super::languages::is_language(&lower))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_holds_adjectives_only() {
        assert!(NATIONALITIES.windows(2).all(|w| w[0] < w[1]));
        for yes in ["Italian", "Greek", "Mexican", "Swiss", "Sri Lankan", "Thai"] {
            assert!(is_nationality(yes), "{yes}");
        }
        for not in [
            "French Open",
            "Swiss Alps",
            "Italy",
            "Paris",
            "Bob",
            "Brazilian Portuguese",
        ] {
            assert!(!is_nationality(not), "{not}");
        }
    }
}

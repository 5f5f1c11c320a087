//! Regions a place is qualified with: "Seattle, *Washington*", "Paris,
//! *France*", "London, *UK*".
//!
//! A capitalised word after a place and a comma is a region only when it
//! names one: a country (the ISO 3166 names and codes of the time-zone
//! database vendored in `data/tzdata/iso3166.tab`, plus the usual short
//! forms "UK", "USA", "England"...), a US state, a Canadian province or
//! an Australian state, by name or postal code. Anything else ("Boston,
//! *Monday*", "Smith, *John*", "Boston, *Chicago*") is not read as a
//! region, so the binder never joins it to the place.
//!
//! A short list is written here rather than a gazetteer crate: the
//! question is only whether a word is a region at all, and these few
//! hundred names answer it for the phrasings people use.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Canadian provinces and territories, Australian states and
/// territories, and "d.c.": names, then postal codes. (The US states are
/// [`US_STATES`].)
const OTHER_SUBDIVISIONS: &[&str] = &[
    "d.c.",
    "alberta",
    "british columbia",
    "manitoba",
    "new brunswick",
    "newfoundland and labrador",
    "nova scotia",
    "ontario",
    "prince edward island",
    "quebec",
    "saskatchewan",
    "yukon",
    "nunavut",
    "northwest territories",
    "new south wales",
    "queensland",
    "south australia",
    "tasmania",
    "victoria",
    "western australia",
    "on",
    "qc",
    "bc",
    "ab",
    "mb",
    "sk",
    "ns",
    "nsw",
    "qld",
    "vic",
];

/// Short forms of countries that the ISO names spell otherwise.
const COUNTRY_ALIASES: &[&str] = &[
    "uk",
    "u.k.",
    "usa",
    "u.s.",
    "u.s.a.",
    "united states of america",
    "united kingdom",
    "great britain",
    "england",
    "scotland",
    "wales",
    "northern ireland",
    "south korea",
    "north korea",
    "czech republic",
    "holland",
];

/// The US states and the District of Columbia with their USPS codes:
/// subdivisions ([`is_subdivision`]), and what a parameter that wants the
/// code takes ([`us_state_code`]).
const US_STATES: &[(&str, &str)] = &[
    ("alabama", "AL"),
    ("alaska", "AK"),
    ("arizona", "AZ"),
    ("arkansas", "AR"),
    ("california", "CA"),
    ("colorado", "CO"),
    ("connecticut", "CT"),
    ("delaware", "DE"),
    ("district of columbia", "DC"),
    ("florida", "FL"),
    ("georgia", "GA"),
    ("hawaii", "HI"),
    ("idaho", "ID"),
    ("illinois", "IL"),
    ("indiana", "IN"),
    ("iowa", "IA"),
    ("kansas", "KS"),
    ("kentucky", "KY"),
    ("louisiana", "LA"),
    ("maine", "ME"),
    ("maryland", "MD"),
    ("massachusetts", "MA"),
    ("michigan", "MI"),
    ("minnesota", "MN"),
    ("mississippi", "MS"),
    ("missouri", "MO"),
    ("montana", "MT"),
    ("nebraska", "NE"),
    ("nevada", "NV"),
    ("new hampshire", "NH"),
    ("new jersey", "NJ"),
    ("new mexico", "NM"),
    ("new york", "NY"),
    ("north carolina", "NC"),
    ("north dakota", "ND"),
    ("ohio", "OH"),
    ("oklahoma", "OK"),
    ("oregon", "OR"),
    ("pennsylvania", "PA"),
    ("rhode island", "RI"),
    ("south carolina", "SC"),
    ("south dakota", "SD"),
    ("tennessee", "TN"),
    ("texas", "TX"),
    ("utah", "UT"),
    ("vermont", "VT"),
    ("virginia", "VA"),
    ("washington", "WA"),
    ("west virginia", "WV"),
    ("wisconsin", "WI"),
    ("wyoming", "WY"),
];

/// The USPS code of the US state `name` names (any case): "Texas" is
/// "TX"; `None` for anything else, and for "Washington" (the state or the
/// capital is not said).
pub fn us_state_code(name: &str) -> Option<&'static str> {
    let key = name.trim().to_lowercase();
    if key == "washington" {
        return None;
    }
    US_STATES.iter().find(|(n, _)| *n == key).map(|(_, c)| *c)
}

/// Whether `name` (any case) names a country or a US state by its name
/// ("Texas"; not "Washington", which may be the capital).
pub fn is_country_or_us_state(name: &str) -> bool {
    is_country(name) || us_state_code(name).is_some()
}

/// Whether `name` (any case) names a region: a country or a state,
/// province or territory (see the module documentation).
pub fn is_region(name: &str) -> bool {
    is_country(name) || is_subdivision(name)
}

/// Whether `region` after `place` and a comma qualifies it as one place
/// in a list of names: a region after a name that is no region ("Boston,
/// MA"), a state after a city named as it ("New York, NY", "New York, New
/// York"), or "Washington, D.C.". Two regions are two ("Georgia, Florida
/// and Texas").
pub fn qualifies_place(place: &str, region: &str) -> bool {
    if !is_region(region) {
        return false;
    }
    if !is_region(place) {
        return true;
    }
    let code = |n: &str| {
        let key = n.trim().to_lowercase();
        US_STATES
            .iter()
            .find(|(name, c)| *name == key || c.eq_ignore_ascii_case(&key))
            .map(|(_, c)| *c)
    };
    let same_state = code(place).is_some_and(|c| Some(c) == code(region));
    let capital = place.trim().eq_ignore_ascii_case("washington")
        && matches!(region.trim().to_lowercase().as_str(), "d.c." | "dc");
    same_state || capital
}

/// Whether `name` is a place the bundled data knows: a country, a state
/// or province, or a city with a time zone of its own.
pub fn is_place(name: &str) -> bool {
    is_region(name) || super::zones::iana_zone(name).is_some_and(|z| z.contains('/'))
}

/// Whether `name` (any case) names a country (or its ISO code).
pub fn is_country(name: &str) -> bool {
    let key = name.trim().to_lowercase();
    !key.is_empty() && countries().contains(key.as_str())
}

/// Whether `name` (any case) names a state, province or territory (or
/// its postal code).
pub fn is_subdivision(name: &str) -> bool {
    let key = name.trim().to_lowercase();
    !key.is_empty()
        && (OTHER_SUBDIVISIONS.contains(&key.as_str())
            || US_STATES
                .iter()
                .any(|(n, c)| *n == key || c.eq_ignore_ascii_case(&key)))
}

fn countries() -> &'static BTreeSet<String> {
    static N: OnceLock<BTreeSet<String>> = OnceLock::new();
    N.get_or_init(|| {
        const ISO3166: &str = include_str!("../../data/tzdata/iso3166.tab");
        let mut out: BTreeSet<String> = COUNTRY_ALIASES.iter().map(|s| s.to_string()).collect();
        for line in ISO3166.lines().filter(|l| !l.starts_with('#')) {
            let mut cols = line.split('\t');
            let (Some(code), Some(country)) = (cols.next(), cols.next()) else {
                continue;
            };
            out.insert(code.to_lowercase());
            let country = country.to_lowercase();
            // "Britain (UK)": the name, and what the parentheses hold
            // when it is another name ("Burma"), not a qualifier ("St
            // Martin (French)", "Korea (North)", "Samoa (western)").
            match country.split_once(" (") {
                Some((base, paren)) => {
                    out.insert(base.to_string());
                    let paren = paren.trim_end_matches(')');
                    if matches!(paren, "uk" | "us" | "burma" | "swaziland") {
                        out.insert(paren.to_string());
                    }
                }
                None => {
                    out.insert(country.replace(" & ", " and "));
                    out.insert(country);
                }
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_states_and_codes_are_regions_and_other_names_are_not() {
        for r in [
            "Washington",
            "France",
            "UK",
            "USA",
            "Illinois",
            "IL",
            "Ontario",
            "New South Wales",
            "Italy",
            "Australia",
            "United States",
        ] {
            assert!(is_region(r), "{r}");
        }
        for r in [
            "Monday",
            "John",
            "Chicago",
            "Google",
            "June",
            "Marseille",
            "",
        ] {
            assert!(!is_region(r), "{r}");
        }
        assert!(qualifies_place("Boston", "MA") && qualifies_place("New York", "NY"));
        assert!(qualifies_place("Washington", "D.C.") && qualifies_place("Paris", "France"));
        assert!(!qualifies_place("Georgia", "Florida") && !qualifies_place("France", "Germany"));
        assert!(!qualifies_place("Boston", "Chicago"));
        assert!(is_country("France") && !is_subdivision("France"));
        assert!(is_subdivision("Texas") && !is_country("Texas"));
    }
}

//! Time-zone names: what a person says ("Tokyo", "New York", "Kolkata")
//! as the IANA name a tool wants ("Asia/Tokyo", "America/New_York").
//!
//! The names come from the IANA time-zone database as the `chrono-tz`
//! crate carries it, so every zone it knows is understood and none is
//! made up: a city is a zone when the database names a zone after it.
//! A country is a zone when the database gives it exactly one ("India" →
//! `Asia/Kolkata`, from the database's own `iso3166.tab` and `zone.tab`,
//! vendored in `data/tzdata/`), or when the database's comment calls
//! exactly one of its zones the country's main one ("most of Germany":
//! `Europe/Berlin`; "Spain (mainland)": `Europe/Madrid`), as a person
//! asking the time in Germany means. A country with several zones and no
//! main one ("United States", "Australia") names none, and the user says
//! which. A legacy zone that is a country's name ("Japan") is the
//! country's canonical zone.
//!
//! Names are matched without regard to case ("india" is India).

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The IANA zone `place` names: a zone's full name ("Europe/London",
/// any case), else a zone whose city is `place` ("Tokyo", "new york",
/// "Sao_Paulo"), else a legacy zone of that name ("Japan"). `None` when
/// the database has no such zone.
pub fn iana_zone(place: &str) -> Option<&'static str> {
    let key = normalize(place);
    if key.is_empty() {
        return None;
    }
    let (full, city) = index();
    if let Some(z) = full.get(&key) {
        // A region/city name, or a legacy single name ("Japan", "UTC").
        if z.contains('/') {
            return Some(z);
        }
        // A legacy name that is also a country's ("Japan") is the
        // country's canonical zone ("Asia/Tokyo").
        return city
            .get(&key)
            .copied()
            .or_else(|| country_zone(&key))
            .or(Some(z));
    }
    city.get(&key).copied().or_else(|| country_zone(&key))
}

/// The one zone of the country named `key` (normalized), if it has one.
fn country_zone(key: &str) -> Option<&'static str> {
    static C: OnceLock<BTreeMap<String, &'static str>> = OnceLock::new();
    C.get_or_init(|| {
        const ISO3166: &str = include_str!("../../data/tzdata/iso3166.tab");
        const ZONES: &str = include_str!("../../data/tzdata/zone.tab");
        let rows = |t: &'static str| {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(|l| l.split('\t').collect::<Vec<&'static str>>())
        };
        // Per country: its zones, and those the database's comment calls
        // the country's main one ("most of Germany", "Spain (mainland)").
        let mut zones: BTreeMap<&str, (Vec<&'static str>, Vec<&'static str>)> = BTreeMap::new();
        for r in rows(ZONES) {
            if let [code, _, zone, rest @ ..] = r.as_slice() {
                // Only zones this build's database knows.
                if let Ok(tz) = zone.parse::<chrono_tz::Tz>() {
                    let entry = zones.entry(code).or_default();
                    entry.0.push(tz.name());
                    let comment = rest.first().copied().unwrap_or("");
                    if comment.starts_with("most of ") || comment.ends_with("(mainland)") {
                        entry.1.push(tz.name());
                    }
                }
            }
        }
        rows(ISO3166)
            .filter_map(|r| match r.as_slice() {
                [code, name] => match zones.get(code) {
                    Some((all, _)) if all.len() == 1 => Some((normalize(name), all[0])),
                    Some((_, main)) if main.len() == 1 => Some((normalize(name), main[0])),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    })
    .get(key)
    .copied()
}

/// Lower case, spaces and hyphens as the database's underscores.
fn normalize(place: &str) -> String {
    place
        .trim()
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
        .replace([' ', '-'], "_")
}

/// Lower-cased name → zone.
type ZoneNames = BTreeMap<String, &'static str>;

/// (full name → zone, city → zone). A city appearing in several zones
/// keeps the first in the database's order among canonical regions.
fn index() -> &'static (ZoneNames, ZoneNames) {
    static I: OnceLock<(ZoneNames, ZoneNames)> = OnceLock::new();
    I.get_or_init(|| {
        const REGIONS: &[&str] = &[
            "Africa",
            "America",
            "Antarctica",
            "Asia",
            "Atlantic",
            "Australia",
            "Europe",
            "Indian",
            "Pacific",
        ];
        let mut full = BTreeMap::new();
        let mut city = BTreeMap::new();
        for tz in chrono_tz::TZ_VARIANTS.iter() {
            let name: &'static str = tz.name();
            full.insert(name.to_lowercase(), name);
            let mut parts = name.split('/');
            let region = parts.next().unwrap_or("");
            if !REGIONS.contains(&region) {
                continue;
            }
            if let Some(last) = name.rsplit('/').next() {
                city.entry(last.to_lowercase()).or_insert(name);
            }
        }
        (full, city)
    })
}

#[cfg(test)]
mod tests {
    use super::iana_zone;

    #[test]
    fn cities_and_full_names_are_zones() {
        assert_eq!(iana_zone("Tokyo"), Some("Asia/Tokyo"));
        assert_eq!(iana_zone("new york"), Some("America/New_York"));
        assert_eq!(iana_zone("Kolkata"), Some("Asia/Kolkata"));
        assert_eq!(iana_zone("Kathmandu"), Some("Asia/Kathmandu"));
        assert_eq!(iana_zone("europe/london"), Some("Europe/London"));
        assert_eq!(iana_zone("London"), Some("Europe/London"));
        assert_eq!(iana_zone("UTC"), Some("UTC"));
        assert_eq!(iana_zone("Atlantis"), None);
        // A country with one zone is that zone; with several, none.
        assert_eq!(iana_zone("India"), Some("Asia/Kolkata"));
        assert_eq!(iana_zone("Nepal"), Some("Asia/Kathmandu"));
        assert_eq!(iana_zone("United States"), None);
        assert_eq!(iana_zone("Australia"), None);
        // The country's main zone, as its database comment says.
        assert_eq!(iana_zone("Germany"), Some("Europe/Berlin"));
        assert_eq!(iana_zone("Spain"), Some("Europe/Madrid"));
        assert_eq!(iana_zone("Chile"), Some("America/Santiago"));
        // A legacy zone named like the country is its canonical zone.
        assert_eq!(iana_zone("Japan"), Some("Asia/Tokyo"));
        assert_eq!(iana_zone("india"), Some("Asia/Kolkata"));
        assert_eq!(iana_zone(""), None);
    }
}

//! Time-zone names: what a person says ("Tokyo", "New York", "Kolkata")
//! as the IANA name a tool wants ("Asia/Tokyo", "America/New_York").
//!
//! The names come from the IANA time-zone database as the `chrono-tz`
//! crate carries it, so every zone it knows is understood and none is
//! made up: a city is a zone when the database names a zone after it.
//! A country is a zone when the database gives it exactly one ("India" →
//! `Asia/Kolkata`, from the database's own `iso3166.tab` and `zone.tab`,
//! vendored in `data/tzdata/`); a country with several zones ("United
//! States") names none, and the user says which.

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
        return city.get(&key).copied().or(Some(z));
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
        let mut zones: BTreeMap<&str, Vec<&'static str>> = BTreeMap::new();
        for r in rows(ZONES) {
            if let [code, _, zone, ..] = r.as_slice() {
                // Only zones this build's database knows.
                if let Ok(tz) = zone.parse::<chrono_tz::Tz>() {
                    zones.entry(code).or_default().push(tz.name());
                }
            }
        }
        rows(ISO3166)
            .filter_map(|r| match r.as_slice() {
                [code, name] => match zones.get(code).map(Vec::as_slice) {
                    Some([one]) => Some((normalize(name), *one)),
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
        assert_eq!(iana_zone(""), None);
    }
}

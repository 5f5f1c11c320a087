//! Units of measure after a number: "10 meters", "20 Amperes", "70 kg",
//! "300K", "25 degrees Celsius".
//!
//! A number the goal states with a unit is one quantity: the unit is part
//! of the value, not a word a capability must account for. Where it may
//! go is stricter than for a bare number ([`fits`]): the parameter (or,
//! when the parameter says nothing, the capability) must name the unit or
//! its dimension, and must not name another unit of that dimension. So
//! "10 meters" fills `distance`, not `timeout`; "5 km" never fills a
//! parameter in miles (no conversion is guessed); and "add 5 km and 3
//! miles" is not served by `add two numbers`, which names no length.
//!
//! Durations (seconds, minutes, hours, days) are not here: they are their
//! own mention kind, converted to the unit a parameter wants.

use std::collections::BTreeSet;

use ccos_marketplace::search::analyze;

/// A unit: its canonical symbol, its dimension, the words that write it
/// (lower case, compared after a trailing '.' is cut) and the symbols
/// that may be attached to a number ("300K", "50km"; case-sensitive).
struct Unit {
    symbol: &'static str,
    dimension: &'static str,
    words: &'static [&'static str],
    attached: &'static [&'static str],
}

const UNITS: &[Unit] = &[
    unit(
        "m",
        "length",
        &["m", "meter", "meters", "metre", "metres"],
        &["m"],
    ),
    unit(
        "km",
        "length",
        &[
            "km",
            "kilometer",
            "kilometers",
            "kilometre",
            "kilometres",
            "kms",
        ],
        &["km"],
    ),
    unit(
        "cm",
        "length",
        &[
            "cm",
            "centimeter",
            "centimeters",
            "centimetre",
            "centimetres",
        ],
        &["cm"],
    ),
    unit(
        "mm",
        "length",
        &[
            "mm",
            "millimeter",
            "millimeters",
            "millimetre",
            "millimetres",
        ],
        &["mm"],
    ),
    unit("mi", "length", &["mi", "mile", "miles"], &["mi"]),
    unit("ft", "length", &["ft", "foot", "feet"], &["ft"]),
    unit("in", "length", &["inch", "inches"], &[]),
    unit("yd", "length", &["yd", "yard", "yards"], &["yd"]),
    unit(
        "kg",
        "mass",
        &["kg", "kgs", "kilogram", "kilograms", "kilo", "kilos"],
        &["kg"],
    ),
    unit("g", "mass", &["g", "gram", "grams"], &["g"]),
    unit("mg", "mass", &["mg", "milligram", "milligrams"], &["mg"]),
    unit(
        "lb",
        "mass",
        &["lb", "lbs", "pound", "pounds"],
        &["lb", "lbs"],
    ),
    unit("oz", "mass", &["oz", "ounce", "ounces"], &["oz"]),
    unit("t", "mass", &["ton", "tons", "tonne", "tonnes"], &[]),
    unit("K", "temperature", &["kelvin", "kelvins"], &["K"]),
    unit(
        "°C",
        "temperature",
        &["celsius", "°c", "degrees celsius", "degree celsius"],
        &["°C"],
    ),
    unit(
        "°F",
        "temperature",
        &[
            "fahrenheit",
            "°f",
            "degrees fahrenheit",
            "degree fahrenheit",
        ],
        &["°F"],
    ),
    unit(
        "A",
        "current",
        &["ampere", "amperes", "amp", "amps"],
        &["A"],
    ),
    unit(
        "mA",
        "current",
        &["milliampere", "milliamperes", "milliamp", "milliamps"],
        &["mA"],
    ),
    unit("C", "charge", &["coulomb", "coulombs"], &[]),
    unit("V", "voltage", &["volt", "volts"], &["V"]),
    unit("J", "energy", &["joule", "joules"], &["J"]),
    unit("kJ", "energy", &["kilojoule", "kilojoules", "kj"], &["kJ"]),
    unit(
        "cal",
        "energy",
        &["calorie", "calories", "cal", "kcal", "kilocalories"],
        &["kcal"],
    ),
    unit("kWh", "energy", &["kwh"], &["kWh"]),
    unit("W", "power", &["watt", "watts"], &["W"]),
    unit("kW", "power", &["kilowatt", "kilowatts", "kw"], &["kW"]),
    unit("Hz", "frequency", &["hz", "hertz"], &["Hz"]),
    unit("kHz", "frequency", &["khz", "kilohertz"], &["kHz"]),
    unit("MHz", "frequency", &["mhz", "megahertz"], &["MHz"]),
    unit("N", "force", &["newton", "newtons"], &["N"]),
    unit("Pa", "pressure", &["pascal", "pascals", "pa"], &["Pa"]),
    unit(
        "kPa",
        "pressure",
        &["kilopascal", "kilopascals", "kpa"],
        &["kPa"],
    ),
    unit(
        "atm",
        "pressure",
        &["atm", "atmosphere", "atmospheres"],
        &["atm"],
    ),
    unit("mol", "amount", &["mol", "mole", "moles"], &["mol"]),
    unit(
        "m2",
        "area",
        &["square meters", "square metres", "sq m", "m2", "m²"],
        &["m2", "m²"],
    ),
    unit(
        "ft2",
        "area",
        &["square feet", "square foot", "sq ft", "sqft", "ft2"],
        &["ft2"],
    ),
    unit(
        "km2",
        "area",
        &["square kilometers", "square kilometres", "km2", "km²"],
        &["km2", "km²"],
    ),
    unit("acre", "area", &["acre", "acres"], &[]),
    unit("ha", "area", &["hectare", "hectares"], &[]),
    unit(
        "l",
        "volume",
        &["l", "liter", "liters", "litre", "litres"],
        &["L"],
    ),
    unit(
        "ml",
        "volume",
        &[
            "ml",
            "milliliter",
            "milliliters",
            "millilitre",
            "millilitres",
        ],
        &["ml", "mL"],
    ),
    unit("gal", "volume", &["gal", "gallon", "gallons"], &["gal"]),
    unit(
        "m/s",
        "speed",
        &["m/s", "meters per second", "metres per second"],
        &["m/s"],
    ),
    unit(
        "km/h",
        "speed",
        &[
            "km/h",
            "kmh",
            "kph",
            "kilometers per hour",
            "kilometres per hour",
        ],
        &["km/h"],
    ),
    unit("mph", "speed", &["mph", "miles per hour"], &["mph"]),
    unit(
        "m/s2",
        "acceleration",
        &["m/s2", "m/s^2", "m/s²"],
        &["m/s2", "m/s^2", "m/s²"],
    ),
    unit("°", "angle", &["degree", "degrees", "deg", "°"], &["°"]),
    unit("rad", "angle", &["radian", "radians", "rad"], &["rad"]),
    unit("J/K", "entropy", &["j/k"], &["J/K"]),
    unit("ohm", "resistance", &["ohm", "ohms", "Ω"], &["Ω"]),
    unit(
        "kohm",
        "resistance",
        &["kilohm", "kilohms", "kiloohm", "kiloohms", "kΩ"],
        &["kΩ"],
    ),
    unit("s", "time", &["seconds", "secs", "sec"], &[]),
    unit("min", "time", &["minute", "minutes", "mins"], &[]),
    unit("h", "time", &["hour", "hours", "hrs"], &[]),
    unit("day", "time", &["day", "days"], &[]),
    unit("ms", "time", &["millisecond", "milliseconds", "msec"], &[]),
    unit("wk", "time", &["week", "weeks"], &[]),
    unit("mo", "time", &["month", "months"], &[]),
    unit("yr", "time", &["year", "years"], &[]),
    unit("decade", "time", &["decade", "decades"], &[]),
];

const fn unit(
    symbol: &'static str,
    dimension: &'static str,
    words: &'static [&'static str],
    attached: &'static [&'static str],
) -> Unit {
    Unit {
        symbol,
        dimension,
        words,
        attached,
    }
}

/// Words naming a dimension in a parameter's or capability's text
/// (compared after stemming).
const DIMENSION_WORDS: &[(&str, &[&str])] = &[
    (
        "length",
        &[
            "distance",
            "length",
            "height",
            "width",
            "depth",
            "radius",
            "diameter",
            "altitude",
            "elevation",
            "wavelength",
            "displacement",
            "perimeter",
            "circumference",
            "side",
            "base",
            "thickness",
        ],
    ),
    ("mass", &["mass", "weight"]),
    ("temperature", &["temperature", "temp"]),
    ("current", &["current"]),
    ("charge", &["charge"]),
    ("voltage", &["voltage"]),
    ("energy", &["energy", "heat"]),
    ("power", &["power"]),
    ("frequency", &["frequency"]),
    ("force", &["force"]),
    ("pressure", &["pressure"]),
    ("amount", &["moles", "mole", "amount"]),
    ("area", &["area"]),
    ("volume", &["volume"]),
    ("speed", &["speed", "velocity"]),
    ("acceleration", &["acceleration"]),
    ("angle", &["angle"]),
    ("entropy", &["entropy", "capacity"]),
    ("resistance", &["resistance", "impedance"]),
    (
        "time",
        &["time", "duration", "period", "age", "term", "tenure"],
    ),
];

/// The unit written by the words at the start of `words` (lower case), and
/// how many it takes: "square feet" (2), "meters" (1).
pub fn unit_words(words: &[Option<&str>]) -> Option<(&'static str, usize)> {
    let w = |k: usize| {
        words
            .get(k)
            .copied()
            .flatten()
            .map(|w| w.trim_end_matches('.'))
    };
    for n in [3, 2, 1] {
        let phrase: Option<Vec<&str>> = (0..n).map(w).collect();
        let Some(phrase) = phrase else { continue };
        let phrase = phrase.join(" ");
        if let Some(u) = UNITS.iter().find(|u| u.words.contains(&phrase.as_str())) {
            return Some((u.symbol, n));
        }
    }
    None
}

/// A word that is a number with a compound unit attached, which the
/// scanner keeps whole ("5J/K", "40m/s"): the number's text and the unit.
pub fn attached(word: &str) -> Option<(&str, &'static str)> {
    let word = word.trim_end_matches(['.', ',']);
    let at = word.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))?;
    let (num, suffix) = word.split_at(at);
    if num.is_empty() || !num.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    attached_symbol(suffix).map(|u| (num, u))
}

/// The unit whose symbol is `symbol` as written onto a number (the
/// scanner splits "300K" into "300" and "K"; case-sensitive: "K" is a
/// kelvin, "k" nothing).
pub fn attached_symbol(symbol: &str) -> Option<&'static str> {
    UNITS
        .iter()
        .find(|u| u.attached.contains(&symbol))
        .map(|u| u.symbol)
}

/// The dimension of the unit `symbol` ("cm" → length).
pub fn dimension_of(symbol: &str) -> Option<&'static str> {
    UNITS
        .iter()
        .find(|u| u.symbol == symbol)
        .map(|u| u.dimension)
}

/// Stems of each word naming a unit or a dimension in a text: (unit or
/// dimension, the stems of each of its words), computed once.
type Stemmed = Vec<(&'static str, Vec<Vec<String>>)>;

/// The stemmed words of [`UNITS`] (only alphabetic words of more than two
/// letters: "m" or "in" in a description names no unit, and "m/s" would
/// be found in "m/s^2") and of [`DIMENSION_WORDS`], computed once.
fn stemmed() -> &'static (Stemmed, Stemmed) {
    static S: std::sync::OnceLock<(Stemmed, Stemmed)> = std::sync::OnceLock::new();
    S.get_or_init(|| {
        let units = UNITS
            .iter()
            .map(|u| {
                let words = u
                    .words
                    .iter()
                    .filter(|w| {
                        w.len() > 2 && w.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
                    })
                    .map(|w| analyze(w))
                    .collect();
                (u.symbol, words)
            })
            .collect();
        let dims = DIMENSION_WORDS
            .iter()
            .map(|(d, words)| (*d, words.iter().map(|w| analyze(w)).collect()))
            .collect();
        (units, dims)
    })
}

/// The dimensions a text (its stemmed words) names, by a unit or a
/// dimension word ("Default is meters", "the temperature unit").
pub fn dimensions_named(stems: &BTreeSet<String>) -> BTreeSet<&'static str> {
    let (units, mut dims) = named(stems);
    dims.extend(units.iter().filter_map(|u| dimension_of(u)));
    dims
}

/// The units and dimensions a text names (its stemmed words).
fn named(stems: &BTreeSet<String>) -> (BTreeSet<&'static str>, BTreeSet<&'static str>) {
    let hits = |table: &'static Stemmed| -> BTreeSet<&'static str> {
        table
            .iter()
            .filter(|(_, words)| words.iter().any(|w| w.iter().all(|s| stems.contains(s))))
            .map(|(name, _)| *name)
            .collect()
    };
    let (units, dims) = stemmed();
    (hits(units), hits(dims))
}

/// How well a quantity in `unit` fits a numeric parameter whose name and
/// description (stemmed words) are `name` and `desc`, of a capability
/// whose text is `capability`: `Some(score)`, or `None` when it does not.
///
/// The most specific text that names a unit or a dimension decides: the
/// parameter's name, then its description, then (only for a parameter
/// whose name says nothing, such as `x` or `value`) the capability's.
/// - it names the unit: 2.0, above any bare number (1.0, 0.8, 0.7 by
///   level when it names the dimension);
/// - it names another unit of the same dimension ("in miles" for "5 km"):
///   no, a conversion is never guessed;
/// - it names another dimension (`resistance` for "5 amperes",
///   `specific_heat_capacity` for "30 degrees Celsius"), or a rate ("per
///   hour") for a quantity that is none: no;
/// - nothing names anything: no ("add 5 km and 3 miles" is not served
///   by `add two numbers`).
///
/// A unit of the quantity's dimension that the capability's text names
/// ("the area of a triangle in centimeters") also refuses another unit:
/// "6 inches" never goes in as 6.
pub fn fits(
    unit: &str,
    name: &BTreeSet<String>,
    desc: &BTreeSet<String>,
    capability: &BTreeSet<String>,
) -> Option<f64> {
    let dim = dimension_of(unit)?;
    let same_dim_other = |units: &BTreeSet<&str>| {
        !units.contains(unit) && units.iter().any(|u| dimension_of(u) == Some(dim))
    };
    let (name_units, name_dims) = named(name);
    let (desc_units, desc_dims) = named(desc);
    // A rate ("per hour") is no length or time.
    if (name.contains("per") || desc.contains("per")) && !matches!(dim, "speed" | "acceleration") {
        return None;
    }
    // A unit the parameter names anywhere decides, whatever the
    // capability's text says ("the *monthly* payment" of a loan whose
    // term is "in years").
    let units: BTreeSet<&str> = name_units.union(&desc_units).copied().collect();
    if units.contains(unit) {
        // Above any bare number: "10 years" goes into the parameter in
        // years before "4 … per year" does.
        return Some(EXACT);
    }
    let (cunits, cdims) = named(capability);
    if same_dim_other(&cunits) {
        return None;
    }
    if same_dim_other(&units) {
        return None;
    }
    // Then the dimension its name, else its description, names.
    if !name_units.is_empty() || !name_dims.is_empty() {
        return name_dims.contains(dim).then_some(1.0);
    }
    if !desc_units.is_empty() || !desc_dims.is_empty() {
        return desc_dims.contains(dim).then_some(0.8);
    }
    // A parameter whose name says nothing (`x`, `value`): the capability's.
    let generic = name
        .iter()
        .all(|w| w.len() <= 2 || GENERIC.contains(&w.as_str()));
    (generic && (cunits.contains(unit) || cdims.contains(dim))).then_some(0.7)
}

/// The score of a quantity in a parameter that names its very unit.
const EXACT: f64 = 2.0;

/// Parameter-name words that say nothing of what the value is.
const GENERIC: &[&str] = &[
    "valu", "value", "amount", "quantiti", "number", "input", "num",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(t: &str) -> BTreeSet<String> {
        analyze(t).into_iter().collect()
    }

    #[test]
    fn units_are_read_in_words_and_attached() {
        assert_eq!(unit_words(&[Some("meters"), Some("away")]), Some(("m", 1)));
        assert_eq!(
            unit_words(&[Some("square"), Some("feet"), Some("per")]),
            Some(("ft2", 2))
        );
        assert_eq!(
            unit_words(&[Some("degrees"), Some("celsius")]),
            Some(("°C", 2))
        );
        assert_eq!(unit_words(&[Some("amperes.")]), Some(("A", 1)));
        assert_eq!(unit_words(&[Some("apples")]), None);
        assert_eq!(attached("300K"), Some(("300", "K")));
        assert_eq!(attached("50km"), Some(("50", "km")));
        assert_eq!(attached("5J/K"), Some(("5", "J/K")));
        // Lower-case "k" is a thousand, not a kelvin: not a unit.
        assert_eq!(attached("5k"), None);
        assert_eq!(attached("km"), None);
    }

    #[test]
    fn a_quantity_goes_where_its_dimension_is_named() {
        let none = stems("");
        // The parameter names the dimension, in its name or description.
        assert_eq!(fits("m", &stems("distance"), &none, &none), Some(1.0));
        assert_eq!(
            fits(
                "m",
                &stems("d"),
                &stems("The perpendicular distance"),
                &none
            ),
            Some(0.8)
        );
        // ... or the unit.
        assert_eq!(
            fits("m", &stems("d"), &stems("distance in meters"), &none),
            Some(EXACT)
        );
        // Another unit of the same dimension: a conversion, refused.
        assert_eq!(
            fits("km", &stems("d"), &stems("distance in miles"), &none),
            None
        );
        // Another dimension.
        assert_eq!(
            fits("kg", &stems("timeout"), &stems("seconds to wait"), &none),
            None
        );
        assert_eq!(fits("kg", &stems("distance"), &none, &none), None);
        // The name says heat capacity; a temperature its description
        // mentions is not what it takes.
        assert_eq!(
            fits(
                "°C",
                &stems("specific_heat_capacity"),
                &stems("The specific heat capacity, in kJ/kg/K, at room temperature"),
                &none
            ),
            None
        );
        // "m/s" is not found in "m/s^2".
        assert_eq!(
            fits("m/s", &stems("acceleration"), &stems("in m/s^2"), &none),
            None
        );
        // A rate is no length: "7 km" is not a speed in kilometers per
        // hour, though its description says kilometers.
        assert_eq!(
            fits(
                "km",
                &stems("speed_kmh"),
                &stems("Speed in kilometers per hour"),
                &none
            ),
            None
        );
        // A resistance takes no amperes, though the capability's text
        // names a current.
        assert_eq!(
            fits(
                "A",
                &stems("resistance"),
                &stems("Resistance in ohms"),
                &stems("voltage from a current")
            ),
            None
        );
        // The capability names centimeters: inches are not put in as such.
        assert_eq!(
            fits(
                "in",
                &stems("base"),
                &none,
                &stems("Triangle area in centimeters")
            ),
            None
        );
        assert_eq!(
            fits(
                "cm",
                &stems("base"),
                &none,
                &stems("Triangle area in centimeters")
            ),
            Some(1.0)
        );
        // Nothing named: the capability must name the dimension.
        assert_eq!(
            fits("km", &stems("a"), &none, &stems("add two numbers")),
            None
        );
        assert!(
            fits(
                "A",
                &stems("i"),
                &none,
                &stems("magnetic field of a current")
            )
            .is_some()
        );
    }
}

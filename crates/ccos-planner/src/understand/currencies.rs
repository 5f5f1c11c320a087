//! Currencies named in words or by their code: "150 *Euros* to *Canadian
//! dollars*", "from *British pounds* to *Japanese yen*", "in *USD*".
//!
//! A currency is a value of its own (its ISO 4217 code), not a word a
//! capability must account for: "convert 150 Euros to Canadian dollars"
//! fills `from_currency: "EUR"` and `to_currency: "CAD"`. Only a
//! parameter that names a currency takes one (see `bind`). A currency
//! right after an amount ("a 10 dollar deposit") says what the amount is
//! in; it may go unused where no parameter takes a currency.
//!
//! A short table is written here rather than a currency crate: the
//! question is only which words name a currency, for the currencies
//! people name in requests. A bare "pound" is a weight ("2 pounds of
//! butter"): only "British pounds", "pounds sterling" or "GBP" name the
//! currency. Codes count only in capitals ("USD"; "rub" is a verb).

/// (ISO 4217 code, names in lower case, singular and plural).
const CURRENCIES: &[(&str, &[&str])] = &[
    (
        "USD",
        &[
            "us dollar",
            "us dollars",
            "u.s. dollar",
            "u.s. dollars",
            "united states dollar",
            "united states dollars",
            "american dollar",
            "american dollars",
            "dollar",
            "dollars",
        ],
    ),
    ("EUR", &["euro", "euros"]),
    (
        "GBP",
        &[
            "british pound",
            "british pounds",
            "pound sterling",
            "pounds sterling",
            "sterling",
        ],
    ),
    ("JPY", &["japanese yen", "yen"]),
    ("CAD", &["canadian dollar", "canadian dollars"]),
    ("AUD", &["australian dollar", "australian dollars"]),
    ("NZD", &["new zealand dollar", "new zealand dollars"]),
    ("HKD", &["hong kong dollar", "hong kong dollars"]),
    ("SGD", &["singapore dollar", "singapore dollars"]),
    ("CHF", &["swiss franc", "swiss francs"]),
    ("CNY", &["chinese yuan", "yuan", "renminbi"]),
    ("INR", &["indian rupee", "indian rupees", "rupee", "rupees"]),
    ("MXN", &["mexican peso", "mexican pesos"]),
    ("BRL", &["brazilian real", "brazilian reais"]),
    ("KRW", &["south korean won", "korean won"]),
    (
        "RUB",
        &["russian ruble", "russian rubles", "ruble", "rubles"],
    ),
    ("SEK", &["swedish krona", "swedish kronor"]),
    ("NOK", &["norwegian krone", "norwegian kroner"]),
    ("DKK", &["danish krone", "danish kroner"]),
    ("ZAR", &["south african rand", "south african rands"]),
];

/// The currency the words at the start of `words` name (lower case, a
/// trailing full stop cut) and how many words it takes, longest first:
/// "canadian dollars" (2) before "dollars" (1).
pub fn named(words: &[Option<&str>]) -> Option<(&'static str, usize)> {
    for n in [3, 2, 1] {
        let phrase: Option<Vec<&str>> = (0..n)
            .map(|k| {
                words
                    .get(k)
                    .copied()
                    .flatten()
                    .map(|w| w.trim_end_matches(['.', ',', '?', '!']))
            })
            .collect();
        let Some(phrase) = phrase else { continue };
        let phrase = phrase.join(" ");
        if let Some((code, _)) = CURRENCIES
            .iter()
            .find(|(_, names)| names.contains(&phrase.as_str()))
        {
            return Some((code, n));
        }
    }
    None
}

/// The currency a word written in capitals is the code of ("USD").
pub fn code(word: &str) -> Option<&'static str> {
    let w = word.trim_end_matches(['.', ',', '?', '!']);
    CURRENCIES.iter().map(|(c, _)| *c).find(|c| *c == w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(t: &str) -> Vec<String> {
        t.split_whitespace().map(str::to_lowercase).collect()
    }

    fn named_in(t: &str) -> Option<(&'static str, usize)> {
        let ws = words(t);
        let refs: Vec<Option<&str>> = ws.iter().map(|w| Some(w.as_str())).collect();
        named(&refs)
    }

    #[test]
    fn names_and_codes_are_currencies_and_a_pound_is_a_weight() {
        assert_eq!(named_in("Canadian dollars."), Some(("CAD", 2)));
        assert_eq!(named_in("dollars to"), Some(("USD", 1)));
        assert_eq!(named_in("Japanese Yen"), Some(("JPY", 2)));
        assert_eq!(named_in("British pounds"), Some(("GBP", 2)));
        assert_eq!(named_in("pounds of butter"), None);
        assert_eq!(named_in("euro"), Some(("EUR", 1)));
        assert_eq!(code("USD"), Some("USD"));
        assert_eq!(code("usd"), None);
        assert_eq!(code("RUB?"), Some("RUB"));
    }
}

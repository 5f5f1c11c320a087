//! The pure standard library.
//!
//! Every function here is pure: no I/O, no clock, no randomness. Sequence
//! functions (`map`, `filter`, `rest`, `keys`, `range`, `sort`, ...) return
//! vectors, which print and convert to JSON predictably. Errors name the
//! function and what it got: `+ expects a number, got string "a"`.
//!
//! Every function that builds a string or a collection knows (or bounds)
//! the size of what it builds before building it, and refuses beyond the
//! limits ([`crate::Limits`]); every function that copies, scans or
//! compares more than a few bytes is charged evaluation steps for it.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{ErrorKind, Result, RtfsError, Span};
use crate::eval::{Cx, Evaluator, brief};
use crate::value::{Function, Map, SLOT_BYTES, Value};

macro_rules! builtins {
    ($($variant:ident => $name:literal),* $(,)?) => {
        /// A function of the standard library.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(missing_docs)]
        pub enum Builtin { $($variant),* }

        impl Builtin {
            /// Every built-in function.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant),*];

            /// The name the function is bound to.
            pub fn name(self) -> &'static str {
                match self { $(Builtin::$variant => $name),* }
            }

            /// The built-in bound to `name`, if any.
            pub fn from_name(name: &str) -> Option<Builtin> {
                match name { $($name => Some(Builtin::$variant),)* _ => None }
            }
        }
    };
}

builtins! {
    Add => "+", Sub => "-", Mul => "*", Div => "/", Mod => "mod",
    Inc => "inc", Dec => "dec", Max => "max", Min => "min", Abs => "abs",
    Lt => "<", Gt => ">", Le => "<=", Ge => ">=", Eq => "=", NotEq => "not=",
    Not => "not", IsNil => "nil?", IsSome => "some?", IsEmpty => "empty?",
    IsString => "string?", IsNumber => "number?", IsInt => "int?", IsFloat => "float?",
    IsBool => "boolean?", IsKeyword => "keyword?", IsMap => "map?", IsVector => "vector?",
    IsSeq => "seq?", IsFn => "fn?",
    Count => "count", Str => "str", Get => "get", GetIn => "get-in", Assoc => "assoc",
    Dissoc => "dissoc", Merge => "merge", Keys => "keys", Vals => "vals",
    SelectKeys => "select-keys", Zipmap => "zipmap",
    Contains => "contains?", Conj => "conj", Into => "into", Concat => "concat",
    First => "first", Second => "second", Last => "last", Rest => "rest", Nth => "nth",
    Take => "take", Drop => "drop", Reverse => "reverse", Distinct => "distinct",
    MapFn => "map", Filter => "filter", Remove => "remove", Reduce => "reduce",
    Every => "every?", Apply => "apply", Identity => "identity",
    Range => "range", Sort => "sort", SortBy => "sort-by",
    List => "list", Vector => "vector", HashMap => "hash-map",
    Keyword => "keyword", Name => "name",
    ParseInt => "parse-int", ParseFloat => "parse-float", ParseJson => "parse-json", ToJson => "to-json",
    Split => "split", Join => "join", UpperCase => "upper-case", LowerCase => "lower-case",
    Trim => "trim", Includes => "includes?", StartsWith => "starts-with?", EndsWith => "ends-with?",
    Subs => "subs", Replace => "replace",
    // Names of the reference language (RTFS 2.0) for functions above:
    // same behaviour, their own name in messages.
    IsBoolAlias => "bool?", IsStringAlias => "string-p", NotEqAlias => "!=",
    Substring => "substring", StringContains => "string-contains",
    StringContainsQ => "string-contains?", StringLength => "string-length", Length => "length",
    StringJoin => "string-join", StringUpper => "string-upper", StringLower => "string-lower",
    StringTrim => "string-trim", SerializeJson => "serialize-json",
    // Functions of the reference language's standard library.
    TypeName => "type-name", ToInt => "int", ToFloat => "float",
    IsSymbol => "symbol?", IsList => "list?", IsEven => "even?", IsOdd => "odd?",
    IsZero => "zero?", IsPos => "pos?", IsNeg => "neg?",
    Sqrt => "sqrt", Pow => "pow", Factorial => "factorial",
    Update => "update", UpdateIn => "update-in", AssocIn => "assoc-in", Cons => "cons",
    Partition => "partition", PartitionAll => "partition-all", GroupBy => "group-by",
    Frequencies => "frequencies", Subvec => "subvec", MapIndexed => "map-indexed",
    Find => "find", Deref => "deref",
}

/// The built-in or special-form name closest to `name` (for "did you mean").
pub fn closest_name(name: &str) -> Option<&'static str> {
    let len = name.chars().count();
    Builtin::ALL
        .iter()
        .map(|b| b.name())
        // The distance is at least the difference in length: names too
        // far apart in length are not compared (a 10 MB symbol costs
        // nothing).
        .filter(|n| len.abs_diff(n.chars().count()) <= 2.max(n.len() / 3))
        .map(|n| (edit_distance(name, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 3))
        .min()
        .map(|(_, n)| n)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

fn arity(name: &str, expected: &str, got: usize, span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::Arity,
        format!("{name} expects {expected}, got {got} argument(s)"),
    )
    .at(span)
}

fn type_err(name: &str, expected: &str, got: &Value, span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::Type,
        format!(
            "{name} expects {expected}, got {} {}",
            got.type_name(),
            brief(got)
        ),
    )
    .at(span)
}

fn overflow(name: &str, span: Span) -> RtfsError {
    RtfsError::new(ErrorKind::Overflow, format!("integer overflow in {name}"))
        .at(span)
        .with_help("use floats (e.g. 1.0) for values beyond 64-bit integers")
}

fn div_zero(name: &str, span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::DivisionByZero,
        format!("division by zero in {name}"),
    )
    .at(span)
}

#[derive(Clone, Copy)]
enum Num {
    I(i64),
    F(f64),
}

impl Num {
    fn f(self) -> f64 {
        match self {
            Num::I(i) => i as f64,
            Num::F(f) => f,
        }
    }
    fn value(self) -> Value {
        match self {
            Num::I(i) => Value::Int(i),
            Num::F(f) => Value::Float(f),
        }
    }
}

fn num(name: &str, v: &Value, span: Span) -> Result<Num> {
    match v {
        Value::Int(i) => Ok(Num::I(*i)),
        Value::Float(f) => Ok(Num::F(*f)),
        other => Err(type_err(name, "a number", other, span)),
    }
}

fn int(name: &str, v: &Value, span: Span) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        other => Err(type_err(name, "an integer", other, span)),
    }
}

fn string<'a>(name: &str, v: &'a Value, span: Span) -> Result<&'a str> {
    match v {
        Value::Str(s) => Ok(s),
        other => Err(type_err(name, "a string", other, span)),
    }
}

/// Elements of a sequential value: a list's or vector's are borrowed; nil
/// is empty; a string gives its characters and a map its `[k v]` pairs,
/// both built, so counted against the element limit and charged.
pub(crate) fn seq<'a>(
    ev: &Evaluator<'_>,
    name: &str,
    v: &'a Value,
    span: Span,
) -> Result<Cow<'a, [Value]>> {
    Ok(match v {
        Value::Nil => Cow::Borrowed(&[]),
        Value::List(x) | Value::Vector(x) => Cow::Borrowed(x.as_slice()),
        Value::Map(m) => {
            ev.check_size(m.len(), span)?;
            ev.charge_elements(m.len().saturating_mul(3), span)?;
            Cow::Owned(
                m.iter()
                    .map(|(k, v)| Value::vector(vec![k.clone(), v.clone()]))
                    .collect(),
            )
        }
        Value::Str(s) => {
            ev.charge_bytes(s.len() as u64, span)?;
            let n = s.chars().count();
            ev.check_size(n, span)?;
            ev.charge_elements(n, span)?;
            Cow::Owned(s.chars().map(char_value).collect())
        }
        other => return Err(type_err(name, "a collection", other, span)),
    })
}

/// A one-character string.
fn char_value(c: char) -> Value {
    Value::Str(Arc::from(&*c.encode_utf8(&mut [0; 4])))
}

/// The `i`-th element of a sequential value without materialising it
/// (a string's characters are scanned, and charged); `Ok(None)` past the
/// end.
fn nth_item(
    ev: &Evaluator<'_>,
    name: &str,
    v: &Value,
    i: usize,
    span: Span,
) -> Result<Option<Value>> {
    Ok(match v {
        Value::Nil => None,
        Value::List(x) | Value::Vector(x) => x.get(i).cloned(),
        Value::Str(s) => {
            ev.charge_bytes(s.len() as u64, span)?;
            s.chars().nth(i).map(char_value)
        }
        Value::Map(m) => m
            .iter()
            .nth(i)
            .map(|(k, v)| Value::vector(vec![k.clone(), v.clone()])),
        other => return Err(type_err(name, "a collection", other, span)),
    })
}

/// The number of elements [`seq`] would give, without materialising them.
fn seq_len(ev: &Evaluator<'_>, name: &str, v: &Value, span: Span) -> Result<usize> {
    Ok(match v {
        Value::Nil => 0,
        Value::List(x) | Value::Vector(x) => x.len(),
        Value::Map(m) => m.len(),
        Value::Str(s) => {
            ev.charge_bytes(s.len() as u64, span)?;
            s.chars().count()
        }
        other => return Err(type_err(name, "a collection", other, span)),
    })
}

/// The total logical size of `items`.
fn total_size<'v>(items: impl IntoIterator<Item = &'v Value>) -> u64 {
    items
        .into_iter()
        .fold(0u64, |acc, v| acc.saturating_add(v.logical_size()))
}

/// The most bytes a string built by `str`, `join` or `replace` may have.
fn built_string_max(ev: &Evaluator<'_>) -> usize {
    let l = ev.limits();
    let by_value = l.max_value_bytes.saturating_sub(SLOT_BYTES);
    usize::try_from(by_value)
        .unwrap_or(usize::MAX)
        .min(l.max_collection_size)
}

/// Refuses a string of `len` bytes built by `str`, `join` or `replace`
/// (the element limit counts its bytes, and the value limit applies).
fn check_built_string(ev: &Evaluator<'_>, len: u64, span: Span) -> Result<()> {
    ev.check_size(usize::try_from(len).unwrap_or(usize::MAX), span)?;
    ev.check_string_len(len, span)
}

/// The error for a string that would pass `max` bytes (its exact length
/// unknown because building it stopped there).
fn string_too_long(max: usize, span: Span) -> RtfsError {
    RtfsError::new(
        ErrorKind::Limit,
        format!("collection size limit exceeded (a string of more than {max} bytes)"),
    )
    .at(span)
}

/// Appends `s` to a string being built, refusing to pass `max` bytes.
fn push_raw(out: &mut String, s: &str, max: usize, span: Span) -> Result<()> {
    if out.len().saturating_add(s.len()) > max {
        return Err(string_too_long(max, span));
    }
    out.push_str(s);
    Ok(())
}

/// Appends what `str` contributes for a value (strings raw, nil nothing,
/// others their canonical form) to a string being built, refusing to pass
/// `max` bytes; a value's printed form is produced only up to the limit.
fn push_display(out: &mut String, v: &Value, max: usize, span: Span) -> Result<()> {
    match v {
        Value::Nil => Ok(()),
        Value::Str(s) => push_raw(out, s, max, span),
        other => {
            let room = max.saturating_sub(out.len());
            match crate::printer::print_value_within(other, room) {
                Some(p) => {
                    out.push_str(&p);
                    Ok(())
                }
                None => Err(string_too_long(max, span)),
            }
        }
    }
}

/// Charges the comparisons of looking `key` up in a collection of `n`
/// elements (each comparison is bounded by the key's size).
fn charge_lookup(ev: &Evaluator<'_>, key: &Value, n: usize, span: Span) -> Result<()> {
    ev.charge_ordering(key.logical_size(), n, span)
}

/// [`get`], charged for the lookup.
pub(crate) fn get_charged(
    ev: &Evaluator<'_>,
    coll: &Value,
    key: &Value,
    span: Span,
) -> Result<Option<Value>> {
    match coll {
        Value::Map(m) => charge_lookup(ev, key, m.len(), span)?,
        Value::Str(s) => ev.charge_bytes(s.len() as u64, span)?,
        _ => {}
    }
    Ok(get(coll, key))
}

/// A map from entries, refused beyond the limits and charged for the
/// comparisons of inserting them.
fn map_from(
    ev: &Evaluator<'_>,
    entries: impl IntoIterator<Item = (Value, Value)>,
    span: Span,
) -> Result<Value> {
    let mut m = Map::new();
    let mut key_bytes = 0u64;
    for (k, v) in entries {
        key_bytes = key_bytes.saturating_add(k.logical_size());
        m.insert(k, v);
        ev.check_size(m.len(), span)?;
    }
    ev.charge_ordering(key_bytes, m.len(), span)?;
    ev.map(m, span)
}

fn map_arg<'a>(name: &str, v: &'a Value, span: Span) -> Result<Option<&'a Map>> {
    match v {
        Value::Nil => Ok(None),
        Value::Map(m) => Ok(Some(m)),
        other => Err(type_err(name, "a map", other, span)),
    }
}

fn arith(
    name: &str,
    args: &[Value],
    span: Span,
    op: fn(i64, i64) -> Option<i64>,
    fop: fn(f64, f64) -> f64,
) -> Result<Value> {
    let mut acc = num(name, &args[0], span)?;
    for a in &args[1..] {
        let b = num(name, a, span)?;
        acc = match (acc, b) {
            (Num::I(x), Num::I(y)) => Num::I(op(x, y).ok_or_else(|| overflow(name, span))?),
            (x, y) => Num::F(fop(x.f(), y.f())),
        };
    }
    Ok(acc.value())
}

fn divide(a: Num, b: Num, span: Span) -> Result<Num> {
    match (a, b) {
        (_, Num::I(0)) => Err(div_zero("/", span)),
        (_, Num::F(0.0)) => Err(div_zero("/", span)),
        (Num::I(x), Num::I(-1)) => Ok(Num::I(x.checked_neg().ok_or_else(|| overflow("/", span))?)),
        (Num::I(x), Num::I(y)) => {
            if x % y == 0 {
                Ok(Num::I(x.checked_div(y).ok_or_else(|| overflow("/", span))?))
            } else {
                Ok(Num::F(x as f64 / y as f64))
            }
        }
        (x, y) => Ok(Num::F(x.f() / y.f())),
    }
}

fn compare_chain(
    name: &str,
    args: &[Value],
    span: Span,
    ok: fn(std::cmp::Ordering) -> bool,
) -> Result<Value> {
    let nums = args
        .iter()
        .map(|a| num(name, a, span))
        .collect::<Result<Vec<_>>>()?;
    Ok(Value::Bool(nums.windows(2).all(|w| {
        let ord = match (w[0], w[1]) {
            (Num::I(x), Num::I(y)) => x.cmp(&y),
            (x, y) => x
                .f()
                .partial_cmp(&y.f())
                .unwrap_or(std::cmp::Ordering::Equal),
        };
        ok(ord)
    })))
}

/// `(get coll key)`: map lookup, or index into a vector, list or string.
pub(crate) fn get(coll: &Value, key: &Value) -> Option<Value> {
    match (coll, key) {
        (Value::Map(m), k) => m.get(k).cloned(),
        (Value::Vector(v) | Value::List(v), Value::Int(i)) => {
            usize::try_from(*i).ok().and_then(|i| v.get(i)).cloned()
        }
        (Value::Str(s), Value::Int(i)) => usize::try_from(*i)
            .ok()
            .and_then(|i| s.chars().nth(i))
            .map(char_value),
        _ => None,
    }
}

fn bool_of(
    ev: &Evaluator<'_>,
    f: &Value,
    args: Vec<Value>,
    span: Span,
    cx: Cx<'_>,
) -> Result<bool> {
    Ok(apply(ev, f, args, span, cx)?.is_truthy())
}

/// Applies a function argument of a higher-order built-in (`map`,
/// `reduce`, ...), charged one evaluation step like an expression.
fn apply(ev: &Evaluator<'_>, f: &Value, args: Vec<Value>, span: Span, cx: Cx<'_>) -> Result<Value> {
    ev.charge(1, span)?;
    ev.apply(f, args, span, cx)
}

/// Calls built-in `b` with evaluated arguments.
pub(crate) fn call(
    ev: &Evaluator<'_>,
    b: Builtin,
    args: Vec<Value>,
    span: Span,
    cx: Cx<'_>,
) -> Result<Value> {
    use Builtin::*;
    let name = b.name();
    let n = args.len();
    let exactly = |k: usize| -> Result<()> {
        if n == k {
            Ok(())
        } else {
            Err(arity(name, &format!("{k} argument(s)"), n, span))
        }
    };
    let between = |lo: usize, hi: usize| -> Result<()> {
        if (lo..=hi).contains(&n) {
            Ok(())
        } else {
            Err(arity(name, &format!("{lo} to {hi} arguments"), n, span))
        }
    };
    let at_least = |lo: usize| -> Result<()> {
        if n >= lo {
            Ok(())
        } else {
            Err(arity(name, &format!("at least {lo} argument(s)"), n, span))
        }
    };
    let out_vec = |items: Vec<Value>| -> Result<Value> { ev.vector(items, span) };
    match b {
        Add => {
            if n == 0 {
                return Ok(Value::Int(0));
            }
            arith(name, &args, span, i64::checked_add, |a, b| a + b)
        }
        Mul => {
            if n == 0 {
                return Ok(Value::Int(1));
            }
            arith(name, &args, span, i64::checked_mul, |a, b| a * b)
        }
        Sub => {
            at_least(1)?;
            if n == 1 {
                return match num(name, &args[0], span)? {
                    Num::I(i) => i
                        .checked_neg()
                        .map(Value::Int)
                        .ok_or_else(|| overflow(name, span)),
                    Num::F(f) => Ok(Value::Float(-f)),
                };
            }
            arith(name, &args, span, i64::checked_sub, |a, b| a - b)
        }
        Div => {
            at_least(1)?;
            let first = num(name, &args[0], span)?;
            if n == 1 {
                return Ok(divide(Num::I(1), first, span)?.value());
            }
            let mut acc = first;
            for a in &args[1..] {
                acc = divide(acc, num(name, a, span)?, span)?;
            }
            Ok(acc.value())
        }
        Mod => {
            exactly(2)?;
            match (num(name, &args[0], span)?, num(name, &args[1], span)?) {
                (_, Num::I(0)) => Err(div_zero(name, span)),
                (_, Num::F(0.0)) => Err(div_zero(name, span)),
                (Num::I(x), Num::I(y)) => {
                    let r = x.checked_rem(y).unwrap_or(0);
                    Ok(Value::Int(if r != 0 && ((r < 0) != (y < 0)) {
                        r + y
                    } else {
                        r
                    }))
                }
                (x, y) => {
                    let (x, y) = (x.f(), y.f());
                    let r = x % y;
                    Ok(Value::Float(if r != 0.0 && ((r < 0.0) != (y < 0.0)) {
                        r + y
                    } else {
                        r
                    }))
                }
            }
        }
        Inc | Dec => {
            exactly(1)?;
            let d = if b == Inc { 1 } else { -1 };
            match num(name, &args[0], span)? {
                Num::I(i) => i
                    .checked_add(d)
                    .map(Value::Int)
                    .ok_or_else(|| overflow(name, span)),
                Num::F(f) => Ok(Value::Float(f + d as f64)),
            }
        }
        Max | Min => {
            at_least(1)?;
            let mut best = num(name, &args[0], span)?;
            for a in &args[1..] {
                let x = num(name, a, span)?;
                let better = if b == Max {
                    x.f() > best.f()
                } else {
                    x.f() < best.f()
                };
                if better {
                    best = x;
                }
            }
            Ok(best.value())
        }
        Abs => {
            exactly(1)?;
            match num(name, &args[0], span)? {
                Num::I(i) => i
                    .checked_abs()
                    .map(Value::Int)
                    .ok_or_else(|| overflow(name, span)),
                Num::F(f) => Ok(Value::Float(f.abs())),
            }
        }
        Lt => {
            at_least(1)?;
            compare_chain(name, &args, span, |o| o.is_lt())
        }
        Gt => {
            at_least(1)?;
            compare_chain(name, &args, span, |o| o.is_gt())
        }
        Le => {
            at_least(1)?;
            compare_chain(name, &args, span, |o| o.is_le())
        }
        Ge => {
            at_least(1)?;
            compare_chain(name, &args, span, |o| o.is_ge())
        }
        Eq | NotEq | NotEqAlias => {
            at_least(1)?;
            // A comparison visits at most the smaller value.
            for w in args.windows(2) {
                ev.charge_bytes(w[0].logical_size().min(w[1].logical_size()), span)?;
            }
            let all_equal = args.windows(2).all(|w| w[0] == w[1]);
            Ok(Value::Bool(all_equal == (b == Eq)))
        }
        Not => {
            exactly(1)?;
            Ok(Value::Bool(!args[0].is_truthy()))
        }
        IsNil | IsSome | IsString | IsStringAlias | IsNumber | IsInt | IsFloat | IsBool
        | IsBoolAlias | IsKeyword | IsSymbol | IsMap | IsVector | IsList | IsSeq | IsFn => {
            exactly(1)?;
            let v = &args[0];
            Ok(Value::Bool(match b {
                IsNil => matches!(v, Value::Nil),
                IsSome => !matches!(v, Value::Nil),
                IsString | IsStringAlias => matches!(v, Value::Str(_)),
                IsNumber => matches!(v, Value::Int(_) | Value::Float(_)),
                IsInt => matches!(v, Value::Int(_)),
                IsFloat => matches!(v, Value::Float(_)),
                IsBool | IsBoolAlias => matches!(v, Value::Bool(_)),
                IsSymbol => matches!(v, Value::Symbol(_)),
                IsList => matches!(v, Value::List(_)),
                IsKeyword => matches!(v, Value::Keyword(_)),
                IsMap => matches!(v, Value::Map(_)),
                IsVector => matches!(v, Value::Vector(_)),
                IsSeq => matches!(v, Value::List(_) | Value::Vector(_)),
                _ => matches!(v, Value::Function(_)),
            }))
        }
        IsEmpty => {
            exactly(1)?;
            Ok(Value::Bool(match &args[0] {
                Value::Nil => true,
                Value::Str(s) => s.is_empty(),
                Value::List(v) | Value::Vector(v) => v.is_empty(),
                Value::Map(m) => m.is_empty(),
                other => return Err(type_err(name, "a collection or string", other, span)),
            }))
        }
        Count | Length => {
            exactly(1)?;
            let c = match &args[0] {
                Value::Nil => 0,
                Value::Str(s) => {
                    ev.charge_bytes(s.len() as u64, span)?;
                    s.chars().count()
                }
                Value::List(v) | Value::Vector(v) => v.len(),
                Value::Map(m) => m.len(),
                other => return Err(type_err(name, "a collection or string", other, span)),
            };
            Ok(Value::Int(c as i64))
        }
        Str => {
            let max = built_string_max(ev);
            let mut out = String::new();
            for a in &args {
                push_display(&mut out, a, max, span)?;
            }
            ev.string(out, span)
        }
        Get => {
            between(2, 3)?;
            Ok(get_charged(ev, &args[0], &args[1], span)?
                .unwrap_or_else(|| args.get(2).cloned().unwrap_or(Value::Nil)))
        }
        GetIn => {
            between(2, 3)?;
            let path = seq(ev, name, &args[1], span)?;
            let mut cur = Some(args[0].clone());
            for k in path.iter() {
                cur = match cur {
                    Some(c) => get_charged(ev, &c, k, span)?,
                    None => None,
                };
            }
            Ok(cur.unwrap_or_else(|| args.get(2).cloned().unwrap_or(Value::Nil)))
        }
        Assoc => {
            if n < 3 || n.is_multiple_of(2) {
                return Err(arity(name, "a collection and key/value pairs", n, span));
            }
            match &args[0] {
                Value::Nil | Value::Map(_) => {
                    let mut m = map_arg(name, &args[0], span)?.cloned().unwrap_or_default();
                    ev.charge_elements(m.len().saturating_mul(2), span)?;
                    for kv in args[1..].chunks(2) {
                        charge_lookup(ev, &kv[0], m.len(), span)?;
                        m.insert(kv[0].clone(), kv[1].clone());
                    }
                    ev.map(m, span)
                }
                Value::Vector(v) => {
                    ev.charge_elements(v.len(), span)?;
                    let mut v = v.to_vec();
                    for kv in args[1..].chunks(2) {
                        let i = int(name, &kv[0], span)?;
                        match usize::try_from(i) {
                            Ok(i) if i < v.len() => v[i] = kv[1].clone(),
                            Ok(i) if i == v.len() => v.push(kv[1].clone()),
                            _ => {
                                return Err(RtfsError::new(
                                    ErrorKind::Index,
                                    format!(
                                        "assoc index {i} out of range for a vector of {}",
                                        v.len()
                                    ),
                                )
                                .at(span));
                            }
                        }
                    }
                    out_vec(v)
                }
                other => Err(type_err(name, "a map or vector", other, span)),
            }
        }
        Dissoc => {
            at_least(1)?;
            let Some(m) = map_arg(name, &args[0], span)? else {
                return Ok(Value::Nil);
            };
            ev.charge_elements(m.len().saturating_mul(2), span)?;
            let mut m = m.clone();
            for k in &args[1..] {
                charge_lookup(ev, k, m.len(), span)?;
                m.remove(k);
            }
            ev.map(m, span)
        }
        Merge => {
            let mut out: Option<Map> = None;
            let mut size = SLOT_BYTES;
            for a in &args {
                if let Some(m) = map_arg(name, a, span)? {
                    // Bounded before copying: the result is at most the sum.
                    size = size.saturating_add(a.logical_size());
                    if size > ev.limits().max_value_bytes {
                        return Err(crate::value::value_too_large(
                            size,
                            ev.limits().max_value_bytes,
                        )
                        .at(span));
                    }
                    let acc = out.get_or_insert_with(Map::new);
                    ev.charge_ordering(a.logical_size(), acc.len() + m.len(), span)?;
                    for (k, v) in m.iter() {
                        acc.insert(k.clone(), v.clone());
                    }
                    ev.check_size(acc.len(), span)?;
                }
            }
            match out {
                Some(m) => ev.map(m, span),
                None => Ok(Value::Nil),
            }
        }
        Keys | Vals => {
            exactly(1)?;
            let Some(m) = map_arg(name, &args[0], span)? else {
                return Ok(Value::vector(vec![]));
            };
            ev.vector(
                if b == Keys {
                    m.keys().cloned().collect()
                } else {
                    m.values().cloned().collect()
                },
                span,
            )
        }
        SelectKeys => {
            exactly(2)?;
            let m = map_arg(name, &args[0], span)?;
            let ks = seq(ev, name, &args[1], span)?;
            let mut out = Vec::new();
            for k in ks.iter() {
                if let Some(m) = m {
                    charge_lookup(ev, k, m.len(), span)?;
                    if let Some(v) = m.get(k) {
                        out.push((k.clone(), v.clone()));
                    }
                }
            }
            map_from(ev, out, span)
        }
        Zipmap => {
            exactly(2)?;
            let ks = seq(ev, name, &args[0], span)?;
            let vs = seq(ev, name, &args[1], span)?;
            // Bounded before building: the map is at most the sum of both.
            let size = total_size(ks.iter()).saturating_add(total_size(vs.iter()));
            if size > ev.limits().max_value_bytes {
                return Err(
                    crate::value::value_too_large(size, ev.limits().max_value_bytes).at(span),
                );
            }
            map_from(ev, ks.iter().cloned().zip(vs.iter().cloned()), span)
        }
        Contains => {
            exactly(2)?;
            Ok(Value::Bool(match &args[0] {
                Value::Nil => false,
                Value::Map(m) => {
                    charge_lookup(ev, &args[1], m.len(), span)?;
                    m.contains_key(&args[1])
                }
                Value::Vector(v) | Value::List(v) => {
                    matches!(&args[1], Value::Int(i) if usize::try_from(*i).is_ok_and(|i| i < v.len()))
                }
                other => return Err(type_err(name, "a map or vector", other, span)),
            }))
        }
        Conj => {
            at_least(1)?;
            match &args[0] {
                Value::Nil | Value::List(_) => {
                    let old = seq(ev, name, &args[0], span)?;
                    ev.check_size(old.len().saturating_add(n - 1), span)?;
                    let mut v = Vec::with_capacity(old.len() + n - 1);
                    v.extend(args[1..].iter().rev().cloned());
                    v.extend(old.iter().cloned());
                    ev.list(v, span)
                }
                Value::Vector(v) => {
                    ev.check_size(v.len().saturating_add(n - 1), span)?;
                    let mut v = v.to_vec();
                    v.extend(args[1..].iter().cloned());
                    out_vec(v)
                }
                Value::Map(m) => {
                    ev.charge_elements(m.len().saturating_mul(2), span)?;
                    let mut m = m.as_ref().clone();
                    for x in &args[1..] {
                        match x {
                            Value::Map(other) => {
                                ev.charge_ordering(x.logical_size(), m.len() + other.len(), span)?;
                                m.extend(other.iter().map(|(k, v)| (k.clone(), v.clone())));
                                ev.check_size(m.len(), span)?;
                            }
                            Value::Vector(kv) if kv.len() == 2 => {
                                charge_lookup(ev, &kv[0], m.len(), span)?;
                                m.insert(kv[0].clone(), kv[1].clone());
                                ev.check_size(m.len(), span)?;
                            }
                            other => {
                                return Err(type_err(
                                    name,
                                    "a [key value] pair or a map to add to a map",
                                    other,
                                    span,
                                ));
                            }
                        }
                    }
                    ev.map(m, span)
                }
                other => Err(type_err(name, "a collection", other, span)),
            }
        }
        Into => {
            exactly(2)?;
            let items = seq(ev, name, &args[1], span)?;
            ev.check_size(items.len().saturating_add(1), span)?;
            let mut all = Vec::with_capacity(items.len() + 1);
            all.push(args[0].clone());
            all.extend(items.iter().cloned());
            call(ev, Conj, all, span, cx)
        }
        Concat => {
            let mut out = ev.builder(span);
            for a in &args {
                for x in seq(ev, name, a, span)?.iter() {
                    out.push(x.clone())?;
                }
            }
            out.vector()
        }
        First | Second | Last => {
            exactly(1)?;
            let i = match b {
                First => Some(0),
                Second => Some(1),
                _ => seq_len(ev, name, &args[0], span)?.checked_sub(1),
            };
            Ok(match i {
                Some(i) => nth_item(ev, name, &args[0], i, span)?,
                None => None,
            }
            .unwrap_or(Value::Nil))
        }
        Rest => {
            exactly(1)?;
            let s = seq(ev, name, &args[0], span)?;
            ev.vector(s.iter().skip(1).cloned().collect(), span)
        }
        Nth => {
            between(2, 3)?;
            let i = int(name, &args[1], span)?;
            let found = match usize::try_from(i) {
                Ok(i) => nth_item(ev, name, &args[0], i, span)?,
                Err(_) => {
                    seq_len(ev, name, &args[0], span)?;
                    None
                }
            };
            match found {
                Some(v) => Ok(v),
                None => match args.get(2) {
                    Some(d) => Ok(d.clone()),
                    None => Err(RtfsError::new(
                        ErrorKind::Index,
                        format!(
                            "nth index {i} out of range for a collection of {}",
                            seq_len(ev, name, &args[0], span)?
                        ),
                    )
                    .at(span)),
                },
            }
        }
        Take | Drop => {
            exactly(2)?;
            let k = int(name, &args[0], span)?.max(0) as usize;
            let s = seq(ev, name, &args[1], span)?;
            ev.vector(
                if b == Take {
                    s.iter().take(k).cloned().collect()
                } else {
                    s.iter().skip(k).cloned().collect()
                },
                span,
            )
        }
        Reverse => {
            exactly(1)?;
            let s = seq(ev, name, &args[0], span)?;
            ev.vector(s.iter().rev().cloned().collect(), span)
        }
        Distinct => {
            exactly(1)?;
            let s = seq(ev, name, &args[0], span)?;
            ev.charge_ordering(total_size(s.iter()), s.len(), span)?;
            let mut seen = BTreeSet::new();
            ev.vector(
                s.iter().filter(|v| seen.insert(*v)).cloned().collect(),
                span,
            )
        }
        MapFn => {
            at_least(2)?;
            let f = &args[0];
            let colls = args[1..]
                .iter()
                .map(|c| seq(ev, name, c, span))
                .collect::<Result<Vec<_>>>()?;
            let len = colls.iter().map(|c| c.len()).min().unwrap_or(0);
            let mut out = ev.builder(span);
            for i in 0..len {
                let call_args = colls.iter().map(|c| c[i].clone()).collect();
                out.push(apply(ev, f, call_args, span, cx)?)?;
            }
            out.vector()
        }
        Filter | Remove => {
            exactly(2)?;
            let s = seq(ev, name, &args[1], span)?;
            let mut out = ev.builder(span);
            for x in s.iter() {
                if bool_of(ev, &args[0], vec![x.clone()], span, cx)? == (b == Filter) {
                    out.push(x.clone())?;
                }
            }
            out.vector()
        }
        Every => {
            exactly(2)?;
            for x in seq(ev, name, &args[1], span)?.iter() {
                if !bool_of(ev, &args[0], vec![x.clone()], span, cx)? {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }
        Reduce => {
            between(2, 3)?;
            let f = &args[0];
            let (mut acc, items) = if n == 3 {
                (args[1].clone(), seq(ev, name, &args[2], span)?)
            } else {
                let s = seq(ev, name, &args[1], span)?;
                match s.split_first() {
                    Some((first, rest)) => (first.clone(), Cow::Owned(rest.to_vec())),
                    None => return apply(ev, f, vec![], span, cx),
                }
            };
            for x in items.iter() {
                acc = apply(ev, f, vec![acc, x.clone()], span, cx)?;
            }
            Ok(acc)
        }
        Apply => {
            at_least(2)?;
            let last = seq(ev, name, &args[n - 1], span)?;
            ev.check_size(last.len().saturating_add(n - 2), span)?;
            ev.charge_elements(last.len(), span)?;
            let mut call_args = args[1..n - 1].to_vec();
            call_args.extend(last.iter().cloned());
            apply(ev, &args[0], call_args, span, cx)
        }
        Identity => {
            exactly(1)?;
            Ok(args[0].clone())
        }
        Range => {
            between(1, 3)?;
            let ints = args
                .iter()
                .map(|a| int(name, a, span))
                .collect::<Result<Vec<_>>>()?;
            let (start, end, step) = match ints[..] {
                [e] => (0, e, 1),
                [s, e] => (s, e, 1),
                [s, e, st] => (s, e, st),
                _ => unreachable!("arity checked above"),
            };
            if step == 0 {
                return Err(
                    RtfsError::new(ErrorKind::Type, "range step must not be zero").at(span),
                );
            }
            let count = if (step > 0 && end > start) || (step < 0 && end < start) {
                ((end as i128 - start as i128).abs() + step.unsigned_abs() as i128 - 1)
                    / step.unsigned_abs() as i128
            } else {
                0
            };
            ev.check_size(usize::try_from(count).unwrap_or(usize::MAX), span)?;
            let mut out = Vec::with_capacity(count as usize);
            let mut x = start as i128;
            for _ in 0..count {
                out.push(Value::Int(x as i64));
                x += step as i128;
            }
            ev.vector(out, span)
        }
        Sort => {
            exactly(1)?;
            let mut s = seq(ev, name, &args[0], span)?.into_owned();
            ev.charge_ordering(total_size(s.iter()), s.len(), span)?;
            s.sort();
            ev.vector(s, span)
        }
        SortBy => {
            exactly(2)?;
            let s = seq(ev, name, &args[1], span)?;
            let mut keyed = Vec::with_capacity(s.len());
            for x in s.iter() {
                keyed.push((apply(ev, &args[0], vec![x.clone()], span, cx)?, x.clone()));
            }
            ev.charge_ordering(total_size(keyed.iter().map(|(k, _)| k)), keyed.len(), span)?;
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            ev.vector(keyed.into_iter().map(|(_, x)| x).collect(), span)
        }
        List => ev.list(args, span),
        Vector => out_vec(args),
        HashMap => {
            if !n.is_multiple_of(2) {
                return Err(arity(name, "key/value pairs", n, span));
            }
            map_from(
                ev,
                args.chunks(2).map(|kv| (kv[0].clone(), kv[1].clone())),
                span,
            )
        }
        Keyword => {
            exactly(1)?;
            match &args[0] {
                Value::Keyword(_) => Ok(args[0].clone()),
                Value::Str(s) | Value::Symbol(s) if crate::syntax::is_valid_keyword_name(s) => {
                    Ok(Value::Keyword(s.clone()))
                }
                other => Err(type_err(
                    name,
                    "a string that is a valid keyword name",
                    other,
                    span,
                )),
            }
        }
        Name => {
            exactly(1)?;
            match &args[0] {
                Value::Keyword(s) | Value::Symbol(s) | Value::Str(s) => Ok(Value::Str(s.clone())),
                other => Err(type_err(name, "a keyword, symbol or string", other, span)),
            }
        }
        ParseInt => {
            exactly(1)?;
            match &args[0] {
                Value::Int(_) => Ok(args[0].clone()),
                Value::Str(s) => s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
                    RtfsError::new(
                        ErrorKind::Parse,
                        format!("parse-int: {} is not an integer", brief(&args[0])),
                    )
                    .at(span)
                }),
                other => Err(type_err(name, "a string", other, span)),
            }
        }
        ParseFloat => {
            exactly(1)?;
            match &args[0] {
                Value::Float(_) => Ok(args[0].clone()),
                Value::Int(i) => Ok(Value::Float(*i as f64)),
                Value::Str(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
                    RtfsError::new(
                        ErrorKind::Parse,
                        format!("parse-float: {} is not a number", brief(&args[0])),
                    )
                    .at(span)
                }),
                other => Err(type_err(name, "a string", other, span)),
            }
        }
        ParseJson => {
            exactly(1)?;
            match &args[0] {
                Value::Str(s) => {
                    ev.charge_bytes(s.len() as u64, span)?;
                    let v =
                        crate::json::parse_json_bounded(s, ev.limits()).map_err(|e| e.at(span))?;
                    ev.charge_bytes(v.logical_size(), span)?;
                    Ok(v)
                }
                // Already structured (e.g. a typed value passed where a string
                // was expected): leave it as it is, so coercion is idempotent.
                Value::Int(_)
                | Value::Float(_)
                | Value::Bool(_)
                | Value::Nil
                | Value::Map(_)
                | Value::Vector(_)
                | Value::List(_) => Ok(args[0].clone()),
                other => Err(type_err(name, "a string of JSON", other, span)),
            }
        }
        ToJson | SerializeJson => {
            exactly(1)?;
            let max = usize::try_from(ev.limits().max_value_bytes.saturating_sub(SLOT_BYTES))
                .unwrap_or(usize::MAX);
            let text = crate::json::to_json_string_within(&args[0], max).map_err(|e| e.at(span))?;
            ev.string(text, span)
        }
        Split => {
            exactly(2)?;
            let s = string(name, &args[0], span)?;
            let sep = string(name, &args[1], span)?;
            ev.charge_bytes(s.len() as u64, span)?;
            let mut out = ev.builder(span);
            if sep.is_empty() {
                for c in s.chars() {
                    out.push(char_value(c))?;
                }
            } else {
                for part in s.split(sep) {
                    out.push(Value::string(part))?;
                }
            }
            out.vector()
        }
        Join | StringJoin => {
            between(1, 2)?;
            let (sep, coll) = if n == 2 {
                (string(name, &args[0], span)?, &args[1])
            } else {
                ("", &args[0])
            };
            let max = built_string_max(ev);
            let mut out = String::new();
            for (i, x) in seq(ev, name, coll, span)?.iter().enumerate() {
                if i > 0 {
                    push_raw(&mut out, sep, max, span)?;
                }
                push_display(&mut out, x, max, span)?;
            }
            ev.string(out, span)
        }
        UpperCase | LowerCase | Trim | StringUpper | StringLower | StringTrim => {
            exactly(1)?;
            let s = string(name, &args[0], span)?;
            let upper = matches!(b, UpperCase | StringUpper);
            let lower = matches!(b, LowerCase | StringLower);
            // Case mapping may lengthen non-ASCII text (at most 6 times):
            // when that could pass the limit, measure the result first.
            if (upper || lower) && !s.is_ascii() {
                let bound = (s.len() as u64).saturating_mul(6);
                if bound.saturating_add(SLOT_BYTES) > ev.limits().max_value_bytes {
                    ev.charge_bytes(s.len() as u64, span)?;
                    let len: usize = s
                        .chars()
                        .map(|c| {
                            if upper {
                                c.to_uppercase().map(char::len_utf8).sum::<usize>()
                            } else {
                                c.to_lowercase().map(char::len_utf8).sum::<usize>()
                            }
                        })
                        .sum();
                    ev.check_string_len(len as u64, span)?;
                }
            }
            ev.string(
                if upper {
                    s.to_uppercase()
                } else if lower {
                    s.to_lowercase()
                } else {
                    s.trim().to_string()
                },
                span,
            )
        }
        Includes | StringContains | StringContainsQ | StartsWith | EndsWith => {
            exactly(2)?;
            let s = string(name, &args[0], span)?;
            let t = string(name, &args[1], span)?;
            ev.charge_bytes((s.len() as u64).saturating_add(t.len() as u64), span)?;
            Ok(Value::Bool(match b {
                Includes | StringContains | StringContainsQ => s.contains(t),
                StartsWith => s.starts_with(t),
                _ => s.ends_with(t),
            }))
        }
        Subs | Substring => {
            between(2, 3)?;
            let s = string(name, &args[0], span)?;
            ev.charge_bytes(s.len() as u64, span)?;
            let count = s.chars().count();
            let start = int(name, &args[1], span)?;
            let end = if n == 3 {
                int(name, &args[2], span)?
            } else {
                count as i64
            };
            if start < 0 || end < start || end as u64 > count as u64 {
                return Err(RtfsError::new(
                    ErrorKind::Index,
                    format!(
                        "subs range {start}..{end} out of bounds for a string of {count} characters"
                    ),
                )
                .at(span));
            }
            // Byte offsets of the character range (the end may be the end).
            let offset = |i: usize| s.char_indices().nth(i).map_or(s.len(), |(o, _)| o);
            let (from, to) = (offset(start as usize), offset(end as usize));
            ev.string(s[from..to].to_string(), span)
        }
        Replace => {
            exactly(3)?;
            let s = string(name, &args[0], span)?;
            let from = string(name, &args[1], span)?;
            let to = string(name, &args[2], span)?;
            if from.is_empty() {
                return Err(RtfsError::new(
                    ErrorKind::Type,
                    "replace: the text to replace must not be empty",
                )
                .at(span));
            }
            // The result's length is known before it is built.
            ev.charge_bytes(s.len() as u64, span)?;
            let matches = s.matches(from).count() as u64;
            let len = (s.len() as u64)
                .saturating_sub(matches.saturating_mul(from.len() as u64))
                .saturating_add(matches.saturating_mul(to.len() as u64));
            check_built_string(ev, len, span)?;
            ev.string(s.replace(from, to), span)
        }
        StringLength => {
            exactly(1)?;
            let s = string(name, &args[0], span)?;
            ev.charge_bytes(s.len() as u64, span)?;
            Ok(Value::Int(s.chars().count() as i64))
        }
        TypeName | ToInt | ToFloat | IsEven | IsOdd | IsZero | IsPos | IsNeg | Sqrt | Pow
        | Factorial | Update | UpdateIn | AssocIn | Cons | Partition | PartitionAll | GroupBy
        | Frequencies | Subvec | MapIndexed | Find | Deref => call_reference(ev, b, args, span, cx),
    }
}

/// Checks that `n` arguments fall in `lo..=hi` (`hi` `None`: no upper bound).
fn arity_range(name: &str, n: usize, lo: usize, hi: Option<usize>, span: Span) -> Result<()> {
    if n >= lo && hi.is_none_or(|h| n <= h) {
        return Ok(());
    }
    let expected = match hi {
        Some(h) if h == lo => format!("{lo} argument(s)"),
        Some(h) => format!("{lo} to {h} arguments"),
        None => format!("at least {lo} argument(s)"),
    };
    Err(arity(name, &expected, n, span))
}

/// `(assoc coll k v)` for one key: maps (nil is an empty map) by key,
/// vectors by index (at most one past the end).
fn assoc1(
    ev: &Evaluator<'_>,
    name: &str,
    coll: &Value,
    k: Value,
    v: Value,
    span: Span,
) -> Result<Value> {
    match coll {
        Value::Nil | Value::Map(_) => {
            let mut m = map_arg(name, coll, span)?.cloned().unwrap_or_default();
            ev.charge_elements(m.len().saturating_mul(2), span)?;
            charge_lookup(ev, &k, m.len(), span)?;
            m.insert(k, v);
            ev.map(m, span)
        }
        Value::Vector(items) => {
            let i = int(name, &k, span)?;
            ev.charge_elements(items.len(), span)?;
            let mut items = items.to_vec();
            match usize::try_from(i) {
                Ok(i) if i < items.len() => items[i] = v,
                Ok(i) if i == items.len() => items.push(v),
                _ => {
                    return Err(RtfsError::new(
                        ErrorKind::Index,
                        format!(
                            "{name} index {i} out of range for a vector of {}",
                            items.len()
                        ),
                    )
                    .at(span));
                }
            }
            ev.vector(items, span)
        }
        other => Err(type_err(name, "a map or vector", other, span)),
    }
}

/// The path argument of `assoc-in` / `update-in`: a non-empty sequence.
fn key_path(ev: &Evaluator<'_>, name: &str, v: &Value, span: Span) -> Result<Vec<Value>> {
    let path = seq(ev, name, v, span)?.into_owned();
    if path.is_empty() {
        return Err(RtfsError::new(
            ErrorKind::Type,
            format!("{name} needs a non-empty key path"),
        )
        .at(span)
        .with_help("write e.g. [:user :name]; use assoc or update for a single key"));
    }
    Ok(path)
}

/// `(assoc-in coll path v)` and, with `f`, `(update-in coll path f args...)`:
/// walks `path`, creating maps where keys are missing, and sets (or
/// transforms) the innermost value.
fn assoc_in(
    ev: &Evaluator<'_>,
    name: &str,
    coll: &Value,
    path: &[Value],
    leaf: &mut dyn FnMut(Value) -> Result<Value>,
    span: Span,
    depth: usize,
) -> Result<Value> {
    let Some((k, rest)) = path.split_first() else {
        return leaf(coll.clone());
    };
    if depth > 512 {
        return Err(
            RtfsError::new(ErrorKind::Limit, format!("{name}: key path too deep")).at(span),
        );
    }
    let inner = get_charged(ev, coll, k, span)?.unwrap_or(Value::Nil);
    let new_inner = if rest.is_empty() {
        leaf(inner)?
    } else {
        assoc_in(ev, name, &inner, rest, leaf, span, depth + 1)?
    };
    assoc1(ev, name, coll, k.clone(), new_inner, span)
}

/// Functions that came with RTFS 2.0 conformance (the reference language's
/// standard library): conversion, number predicates, nested updates and a
/// few collection helpers.
fn call_reference(
    ev: &Evaluator<'_>,
    b: Builtin,
    args: Vec<Value>,
    span: Span,
    cx: Cx<'_>,
) -> Result<Value> {
    use Builtin::*;
    let name = b.name();
    let n = args.len();
    let check = |lo: usize, hi: Option<usize>| arity_range(name, n, lo, hi, span);
    match b {
        TypeName => {
            check(1, Some(1))?;
            // The reference language's runtime type names.
            Ok(Value::string(match &args[0] {
                Value::Int(_) => "integer",
                Value::Bool(_) => "boolean",
                other => other.type_name(),
            }))
        }
        ToInt => {
            check(1, Some(1))?;
            match &args[0] {
                Value::Int(_) => Ok(args[0].clone()),
                Value::Float(f) => {
                    let t = f.trunc();
                    if t.is_finite() && t >= i64::MIN as f64 && t < i64::MAX as f64 {
                        Ok(Value::Int(t as i64))
                    } else {
                        Err(RtfsError::new(
                            ErrorKind::Overflow,
                            format!(
                                "int: {} does not fit in a 64-bit integer",
                                crate::printer::format_float(*f)
                            ),
                        )
                        .at(span))
                    }
                }
                Value::Str(s) => s.trim().parse::<i64>().map(Value::Int).map_err(|_| {
                    RtfsError::new(
                        ErrorKind::Parse,
                        format!("int: {} is not an integer", brief(&args[0])),
                    )
                    .at(span)
                }),
                other => Err(type_err(name, "a number or a string", other, span)),
            }
        }
        ToFloat => {
            check(1, Some(1))?;
            match &args[0] {
                Value::Float(_) => Ok(args[0].clone()),
                Value::Int(i) => Ok(Value::Float(*i as f64)),
                Value::Str(s) => s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
                    RtfsError::new(
                        ErrorKind::Parse,
                        format!("float: {} is not a number", brief(&args[0])),
                    )
                    .at(span)
                }),
                other => Err(type_err(name, "a number or a string", other, span)),
            }
        }
        IsEven | IsOdd => {
            check(1, Some(1))?;
            let i = int(name, &args[0], span)?;
            Ok(Value::Bool((i % 2 == 0) == (b == IsEven)))
        }
        IsZero | IsPos | IsNeg => {
            check(1, Some(1))?;
            let x = num(name, &args[0], span)?.f();
            Ok(Value::Bool(match b {
                IsZero => x == 0.0,
                IsPos => x > 0.0,
                _ => x < 0.0,
            }))
        }
        Sqrt => {
            check(1, Some(1))?;
            let x = num(name, &args[0], span)?.f();
            if x < 0.0 {
                return Err(RtfsError::new(
                    ErrorKind::Type,
                    format!("sqrt of a negative number ({})", brief(&args[0])),
                )
                .at(span));
            }
            Ok(Value::Float(x.sqrt()))
        }
        Pow => {
            check(2, Some(2))?;
            match (num(name, &args[0], span)?, num(name, &args[1], span)?) {
                (Num::I(base), Num::I(exp)) if exp >= 0 => u32::try_from(exp)
                    .ok()
                    .and_then(|e| base.checked_pow(e))
                    .map(Value::Int)
                    .ok_or_else(|| overflow(name, span)),
                (x, y) => Ok(Value::Float(x.f().powf(y.f()))),
            }
        }
        Factorial => {
            check(1, Some(1))?;
            let k = int(name, &args[0], span)?;
            if k < 0 {
                return Err(RtfsError::new(
                    ErrorKind::Type,
                    format!("factorial is not defined for negative numbers ({k})"),
                )
                .at(span));
            }
            (1..=k)
                .try_fold(1i64, |acc, i| acc.checked_mul(i))
                .map(Value::Int)
                .ok_or_else(|| overflow(name, span))
        }
        Update => {
            check(3, None)?;
            if !matches!(args[0], Value::Nil | Value::Map(_) | Value::Vector(_)) {
                return Err(type_err(name, "a map or vector", &args[0], span));
            }
            let old = get_charged(ev, &args[0], &args[1], span)?.unwrap_or(Value::Nil);
            let mut call_args = vec![old];
            call_args.extend(args[3..].iter().cloned());
            let new = apply(ev, &args[2], call_args, span, cx)?;
            assoc1(ev, name, &args[0], args[1].clone(), new, span)
        }
        UpdateIn => {
            check(3, None)?;
            let path = key_path(ev, name, &args[1], span)?;
            let extra = &args[3..];
            let mut leaf = |old: Value| {
                let mut call_args = vec![old];
                call_args.extend(extra.iter().cloned());
                apply(ev, &args[2], call_args, span, cx)
            };
            assoc_in(ev, name, &args[0], &path, &mut leaf, span, 0)
        }
        AssocIn => {
            check(3, Some(3))?;
            let path = key_path(ev, name, &args[1], span)?;
            let mut leaf = |_old: Value| Ok(args[2].clone());
            assoc_in(ev, name, &args[0], &path, &mut leaf, span, 0)
        }
        Cons => {
            check(2, Some(2))?;
            let rest = seq(ev, name, &args[1], span)?;
            ev.check_size(rest.len().saturating_add(1), span)?;
            let mut items = Vec::with_capacity(rest.len() + 1);
            items.push(args[0].clone());
            items.extend(rest.iter().cloned());
            match &args[1] {
                Value::Vector(_) => ev.vector(items, span),
                _ => ev.list(items, span),
            }
        }
        Partition | PartitionAll => {
            check(2, Some(3))?;
            let size = int(name, &args[0], span)?;
            let step = if n == 3 {
                int(name, &args[1], span)?
            } else {
                size
            };
            if size <= 0 || step <= 0 {
                return Err(RtfsError::new(
                    ErrorKind::Type,
                    format!("{name} needs a positive size and step, got {size} and {step}"),
                )
                .at(span));
            }
            let items = seq(ev, name, &args[n - 1], span)?;
            let (size, step) = (size as usize, step as usize);
            let mut out = ev.builder(span);
            let mut start = 0;
            // Overlapping groups (step < size) copy elements: bound the total.
            let mut copied = 0usize;
            while start < items.len() {
                let end = start.saturating_add(size).min(items.len());
                if end - start < size && b == Partition {
                    break;
                }
                copied = copied.saturating_add(end - start);
                ev.check_size(copied, span)?;
                out.push(ev.vector(items[start..end].to_vec(), span)?)?;
                start = start.saturating_add(step);
            }
            out.vector()
        }
        GroupBy => {
            check(2, Some(2))?;
            let mut groups: std::collections::BTreeMap<Value, Vec<Value>> = Default::default();
            let items = seq(ev, name, &args[1], span)?;
            // The groups hold the items once, plus their keys: bounded as
            // the keys come.
            let mut size = SLOT_BYTES.saturating_add(total_size(items.iter()));
            for x in items.iter() {
                let k = apply(ev, &args[0], vec![x.clone()], span, cx)?;
                size = size.saturating_add(k.logical_size().saturating_add(SLOT_BYTES));
                if size > ev.limits().max_value_bytes {
                    return Err(
                        crate::value::value_too_large(size, ev.limits().max_value_bytes).at(span),
                    );
                }
                charge_lookup(ev, &k, groups.len(), span)?;
                groups.entry(k).or_default().push(x.clone());
            }
            let mut m = Map::new();
            for (k, v) in groups {
                m.insert(k, ev.vector(v, span)?);
            }
            ev.map(m, span)
        }
        Frequencies => {
            check(1, Some(1))?;
            let mut counts = Map::new();
            let items = seq(ev, name, &args[0], span)?;
            ev.charge_ordering(total_size(items.iter()), items.len(), span)?;
            for x in items.iter() {
                let c = counts.get(x).and_then(|c| match c {
                    Value::Int(i) => Some(*i),
                    _ => None,
                });
                counts.insert(x.clone(), Value::Int(c.unwrap_or(0) + 1));
            }
            ev.map(counts, span)
        }
        Subvec => {
            check(2, Some(3))?;
            let items = match &args[0] {
                Value::Vector(v) | Value::List(v) => v,
                other => return Err(type_err(name, "a vector", other, span)),
            };
            let start = int(name, &args[1], span)?;
            let end = if n == 3 {
                int(name, &args[2], span)?
            } else {
                items.len() as i64
            };
            if start < 0 || end < start || end as u64 > items.len() as u64 {
                return Err(RtfsError::new(
                    ErrorKind::Index,
                    format!(
                        "subvec range {start}..{end} out of bounds for a vector of {}",
                        items.len()
                    ),
                )
                .at(span));
            }
            ev.vector(items[start as usize..end as usize].to_vec(), span)
        }
        MapIndexed => {
            check(2, Some(2))?;
            let items = seq(ev, name, &args[1], span)?;
            let mut out = ev.builder(span);
            for (i, x) in items.iter().enumerate() {
                out.push(apply(
                    ev,
                    &args[0],
                    vec![Value::Int(i as i64), x.clone()],
                    span,
                    cx,
                )?)?;
            }
            out.vector()
        }
        Find => {
            check(2, Some(2))?;
            Ok(match map_arg(name, &args[0], span)? {
                Some(m) => {
                    charge_lookup(ev, &args[1], m.len(), span)?;
                    m.get_key_value(&args[1])
                        .map(|(k, v)| Value::vector(vec![k.clone(), v.clone()]))
                        .unwrap_or(Value::Nil)
                }
                None => Value::Nil,
            })
        }
        Deref => {
            check(1, Some(1))?;
            // Plans have no mutable references: every value is already
            // realised, so dereferencing one gives it back (see docs/rtfs.md).
            Ok(args[0].clone())
        }
        _ => Err(RtfsError::new(
            ErrorKind::BadForm,
            format!("internal: {name} is not a reference-library function"),
        )
        .at(span)),
    }
}

/// True when `v` can be called like a function.
pub fn is_callable(v: &Value) -> bool {
    matches!(
        v,
        Value::Function(Function::Builtin(_) | Function::Closure(_))
            | Value::Keyword(_)
            | Value::Map(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = BTreeSet::new();
        for b in Builtin::ALL {
            assert!(seen.insert(b.name()), "duplicate {}", b.name());
            assert_eq!(Builtin::from_name(b.name()), Some(*b));
        }
    }

    #[test]
    fn closest_names() {
        assert_eq!(closest_name("filtr"), Some("filter"));
        assert_eq!(closest_name("uppercase"), Some("upper-case"));
        assert_eq!(closest_name("zzzzzzzz"), None);
    }
}

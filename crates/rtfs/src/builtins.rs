//! The pure standard library.
//!
//! Every function here is pure: no I/O, no clock, no randomness. Sequence
//! functions (`map`, `filter`, `rest`, `keys`, `range`, `sort`, ...) return
//! vectors, which print and convert to JSON predictably. Errors name the
//! function and what it got: `+ expects a number, got string "a"`.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{ErrorKind, Result, RtfsError, Span};
use crate::eval::{Cx, Evaluator, truncate};
use crate::value::{Function, Map, Value};

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
    Builtin::ALL
        .iter()
        .map(|b| b.name())
        .map(|n| (edit_distance(name, n), n))
        .filter(|(d, n)| *d <= 2.max(n.len() / 3))
        .min()
        .map(|(_, n)| n)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
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
            truncate(&got.to_string())
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

/// Elements of a sequential value; nil is empty, strings give characters,
/// maps give `[k v]` pairs.
fn seq(name: &str, v: &Value, span: Span) -> Result<Vec<Value>> {
    Ok(match v {
        Value::Nil => vec![],
        Value::List(x) | Value::Vector(x) => x.to_vec(),
        Value::Map(m) => m
            .iter()
            .map(|(k, v)| Value::vector(vec![k.clone(), v.clone()]))
            .collect(),
        Value::Str(s) => s.chars().map(|c| Value::string(&c.to_string())).collect(),
        other => return Err(type_err(name, "a collection", other, span)),
    })
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
            .map(|c| Value::string(&c.to_string())),
        _ => None,
    }
}

/// The text `str` contributes for a value: strings raw, nil empty, others canonical.
fn display(v: &Value) -> String {
    match v {
        Value::Nil => String::new(),
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    }
}

fn bool_of(
    ev: &Evaluator<'_>,
    f: &Value,
    args: Vec<Value>,
    span: Span,
    cx: Cx<'_>,
) -> Result<bool> {
    Ok(ev.apply(f, args, span, cx)?.is_truthy())
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
    let out_vec = |items: Vec<Value>| -> Result<Value> {
        ev.check_size(items.len(), span)?;
        Ok(Value::vector(items))
    };
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
        Eq => {
            at_least(1)?;
            Ok(Value::Bool(args.windows(2).all(|w| w[0] == w[1])))
        }
        NotEq | NotEqAlias => {
            at_least(1)?;
            Ok(Value::Bool(!args.windows(2).all(|w| w[0] == w[1])))
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
                Value::Str(s) => s.chars().count(),
                Value::List(v) | Value::Vector(v) => v.len(),
                Value::Map(m) => m.len(),
                other => return Err(type_err(name, "a collection or string", other, span)),
            };
            Ok(Value::Int(c as i64))
        }
        Str => {
            let mut out = String::new();
            for a in &args {
                out.push_str(&display(a));
                ev.check_size(out.len(), span)?;
            }
            Ok(Value::from(out))
        }
        Get => {
            between(2, 3)?;
            Ok(get(&args[0], &args[1])
                .unwrap_or_else(|| args.get(2).cloned().unwrap_or(Value::Nil)))
        }
        GetIn => {
            between(2, 3)?;
            let path = seq(name, &args[1], span)?;
            let mut cur = Some(args[0].clone());
            for k in &path {
                cur = cur.and_then(|c| get(&c, k));
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
                    for kv in args[1..].chunks(2) {
                        m.insert(kv[0].clone(), kv[1].clone());
                    }
                    ev.check_size(m.len(), span)?;
                    Ok(Value::Map(Arc::new(m)))
                }
                Value::Vector(v) => {
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
            let mut m = m.clone();
            for k in &args[1..] {
                m.remove(k);
            }
            Ok(Value::Map(Arc::new(m)))
        }
        Merge => {
            let mut out: Option<Map> = None;
            for a in &args {
                if let Some(m) = map_arg(name, a, span)? {
                    let acc = out.get_or_insert_with(Map::new);
                    for (k, v) in m.iter() {
                        acc.insert(k.clone(), v.clone());
                    }
                }
            }
            match out {
                Some(m) => {
                    ev.check_size(m.len(), span)?;
                    Ok(Value::Map(Arc::new(m)))
                }
                None => Ok(Value::Nil),
            }
        }
        Keys | Vals => {
            exactly(1)?;
            let Some(m) = map_arg(name, &args[0], span)? else {
                return Ok(Value::vector(vec![]));
            };
            Ok(Value::vector(if b == Keys {
                m.keys().cloned().collect()
            } else {
                m.values().cloned().collect()
            }))
        }
        SelectKeys => {
            exactly(2)?;
            let m = map_arg(name, &args[0], span)?;
            let ks = seq(name, &args[1], span)?;
            let out: Map = ks
                .into_iter()
                .filter_map(|k| m.and_then(|m| m.get(&k).map(|v| (k.clone(), v.clone()))))
                .collect();
            Ok(Value::Map(Arc::new(out)))
        }
        Zipmap => {
            exactly(2)?;
            let ks = seq(name, &args[0], span)?;
            let vs = seq(name, &args[1], span)?;
            Ok(Value::Map(Arc::new(ks.into_iter().zip(vs).collect())))
        }
        Contains => {
            exactly(2)?;
            Ok(Value::Bool(match &args[0] {
                Value::Nil => false,
                Value::Map(m) => m.contains_key(&args[1]),
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
                    let mut v = seq(name, &args[0], span)?;
                    for x in &args[1..] {
                        v.insert(0, x.clone());
                    }
                    ev.check_size(v.len(), span)?;
                    Ok(Value::list(v))
                }
                Value::Vector(v) => {
                    let mut v = v.to_vec();
                    v.extend(args[1..].iter().cloned());
                    out_vec(v)
                }
                Value::Map(m) => {
                    let mut m = m.as_ref().clone();
                    for x in &args[1..] {
                        match x {
                            Value::Map(other) => {
                                m.extend(other.iter().map(|(k, v)| (k.clone(), v.clone())))
                            }
                            Value::Vector(kv) if kv.len() == 2 => {
                                m.insert(kv[0].clone(), kv[1].clone());
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
                    ev.check_size(m.len(), span)?;
                    Ok(Value::Map(Arc::new(m)))
                }
                other => Err(type_err(name, "a collection", other, span)),
            }
        }
        Into => {
            exactly(2)?;
            let items = seq(name, &args[1], span)?;
            let mut all = vec![args[0].clone()];
            all.extend(items);
            call(ev, Conj, all, span, cx)
        }
        Concat => {
            let mut out = Vec::new();
            for a in &args {
                out.extend(seq(name, a, span)?);
                ev.check_size(out.len(), span)?;
            }
            Ok(Value::vector(out))
        }
        First | Second | Last => {
            exactly(1)?;
            let s = seq(name, &args[0], span)?;
            Ok(match b {
                First => s.first(),
                Second => s.get(1),
                _ => s.last(),
            }
            .cloned()
            .unwrap_or(Value::Nil))
        }
        Rest => {
            exactly(1)?;
            let s = seq(name, &args[0], span)?;
            Ok(Value::vector(s.into_iter().skip(1).collect()))
        }
        Nth => {
            between(2, 3)?;
            let s = seq(name, &args[0], span)?;
            let i = int(name, &args[1], span)?;
            match usize::try_from(i).ok().and_then(|i| s.get(i)) {
                Some(v) => Ok(v.clone()),
                None => match args.get(2) {
                    Some(d) => Ok(d.clone()),
                    None => Err(RtfsError::new(
                        ErrorKind::Index,
                        format!("nth index {i} out of range for a collection of {}", s.len()),
                    )
                    .at(span)),
                },
            }
        }
        Take | Drop => {
            exactly(2)?;
            let k = int(name, &args[0], span)?.max(0) as usize;
            let s = seq(name, &args[1], span)?;
            Ok(Value::vector(if b == Take {
                s.into_iter().take(k).collect()
            } else {
                s.into_iter().skip(k).collect()
            }))
        }
        Reverse => {
            exactly(1)?;
            let mut s = seq(name, &args[0], span)?;
            s.reverse();
            Ok(Value::vector(s))
        }
        Distinct => {
            exactly(1)?;
            let mut seen = BTreeSet::new();
            let s = seq(name, &args[0], span)?;
            Ok(Value::vector(
                s.into_iter().filter(|v| seen.insert(v.clone())).collect(),
            ))
        }
        MapFn => {
            at_least(2)?;
            let f = &args[0];
            let colls = args[1..]
                .iter()
                .map(|c| seq(name, c, span))
                .collect::<Result<Vec<_>>>()?;
            let len = colls.iter().map(Vec::len).min().unwrap_or(0);
            let mut out = Vec::with_capacity(len);
            for i in 0..len {
                let call_args = colls.iter().map(|c| c[i].clone()).collect();
                out.push(ev.apply(f, call_args, span, cx)?);
            }
            out_vec(out)
        }
        Filter | Remove => {
            exactly(2)?;
            let s = seq(name, &args[1], span)?;
            let mut out = Vec::new();
            for x in s {
                if bool_of(ev, &args[0], vec![x.clone()], span, cx)? == (b == Filter) {
                    out.push(x);
                }
            }
            Ok(Value::vector(out))
        }
        Every => {
            exactly(2)?;
            for x in seq(name, &args[1], span)? {
                if !bool_of(ev, &args[0], vec![x], span, cx)? {
                    return Ok(Value::Bool(false));
                }
            }
            Ok(Value::Bool(true))
        }
        Reduce => {
            between(2, 3)?;
            let f = &args[0];
            let (mut acc, items) = if n == 3 {
                (args[1].clone(), seq(name, &args[2], span)?)
            } else {
                let mut s = seq(name, &args[1], span)?.into_iter();
                match s.next() {
                    Some(first) => (first, s.collect()),
                    None => return ev.apply(f, vec![], span, cx),
                }
            };
            for x in items {
                acc = ev.apply(f, vec![acc, x], span, cx)?;
            }
            Ok(acc)
        }
        Apply => {
            at_least(2)?;
            let mut call_args = args[1..n - 1].to_vec();
            call_args.extend(seq(name, &args[n - 1], span)?);
            ev.apply(&args[0], call_args, span, cx)
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
            Ok(Value::vector(out))
        }
        Sort => {
            exactly(1)?;
            let mut s = seq(name, &args[0], span)?;
            s.sort();
            Ok(Value::vector(s))
        }
        SortBy => {
            exactly(2)?;
            let s = seq(name, &args[1], span)?;
            let mut keyed = Vec::with_capacity(s.len());
            for x in s {
                keyed.push((ev.apply(&args[0], vec![x.clone()], span, cx)?, x));
            }
            keyed.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(Value::vector(keyed.into_iter().map(|(_, x)| x).collect()))
        }
        List => {
            ev.check_size(n, span)?;
            Ok(Value::list(args))
        }
        Vector => out_vec(args),
        HashMap => {
            if !n.is_multiple_of(2) {
                return Err(arity(name, "key/value pairs", n, span));
            }
            Ok(Value::Map(Arc::new(
                args.chunks(2)
                    .map(|kv| (kv[0].clone(), kv[1].clone()))
                    .collect(),
            )))
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
                        format!(
                            "parse-int: {} is not an integer",
                            truncate(&args[0].to_string())
                        ),
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
                        format!(
                            "parse-float: {} is not a number",
                            truncate(&args[0].to_string())
                        ),
                    )
                    .at(span)
                }),
                other => Err(type_err(name, "a string", other, span)),
            }
        }
        ParseJson => {
            exactly(1)?;
            match &args[0] {
                Value::Str(s) => crate::json::parse_json_str(s).map_err(|e| e.at(span)),
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
            let j = crate::json::to_json(&args[0]).map_err(|e| e.at(span))?;
            Ok(Value::from(j.to_string()))
        }
        Split => {
            exactly(2)?;
            let s = string(name, &args[0], span)?;
            let sep = string(name, &args[1], span)?;
            let parts: Vec<Value> = if sep.is_empty() {
                s.chars().map(|c| Value::string(&c.to_string())).collect()
            } else {
                s.split(sep).map(Value::string).collect()
            };
            out_vec(parts)
        }
        Join | StringJoin => {
            between(1, 2)?;
            let (sep, coll) = if n == 2 {
                (string(name, &args[0], span)?, &args[1])
            } else {
                ("", &args[0])
            };
            let parts: Vec<String> = seq(name, coll, span)?.iter().map(display).collect();
            let out = parts.join(sep);
            ev.check_size(out.len(), span)?;
            Ok(Value::from(out))
        }
        UpperCase | LowerCase | Trim | StringUpper | StringLower | StringTrim => {
            exactly(1)?;
            let s = string(name, &args[0], span)?;
            Ok(Value::from(match b {
                UpperCase | StringUpper => s.to_uppercase(),
                LowerCase | StringLower => s.to_lowercase(),
                _ => s.trim().to_string(),
            }))
        }
        Includes | StringContains | StringContainsQ | StartsWith | EndsWith => {
            exactly(2)?;
            let s = string(name, &args[0], span)?;
            let t = string(name, &args[1], span)?;
            Ok(Value::Bool(match b {
                Includes | StringContains | StringContainsQ => s.contains(t),
                StartsWith => s.starts_with(t),
                _ => s.ends_with(t),
            }))
        }
        Subs | Substring => {
            between(2, 3)?;
            let s = string(name, &args[0], span)?;
            let chars: Vec<char> = s.chars().collect();
            let start = int(name, &args[1], span)?;
            let end = if n == 3 {
                int(name, &args[2], span)?
            } else {
                chars.len() as i64
            };
            if start < 0 || end < start || end as usize > chars.len() {
                return Err(RtfsError::new(
                    ErrorKind::Index,
                    format!(
                        "subs range {start}..{end} out of bounds for a string of {} characters",
                        chars.len()
                    ),
                )
                .at(span));
            }
            Ok(Value::from(
                chars[start as usize..end as usize]
                    .iter()
                    .collect::<String>(),
            ))
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
            let out = s.replace(from, to);
            ev.check_size(out.len(), span)?;
            Ok(Value::from(out))
        }
        StringLength => {
            exactly(1)?;
            let s = string(name, &args[0], span)?;
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
            m.insert(k, v);
            ev.check_size(m.len(), span)?;
            Ok(Value::Map(Arc::new(m)))
        }
        Value::Vector(items) => {
            let i = int(name, &k, span)?;
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
            ev.check_size(items.len(), span)?;
            Ok(Value::vector(items))
        }
        other => Err(type_err(name, "a map or vector", other, span)),
    }
}

/// The path argument of `assoc-in` / `update-in`: a non-empty sequence.
fn key_path(name: &str, v: &Value, span: Span) -> Result<Vec<Value>> {
    let path = seq(name, v, span)?;
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
    let inner = get(coll, k).unwrap_or(Value::Nil);
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
                        format!("int: {} is not an integer", truncate(&args[0].to_string())),
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
                        format!("float: {} is not a number", truncate(&args[0].to_string())),
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
                    format!(
                        "sqrt of a negative number ({})",
                        truncate(&args[0].to_string())
                    ),
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
            let old = get(&args[0], &args[1]).unwrap_or(Value::Nil);
            let mut call_args = vec![old];
            call_args.extend(args[3..].iter().cloned());
            let new = ev.apply(&args[2], call_args, span, cx)?;
            assoc1(ev, name, &args[0], args[1].clone(), new, span)
        }
        UpdateIn => {
            check(3, None)?;
            let path = key_path(name, &args[1], span)?;
            let extra = &args[3..];
            let mut leaf = |old: Value| {
                let mut call_args = vec![old];
                call_args.extend(extra.iter().cloned());
                ev.apply(&args[2], call_args, span, cx)
            };
            assoc_in(ev, name, &args[0], &path, &mut leaf, span, 0)
        }
        AssocIn => {
            check(3, Some(3))?;
            let path = key_path(name, &args[1], span)?;
            let mut leaf = |_old: Value| Ok(args[2].clone());
            assoc_in(ev, name, &args[0], &path, &mut leaf, span, 0)
        }
        Cons => {
            check(2, Some(2))?;
            let mut items = vec![args[0].clone()];
            items.extend(seq(name, &args[1], span)?);
            ev.check_size(items.len(), span)?;
            Ok(match &args[1] {
                Value::Vector(_) => Value::vector(items),
                _ => Value::list(items),
            })
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
            let items = seq(name, &args[n - 1], span)?;
            let (size, step) = (size as usize, step as usize);
            let mut out = Vec::new();
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
                out.push(Value::vector(items[start..end].to_vec()));
                start = start.saturating_add(step);
            }
            Ok(Value::vector(out))
        }
        GroupBy => {
            check(2, Some(2))?;
            let mut groups: std::collections::BTreeMap<Value, Vec<Value>> = Default::default();
            for x in seq(name, &args[1], span)? {
                let k = ev.apply(&args[0], vec![x.clone()], span, cx)?;
                groups.entry(k).or_default().push(x);
            }
            Ok(Value::Map(Arc::new(
                groups
                    .into_iter()
                    .map(|(k, v)| (k, Value::vector(v)))
                    .collect(),
            )))
        }
        Frequencies => {
            check(1, Some(1))?;
            let mut counts = Map::new();
            for x in seq(name, &args[0], span)? {
                let c = counts.get(&x).and_then(|c| match c {
                    Value::Int(i) => Some(*i),
                    _ => None,
                });
                counts.insert(x, Value::Int(c.unwrap_or(0) + 1));
            }
            Ok(Value::Map(Arc::new(counts)))
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
            Ok(Value::vector(items[start as usize..end as usize].to_vec()))
        }
        MapIndexed => {
            check(2, Some(2))?;
            let items = seq(name, &args[1], span)?;
            let mut out = Vec::with_capacity(items.len());
            for (i, x) in items.into_iter().enumerate() {
                out.push(ev.apply(&args[0], vec![Value::Int(i as i64), x], span, cx)?);
            }
            Ok(Value::vector(out))
        }
        Find => {
            check(2, Some(2))?;
            Ok(match map_arg(name, &args[0], span)? {
                Some(m) => m
                    .get_key_value(&args[1])
                    .map(|(k, v)| Value::vector(vec![k.clone(), v.clone()]))
                    .unwrap_or(Value::Nil),
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

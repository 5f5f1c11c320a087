//! Type expressions: the one model of RTFS types.
//!
//! A [`TypeExpr`] is read from the data of a type expression — a
//! [`Value`] (a capability manifest's schema, a quoted form) or an [`Expr`]
//! (an annotation in a program) — with [`TypeExpr::parse`] /
//! [`TypeExpr::parse_expr`]. It can check a value ([`TypeExpr::check`]),
//! print back as RTFS ([`TypeExpr::to_value`], `Display`) and convert to
//! JSON Schema ([`TypeExpr::to_json_schema`]), so the evaluator's annotation
//! checks and the marketplace's schemas agree on what a type means.
//!
//! The syntax is the reference language's (RTFS 2.0, `docs/rtfs.md` has the
//! full table):
//!
//! * primitives, as keywords or symbols, any case: `:int` (`:integer`),
//!   `:float` (also accepts integers, as JSON numbers do), `:number`,
//!   `:string`, `:bool` (`:boolean`), `:nil`, `:keyword`, `:symbol`, `:any`,
//!   `:never`, `:fn`, `:map`, `:vector`, `:list`, `:seq`; `Int`, `String`…;
//! * `T?` and `[:optional T]` / `[:maybe T]`: `T` or nil;
//! * `[:vector T]`, `[:list T]`, `[:seq T]`, `[:tuple T1 T2 ...]` (a vector
//!   of types with no constructor, `[:int :string]`, is a tuple too);
//! * `[:map [:k T] [:k {:optional true} T] [:k T ?] [:* T]]` or
//!   `[:map {:k T ...}]` (alias `:record`): a record with named fields,
//!   extra keys allowed (checked against `T` with `[:* T]`);
//! * `[:map-of K V]` (alias `:dict`): every key a `K`, every value a `V`;
//! * `[:union T ...]` / `[:or T ...]` / `(or T ...)`, `[:and T ...]` /
//!   `(and T ...)`;
//! * `[:enum v ...]`, `[:val v]` / `[:= v]`;
//! * `[:fn [A B & R] Ret]` (alias `:=>`): any function (arguments are not
//!   checked at the boundary);
//! * predicates, alone or inside `:and`: `[:> n]` `[:>= n]` `[:< n]`
//!   `[:<= n]` `[:!= v]`, `[:min-length n]` `[:max-length n]` `[:length n]`,
//!   `[:min-count n]` `[:max-count n]` `[:count n]` `[:non-empty]`,
//!   `[:in-range lo hi]`, `[:has-key :k]`, `[:required-keys [:k ...]]`,
//!   `[:matches-regex "re"]` (kept, not checked: RTFS has no regex engine);
//! * any other name (`:CustomType`, `MyResult`) is a named type: kept for
//!   documentation, not checked, and without a JSON Schema.

use std::fmt;
use std::sync::Arc;

use crate::error::Span;
use crate::syntax::{Expr, ExprKind};
use crate::value::Value;

/// An RTFS type. See the module documentation for the syntax.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    /// Every value (`:any`).
    Any,
    /// No value (`:never`).
    Never,
    /// A primitive type.
    Prim(Prim),
    /// Any map (`:map`).
    Map,
    /// A vector, of elements of the given type when there is one.
    Vector(Option<Box<TypeExpr>>),
    /// A list, of elements of the given type when there is one.
    List(Option<Box<TypeExpr>>),
    /// A list or a vector, of elements of the given type when there is one.
    Seq(Option<Box<TypeExpr>>),
    /// A fixed-length sequence, one type per position.
    Tuple(Vec<TypeExpr>),
    /// A map with named fields.
    Record(Record),
    /// A map whose keys all have one type and values another.
    Dict(Box<TypeExpr>, Box<TypeExpr>),
    /// A function; the signature is documentation.
    Fn(FnType),
    /// Any of the types.
    Union(Vec<TypeExpr>),
    /// All of the types (including predicates: a refinement).
    And(Vec<TypeExpr>),
    /// The values satisfying a predicate.
    Pred(Predicate),
    /// One of the listed values.
    Enum(Vec<Value>),
    /// Exactly this value.
    Literal(Value),
    /// The type or nil.
    Optional(Box<TypeExpr>),
    /// A type known only by name: not checked.
    Named(Arc<str>),
}

/// The primitive types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Prim {
    /// 64-bit integers.
    Int,
    /// Floats, and integers (a JSON number).
    Float,
    /// Integers and floats.
    Number,
    /// Strings.
    String,
    /// `true` and `false`.
    Bool,
    /// `nil`.
    Nil,
    /// Keywords.
    Keyword,
    /// Symbols.
    Symbol,
    /// Functions.
    Fn,
}

impl Prim {
    /// The canonical keyword name (`int`, `string`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Prim::Int => "int",
            Prim::Float => "float",
            Prim::Number => "number",
            Prim::String => "string",
            Prim::Bool => "bool",
            Prim::Nil => "nil",
            Prim::Keyword => "keyword",
            Prim::Symbol => "symbol",
            Prim::Fn => "fn",
        }
    }

    fn accepts(self, v: &Value) -> bool {
        match self {
            Prim::Int => matches!(v, Value::Int(_)),
            Prim::Float | Prim::Number => matches!(v, Value::Int(_) | Value::Float(_)),
            Prim::String => matches!(v, Value::Str(_)),
            Prim::Bool => matches!(v, Value::Bool(_)),
            Prim::Nil => matches!(v, Value::Nil),
            Prim::Keyword => matches!(v, Value::Keyword(_)),
            Prim::Symbol => matches!(v, Value::Symbol(_)),
            Prim::Fn => matches!(v, Value::Function(_)),
        }
    }
}

/// A record type: named fields, extra keys allowed (and checked against
/// `rest` when there is one).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// The declared fields, in written order.
    pub fields: Vec<Field>,
    /// The type of keys not declared (`[:* T]`); `None`: anything.
    pub rest: Option<Box<TypeExpr>>,
}

/// One field of a record type.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The key, usually a keyword.
    pub key: Value,
    /// The type of its value.
    pub ty: TypeExpr,
    /// True when the key may be absent.
    pub optional: bool,
}

/// A function type.
#[derive(Debug, Clone, PartialEq)]
pub struct FnType {
    /// Fixed parameter types.
    pub params: Vec<TypeExpr>,
    /// The type of each further argument, for variadic functions.
    pub rest: Option<Box<TypeExpr>>,
    /// The return type.
    pub ret: Box<TypeExpr>,
}

/// A predicate type (a refinement).
#[derive(Debug, Clone, PartialEq)]
pub enum Predicate {
    /// `[:> n]` and friends: compares the value with a number (or, for
    /// `:=`/`:!=`, any value).
    Cmp(CmpOp, Value),
    /// `[:min-length n]`: strings of at least `n` characters.
    MinLength(usize),
    /// `[:max-length n]`.
    MaxLength(usize),
    /// `[:length n]`.
    Length(usize),
    /// `[:min-count n]`: collections of at least `n` elements.
    MinCount(usize),
    /// `[:max-count n]`.
    MaxCount(usize),
    /// `[:count n]`.
    Count(usize),
    /// `[:non-empty]`: a non-empty string or collection.
    NonEmpty,
    /// `[:in-range lo hi]`: a number between `lo` and `hi` inclusive.
    InRange(Value, Value),
    /// `[:has-key k]`: a map with that key.
    HasKey(Value),
    /// `[:required-keys [k ...]]`: a map with all those keys.
    RequiredKeys(Vec<Value>),
    /// `[:matches-regex "re"]`: kept, not checked (no regex engine here).
    Regex(Arc<str>),
    /// Any other predicate: kept, not checked.
    Custom(Arc<str>, Vec<Value>),
}

/// A comparison operator of [`Predicate::Cmp`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `:>`
    Gt,
    /// `:>=`
    Ge,
    /// `:<`
    Lt,
    /// `:<=`
    Le,
    /// `:=`
    Eq,
    /// `:!=`
    Ne,
}

impl CmpOp {
    fn name(self) -> &'static str {
        match self {
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
        }
    }
}

/// Type expressions nest at most this deep (types are written by people).
const MAX_TYPE_DEPTH: usize = 64;

/// The constructor keywords of vector type expressions.
const CONSTRUCTORS: &[&str] = &[
    "vector",
    "list",
    "seq",
    "sequential",
    "array",
    "tuple",
    "map",
    "record",
    "map-of",
    "dict",
    "union",
    "or",
    "and",
    "enum",
    "val",
    "=",
    "optional",
    "maybe",
    "fn",
    "=>",
    "resource",
];

const PREDICATES: &[&str] = &[
    ">",
    ">=",
    "<",
    "<=",
    "!=",
    "min-length",
    "max-length",
    "length",
    "min-count",
    "max-count",
    "count",
    "non-empty",
    "in-range",
    "has-key",
    "required-keys",
    "matches-regex",
];

impl TypeExpr {
    /// Reads a type expression from its data (`:int`, `[:vector :int]`,
    /// `(or :int :string)`, ...). Errors say what is wrong, in words.
    pub fn parse(v: &Value) -> Result<TypeExpr, String> {
        parse_at(v, 0)
    }

    /// Reads a type expression from syntax (an annotation in a program).
    pub fn parse_expr(e: &Expr) -> Result<TypeExpr, String> {
        parse_at(&e.to_value(), 0)
    }

    /// True when `v` has this type.
    pub fn accepts(&self, v: &Value) -> bool {
        self.check(v).is_ok()
    }

    /// Checks `v` against this type. The error names where in the value
    /// the mismatch is and what was expected:
    /// `at [:user :age]: expected :int, got string "x"`.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        self.check_counting(v, &mut 0)
    }

    /// [`TypeExpr::check`], adding to `work` the number of value nodes
    /// visited (and a string's bytes / 8 where a predicate scans one), so
    /// the evaluator can charge a check of a large value to its budget.
    pub fn check_counting(&self, v: &Value, work: &mut u64) -> Result<(), String> {
        let mut path = Vec::new();
        self.check_at(v, &mut path, work).map_err(|m| {
            if path.is_empty() {
                m
            } else {
                let shown: Vec<String> = path.iter().map(crate::eval::brief).collect();
                format!("at [{}]: {m}", shown.join(" "))
            }
        })
    }

    fn check_at(&self, v: &Value, path: &mut Vec<Value>, work: &mut u64) -> Result<(), String> {
        *work = work.saturating_add(1);
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.check_inner(v, path, work))
    }

    fn check_inner(&self, v: &Value, path: &mut Vec<Value>, work: &mut u64) -> Result<(), String> {
        let mismatch = || Err(format!("expected {self}, got {}", describe(v)));
        match self {
            TypeExpr::Any | TypeExpr::Named(_) => Ok(()),
            TypeExpr::Never => mismatch(),
            TypeExpr::Prim(p) => {
                if p.accepts(v) {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            TypeExpr::Map => match v {
                Value::Map(_) => Ok(()),
                _ => mismatch(),
            },
            TypeExpr::Vector(elem) | TypeExpr::List(elem) | TypeExpr::Seq(elem) => {
                let items = match (self, v) {
                    (TypeExpr::Vector(_), Value::Vector(items))
                    | (TypeExpr::List(_), Value::List(items))
                    | (TypeExpr::Seq(_), Value::Vector(items) | Value::List(items)) => items,
                    _ => return mismatch(),
                };
                if let Some(elem) = elem {
                    for (i, x) in items.iter().enumerate() {
                        path.push(Value::Int(i as i64));
                        elem.check_at(x, path, work)?;
                        path.pop();
                    }
                }
                Ok(())
            }
            TypeExpr::Tuple(types) => {
                let Some(items) = v.as_seq() else {
                    return mismatch();
                };
                if items.len() != types.len() {
                    return Err(format!(
                        "expected {self} ({} elements), got {} elements",
                        types.len(),
                        items.len()
                    ));
                }
                for (i, (t, x)) in types.iter().zip(items.iter()).enumerate() {
                    path.push(Value::Int(i as i64));
                    t.check_at(x, path, work)?;
                    path.pop();
                }
                Ok(())
            }
            TypeExpr::Record(r) => {
                let Some(m) = v.as_map() else {
                    return mismatch();
                };
                for f in &r.fields {
                    match m.get(&f.key) {
                        None if f.optional || matches!(f.ty, TypeExpr::Optional(_)) => {}
                        None => return Err(format!("missing required key {}", f.key)),
                        Some(x) => {
                            path.push(f.key.clone());
                            f.ty.check_at(x, path, work)?;
                            path.pop();
                        }
                    }
                }
                if let Some(rest) = &r.rest {
                    for (k, x) in m.iter() {
                        if r.fields.iter().any(|f| &f.key == k) {
                            continue;
                        }
                        path.push(k.clone());
                        rest.check_at(x, path, work)?;
                        path.pop();
                    }
                }
                Ok(())
            }
            TypeExpr::Dict(kt, vt) => {
                let Some(m) = v.as_map() else {
                    return mismatch();
                };
                for (k, x) in m.iter() {
                    if let Err(e) = kt.check_counting(k, work) {
                        return Err(format!("key {k}: {e}"));
                    }
                    path.push(k.clone());
                    vt.check_at(x, path, work)?;
                    path.pop();
                }
                Ok(())
            }
            TypeExpr::Fn(_) => {
                if Prim::Fn.accepts(v) {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            TypeExpr::Union(types) => {
                if types.iter().any(|t| t.check_counting(v, work).is_ok()) {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            TypeExpr::And(types) => {
                for t in types {
                    t.check_at(v, path, work)?;
                }
                Ok(())
            }
            TypeExpr::Pred(p) => {
                if let Value::Str(s) = v {
                    *work = work.saturating_add(s.len() as u64 / crate::value::SLOT_BYTES);
                }
                if p.holds(v) { Ok(()) } else { mismatch() }
            }
            TypeExpr::Enum(options) => {
                if options.contains(v) {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            TypeExpr::Literal(x) => {
                if x == v {
                    Ok(())
                } else {
                    mismatch()
                }
            }
            TypeExpr::Optional(t) => {
                if matches!(v, Value::Nil) {
                    Ok(())
                } else {
                    t.check_at(v, path, work)
                }
            }
        }
    }

    /// The type as RTFS data, in its canonical spelling; it reads back
    /// ([`TypeExpr::parse`]) as the same type.
    pub fn to_value(&self) -> Value {
        let kw = Value::keyword;
        let ctor = |name: &str, rest: Vec<Value>| {
            let mut items = vec![kw(name)];
            items.extend(rest);
            Value::vector(items)
        };
        let opt = |name: &str, elem: &Option<Box<TypeExpr>>| match elem {
            None => kw(name),
            Some(t) => ctor(name, vec![t.to_value()]),
        };
        match self {
            TypeExpr::Any => kw("any"),
            TypeExpr::Never => kw("never"),
            TypeExpr::Prim(p) => kw(p.name()),
            TypeExpr::Map => kw("map"),
            TypeExpr::Vector(e) => opt("vector", e),
            TypeExpr::List(e) => opt("list", e),
            TypeExpr::Seq(e) => opt("seq", e),
            TypeExpr::Tuple(ts) => ctor("tuple", ts.iter().map(TypeExpr::to_value).collect()),
            TypeExpr::Record(r) => {
                let mut entries: Vec<Value> = r
                    .fields
                    .iter()
                    .map(|f| {
                        let mut e = vec![f.key.clone()];
                        if f.optional {
                            e.push(Value::map([(kw("optional"), Value::Bool(true))]));
                        }
                        e.push(f.ty.to_value());
                        Value::vector(e)
                    })
                    .collect();
                if let Some(rest) = &r.rest {
                    entries.push(Value::vector(vec![kw("*"), rest.to_value()]));
                }
                ctor("map", entries)
            }
            TypeExpr::Dict(k, v) => ctor("map-of", vec![k.to_value(), v.to_value()]),
            TypeExpr::Fn(f) => {
                let mut params: Vec<Value> = f.params.iter().map(TypeExpr::to_value).collect();
                if let Some(r) = &f.rest {
                    params.push(Value::Symbol("&".into()));
                    params.push(r.to_value());
                }
                ctor("fn", vec![Value::vector(params), f.ret.to_value()])
            }
            TypeExpr::Union(ts) => ctor("union", ts.iter().map(TypeExpr::to_value).collect()),
            TypeExpr::And(ts) => ctor("and", ts.iter().map(TypeExpr::to_value).collect()),
            TypeExpr::Pred(p) => p.to_value(),
            TypeExpr::Enum(vs) => ctor("enum", vs.clone()),
            TypeExpr::Literal(v) => ctor("val", vec![v.clone()]),
            TypeExpr::Optional(t) => ctor("optional", vec![t.to_value()]),
            TypeExpr::Named(n) => kw(n),
        }
    }

    /// The JSON Schema (2020-12) of the type. Functions and named types
    /// have none; predicates the schema vocabulary has no word for (custom
    /// ones) give `{}`.
    pub fn to_json_schema(&self) -> Result<serde_json::Value, String> {
        use serde_json::json;
        let items = |elem: &Option<Box<TypeExpr>>| -> Result<serde_json::Value, String> {
            Ok(match elem {
                None => json!({"type": "array"}),
                Some(t) => json!({"type": "array", "items": t.to_json_schema()?}),
            })
        };
        let all = |ts: &[TypeExpr]| -> Result<Vec<serde_json::Value>, String> {
            ts.iter().map(TypeExpr::to_json_schema).collect()
        };
        Ok(match self {
            TypeExpr::Any => json!({}),
            TypeExpr::Never => json!({"not": {}}),
            TypeExpr::Prim(p) => match p {
                Prim::Int => json!({"type": "integer"}),
                Prim::Float | Prim::Number => json!({"type": "number"}),
                Prim::String | Prim::Keyword | Prim::Symbol => json!({"type": "string"}),
                Prim::Bool => json!({"type": "boolean"}),
                Prim::Nil => json!({"type": "null"}),
                Prim::Fn => return Err("function types have no JSON Schema".into()),
            },
            TypeExpr::Map => json!({"type": "object"}),
            TypeExpr::Vector(e) | TypeExpr::List(e) | TypeExpr::Seq(e) => items(e)?,
            TypeExpr::Tuple(ts) => {
                let n = ts.len();
                json!({"type": "array", "prefixItems": all(ts)?, "minItems": n, "maxItems": n})
            }
            TypeExpr::Record(r) => {
                let mut props = serde_json::Map::new();
                let mut required = vec![];
                for f in &r.fields {
                    let name = key_name(&f.key);
                    props.insert(name.clone(), f.ty.to_json_schema()?);
                    if !f.optional && !matches!(f.ty, TypeExpr::Optional(_)) {
                        required.push(name);
                    }
                }
                let mut schema =
                    json!({"type": "object", "properties": props, "required": required});
                if let Some(rest) = &r.rest {
                    schema["additionalProperties"] = rest.to_json_schema()?;
                }
                schema
            }
            TypeExpr::Dict(_, v) => {
                json!({"type": "object", "additionalProperties": v.to_json_schema()?})
            }
            TypeExpr::Fn(_) => return Err("function types have no JSON Schema".into()),
            TypeExpr::Union(ts) => json!({"anyOf": all(ts)?}),
            TypeExpr::And(ts) => json!({"allOf": all(ts)?}),
            TypeExpr::Pred(p) => p.to_json_schema()?,
            TypeExpr::Enum(vs) => {
                let vals: Result<Vec<_>, _> = vs.iter().map(json_of).collect();
                json!({"enum": vals?})
            }
            TypeExpr::Literal(v) => json!({"const": json_of(v)?}),
            TypeExpr::Optional(t) => json!({"anyOf": [t.to_json_schema()?, {"type": "null"}]}),
            TypeExpr::Named(n) => return Err(format!("unknown RTFS type :{n}")),
        })
    }
}

impl fmt::Display for TypeExpr {
    /// The canonical RTFS spelling (`:int`, `[:vector :string]`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::eval::truncate(&self.to_value().to_string()))
    }
}

impl Predicate {
    fn holds(&self, v: &Value) -> bool {
        let number = |x: &Value| match x {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        };
        let length = |x: &Value| match x {
            Value::Str(s) => Some(s.chars().count()),
            _ => None,
        };
        let count = |x: &Value| match x {
            Value::List(items) | Value::Vector(items) => Some(items.len()),
            Value::Map(m) => Some(m.len()),
            Value::Str(s) => Some(s.chars().count()),
            _ => None,
        };
        match self {
            Predicate::Cmp(CmpOp::Eq, x) => v == x,
            Predicate::Cmp(CmpOp::Ne, x) => v != x,
            Predicate::Cmp(op, x) => match (number(v), number(x)) {
                (Some(a), Some(b)) => match op {
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                    CmpOp::Lt => a < b,
                    _ => a <= b,
                },
                _ => false,
            },
            Predicate::MinLength(n) => length(v).is_some_and(|l| l >= *n),
            Predicate::MaxLength(n) => length(v).is_some_and(|l| l <= *n),
            Predicate::Length(n) => length(v) == Some(*n),
            Predicate::MinCount(n) => count(v).is_some_and(|c| c >= *n),
            Predicate::MaxCount(n) => count(v).is_some_and(|c| c <= *n),
            Predicate::Count(n) => count(v) == Some(*n),
            Predicate::NonEmpty => count(v).is_some_and(|c| c > 0),
            Predicate::InRange(lo, hi) => match (number(v), number(lo), number(hi)) {
                (Some(x), Some(lo), Some(hi)) => lo <= x && x <= hi,
                _ => false,
            },
            Predicate::HasKey(k) => v.as_map().is_some_and(|m| m.contains_key(k)),
            Predicate::RequiredKeys(ks) => v
                .as_map()
                .is_some_and(|m| ks.iter().all(|k| m.contains_key(k))),
            Predicate::Regex(_) | Predicate::Custom(..) => true,
        }
    }

    fn to_value(&self) -> Value {
        let kw = Value::keyword;
        let n = |x: usize| Value::Int(x as i64);
        let items = match self {
            Predicate::Cmp(op, x) => vec![kw(op.name()), x.clone()],
            Predicate::MinLength(x) => vec![kw("min-length"), n(*x)],
            Predicate::MaxLength(x) => vec![kw("max-length"), n(*x)],
            Predicate::Length(x) => vec![kw("length"), n(*x)],
            Predicate::MinCount(x) => vec![kw("min-count"), n(*x)],
            Predicate::MaxCount(x) => vec![kw("max-count"), n(*x)],
            Predicate::Count(x) => vec![kw("count"), n(*x)],
            Predicate::NonEmpty => vec![kw("non-empty")],
            Predicate::InRange(lo, hi) => vec![kw("in-range"), lo.clone(), hi.clone()],
            Predicate::HasKey(k) => vec![kw("has-key"), k.clone()],
            Predicate::RequiredKeys(ks) => vec![kw("required-keys"), Value::vector(ks.clone())],
            Predicate::Regex(re) => vec![kw("matches-regex"), Value::Str(re.clone())],
            Predicate::Custom(name, args) => {
                let mut v = vec![kw(name)];
                v.extend(args.iter().cloned());
                v
            }
        };
        Value::vector(items)
    }

    fn to_json_schema(&self) -> Result<serde_json::Value, String> {
        use serde_json::json;
        let size = |x: &usize| *x as u64;
        Ok(match self {
            Predicate::Cmp(op, x) => {
                let x = json_of(x)?;
                match op {
                    CmpOp::Gt => json!({"exclusiveMinimum": x}),
                    CmpOp::Ge => json!({"minimum": x}),
                    CmpOp::Lt => json!({"exclusiveMaximum": x}),
                    CmpOp::Le => json!({"maximum": x}),
                    CmpOp::Eq => json!({"const": x}),
                    CmpOp::Ne => json!({"not": {"const": x}}),
                }
            }
            Predicate::MinLength(x) => json!({"minLength": size(x)}),
            Predicate::MaxLength(x) => json!({"maxLength": size(x)}),
            Predicate::Length(x) => json!({"minLength": size(x), "maxLength": size(x)}),
            Predicate::MinCount(x) => json!({"minItems": size(x)}),
            Predicate::MaxCount(x) => json!({"maxItems": size(x)}),
            Predicate::Count(x) => json!({"minItems": size(x), "maxItems": size(x)}),
            Predicate::NonEmpty => json!({"minItems": 1}),
            Predicate::InRange(lo, hi) => json!({"minimum": json_of(lo)?, "maximum": json_of(hi)?}),
            Predicate::HasKey(k) => json!({"required": [key_name(k)]}),
            Predicate::RequiredKeys(ks) => {
                json!({"required": ks.iter().map(key_name).collect::<Vec<_>>()})
            }
            Predicate::Regex(re) => json!({"pattern": re.to_string()}),
            Predicate::Custom(..) => json!({}),
        })
    }
}

fn json_of(v: &Value) -> Result<serde_json::Value, String> {
    crate::json::to_json(v).map_err(|e| e.message)
}

fn key_name(k: &Value) -> String {
    match k {
        Value::Keyword(s) | Value::Str(s) | Value::Symbol(s) => s.to_string(),
        other => other.to_string(),
    }
}

/// `string "abc"`, `int 5`: a value for messages.
fn describe(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        other => format!("{} {}", other.type_name(), crate::eval::brief(other)),
    }
}

/// The name of a keyword or symbol.
fn name_of(v: &Value) -> Option<&str> {
    match v {
        Value::Keyword(s) | Value::Symbol(s) => Some(s),
        _ => None,
    }
}

/// The type a primitive name stands for, if it is one (any case).
fn named(name: &str) -> Option<TypeExpr> {
    let lower = name.to_ascii_lowercase();
    Some(match lower.as_str() {
        "any" | "anything" | "object" => TypeExpr::Any,
        "never" | "nothing" => TypeExpr::Never,
        "int" | "integer" | "long" | "i64" => TypeExpr::Prim(Prim::Int),
        "float" | "double" | "f64" => TypeExpr::Prim(Prim::Float),
        "number" | "num" => TypeExpr::Prim(Prim::Number),
        "string" | "str" => TypeExpr::Prim(Prim::String),
        "bool" | "boolean" => TypeExpr::Prim(Prim::Bool),
        "nil" | "null" => TypeExpr::Prim(Prim::Nil),
        "keyword" => TypeExpr::Prim(Prim::Keyword),
        "symbol" => TypeExpr::Prim(Prim::Symbol),
        "fn" | "function" | "ifn" => TypeExpr::Prim(Prim::Fn),
        "map" | "hash-map" => TypeExpr::Map,
        "vector" | "vec" | "array" => TypeExpr::Vector(None),
        "list" => TypeExpr::List(None),
        "seq" | "sequential" => TypeExpr::Seq(None),
        _ => return None,
    })
}

/// `Vector<Int>`, `List<String>`, `Optional<Int>` (the type-checking
/// guide's spelling), nested as deep as types go; `None` for other names.
fn generic(name: &str, depth: usize) -> Result<Option<TypeExpr>, String> {
    let Some((base, arg)) = name.strip_suffix('>').and_then(|n| n.split_once('<')) else {
        return Ok(None);
    };
    let make: fn(Box<TypeExpr>) -> TypeExpr = match base.to_ascii_lowercase().as_str() {
        "vector" | "vec" | "array" => |t| TypeExpr::Vector(Some(t)),
        "list" => |t| TypeExpr::List(Some(t)),
        "seq" => |t| TypeExpr::Seq(Some(t)),
        "optional" | "maybe" | "option" => TypeExpr::Optional,
        _ => return Ok(None),
    };
    let inner = parse_at(&Value::keyword(arg), depth + 1)?;
    Ok(Some(make(Box::new(inner))))
}

fn parse_at(v: &Value, depth: usize) -> Result<TypeExpr, String> {
    if depth > MAX_TYPE_DEPTH {
        return Err(format!(
            "type expression nested deeper than {MAX_TYPE_DEPTH} levels"
        ));
    }
    let sub = |x: &Value| parse_at(x, depth + 1);
    match v {
        Value::Keyword(name) | Value::Symbol(name) => {
            if let Some(t) = named(name) {
                return Ok(t);
            }
            if let Some(t) = generic(name, depth)? {
                return Ok(t);
            }
            if let Some(base) = name.strip_suffix('?')
                && let Some(t) = named(base)
            {
                return Ok(TypeExpr::Optional(Box::new(t)));
            }
            if name.is_empty() {
                return Err("empty type name".into());
            }
            Ok(TypeExpr::Named(name.clone()))
        }
        Value::Nil => Ok(TypeExpr::Prim(Prim::Nil)),
        Value::List(items) => {
            // (or T ...), (and T ...), (union T ...), (optional T)
            let head = items.first().and_then(name_of);
            let args = items.get(1..).unwrap_or_default();
            match head {
                Some("or" | "union" | "and") if !args.is_empty() => {
                    let ts = args.iter().map(sub).collect::<Result<Vec<_>, _>>()?;
                    Ok(if head == Some("and") {
                        TypeExpr::And(ts)
                    } else {
                        TypeExpr::Union(ts)
                    })
                }
                Some("optional" | "maybe") if args.len() == 1 => {
                    Ok(TypeExpr::Optional(Box::new(sub(&args[0])?)))
                }
                _ => Err(format!(
                    "not a type expression: {} (a list type is (or T ...) or (and T ...))",
                    crate::eval::brief(v)
                )),
            }
        }
        Value::Vector(items) => parse_vector(v, items, depth),
        other => Err(format!(
            "not a type expression: {}",
            crate::eval::brief(other)
        )),
    }
}

fn parse_vector(whole: &Value, items: &[Value], depth: usize) -> Result<TypeExpr, String> {
    let sub = |x: &Value| parse_at(x, depth + 1);
    let all = |xs: &[Value]| xs.iter().map(sub).collect::<Result<Vec<_>, String>>();
    let head = match items.first() {
        Some(Value::Keyword(k)) => Some(&**k),
        _ => None,
    };
    let args = items.get(1..).unwrap_or_default();
    let shown = || crate::eval::brief(whole);
    let want = |what: &str| Err(format!("{} needs {what}", shown()));
    match head {
        Some("vector" | "list" | "seq" | "sequential" | "array") => {
            let elem = match args.first() {
                None => None,
                Some(t) => Some(Box::new(sub(t)?)),
            };
            // [:array T shape]: the shape is not checked.
            if args.len() > 1 && head != Some("array") {
                return want("at most one element type");
            }
            Ok(match head {
                Some("list") => TypeExpr::List(elem),
                Some("seq" | "sequential") => TypeExpr::Seq(elem),
                _ => TypeExpr::Vector(elem),
            })
        }
        Some("tuple") => Ok(TypeExpr::Tuple(all(args)?)),
        Some("map" | "record") => parse_record(args, &sub, shown),
        Some("map-of" | "dict") => match args {
            [k, v] => Ok(TypeExpr::Dict(Box::new(sub(k)?), Box::new(sub(v)?))),
            _ => want("a key type and a value type"),
        },
        Some("union" | "or") if !args.is_empty() => Ok(TypeExpr::Union(all(args)?)),
        Some("and") if !args.is_empty() => Ok(TypeExpr::And(all(args)?)),
        Some("union" | "or" | "and") => want("at least one type"),
        Some("enum") if !args.is_empty() => Ok(TypeExpr::Enum(args.to_vec())),
        Some("enum") => want("at least one value"),
        Some("val" | "=") => match args {
            [x] => Ok(TypeExpr::Literal(x.clone())),
            _ => want("exactly one value"),
        },
        Some("optional" | "maybe") => match args {
            [t] => Ok(TypeExpr::Optional(Box::new(sub(t)?))),
            _ => want("exactly one type"),
        },
        Some("fn" | "=>") => {
            let (params, ret) = match args {
                [Value::Vector(ps), ret] => (ps, ret),
                _ => return want("a parameter-type vector and a return type: [:fn [:int] :int]"),
            };
            let mut fixed = vec![];
            let mut rest = None;
            let mut i = 0;
            while i < params.len() {
                if name_of(&params[i]) == Some("&") {
                    let Some(r) = params.get(i + 1) else {
                        return want("a type after `&`");
                    };
                    rest = Some(Box::new(sub(r)?));
                    break;
                }
                fixed.push(sub(&params[i])?);
                i += 1;
            }
            Ok(TypeExpr::Fn(FnType {
                params: fixed,
                rest,
                ret: Box::new(sub(ret)?),
            }))
        }
        Some("resource") => Ok(TypeExpr::Named("resource".into())),
        Some(p) if PREDICATES.contains(&p) => parse_predicate(p, args, shown).map(TypeExpr::Pred),
        // A vector of types with no constructor: positional (a tuple).
        _ => Ok(TypeExpr::Tuple(all(items)?)),
    }
}

fn parse_record(
    args: &[Value],
    sub: &dyn Fn(&Value) -> Result<TypeExpr, String>,
    shown: impl Fn() -> String,
) -> Result<TypeExpr, String> {
    let mut fields = vec![];
    let mut rest = None;
    for entry in args {
        match entry {
            // [:map {:name :string :age :int}]
            Value::Map(m) => {
                for (k, t) in m.iter() {
                    fields.push(Field {
                        key: k.clone(),
                        ty: sub(t)?,
                        optional: false,
                    });
                }
            }
            Value::Vector(parts) => match &parts[..] {
                // [:* T], with or without options: the type of other keys.
                [k, t] | [k, Value::Map(_), t] if name_of(k) == Some("*") => {
                    rest = Some(Box::new(sub(t)?))
                }
                [k, t] => fields.push(Field {
                    key: k.clone(),
                    ty: sub(t)?,
                    optional: false,
                }),
                [k, Value::Map(props), t] => fields.push(Field {
                    key: k.clone(),
                    ty: sub(t)?,
                    optional: props
                        .get(&Value::keyword("optional"))
                        .is_some_and(Value::is_truthy),
                }),
                [k, t, q] if name_of(q) == Some("?") => fields.push(Field {
                    key: k.clone(),
                    ty: sub(t)?,
                    optional: true,
                }),
                _ => {
                    return Err(format!(
                        "{}: a field is [:key type] or [:key {{:optional true}} type], got {entry}",
                        shown()
                    ));
                }
            },
            other => {
                return Err(format!("{}: a field is [:key type], got {other}", shown()));
            }
        }
    }
    Ok(TypeExpr::Record(Record { fields, rest }))
}

fn parse_predicate(
    op: &str,
    args: &[Value],
    shown: impl Fn() -> String,
) -> Result<Predicate, String> {
    let count = |x: &Value| match x {
        Value::Int(i) if *i >= 0 => Ok(*i as usize),
        _ => Err(format!("{}: expected a count, got {x}", shown())),
    };
    let number = |x: &Value| match x {
        Value::Int(_) | Value::Float(_) => Ok(x.clone()),
        _ => Err(format!("{}: expected a number, got {x}", shown())),
    };
    let bad = || Err(format!("{}: wrong number of arguments", shown()));
    Ok(match (op, args) {
        (">", [x]) => Predicate::Cmp(CmpOp::Gt, number(x)?),
        (">=", [x]) => Predicate::Cmp(CmpOp::Ge, number(x)?),
        ("<", [x]) => Predicate::Cmp(CmpOp::Lt, number(x)?),
        ("<=", [x]) => Predicate::Cmp(CmpOp::Le, number(x)?),
        ("!=", [x]) => Predicate::Cmp(CmpOp::Ne, x.clone()),
        ("min-length", [x]) => Predicate::MinLength(count(x)?),
        ("max-length", [x]) => Predicate::MaxLength(count(x)?),
        ("length", [x]) => Predicate::Length(count(x)?),
        ("min-count", [x]) => Predicate::MinCount(count(x)?),
        ("max-count", [x]) => Predicate::MaxCount(count(x)?),
        ("count", [x]) => Predicate::Count(count(x)?),
        ("non-empty", []) => Predicate::NonEmpty,
        ("in-range", [lo, hi]) => Predicate::InRange(number(lo)?, number(hi)?),
        ("has-key", [k]) => Predicate::HasKey(k.clone()),
        ("required-keys", [Value::Vector(ks)]) => Predicate::RequiredKeys(ks.to_vec()),
        ("matches-regex", [Value::Str(re)]) => Predicate::Regex(re.clone()),
        _ => return bad(),
    })
}

/// True when `e` can only be a type annotation where a binding pattern or
/// a type may appear: a keyword, a vector whose first element is a keyword
/// (patterns never start with one), or a list (never a pattern).
pub fn is_annotation(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Keyword(_) | ExprKind::List(_) => true,
        ExprKind::Vector(items) => matches!(
            items.first().map(|f| &f.kind),
            Some(ExprKind::Keyword(k)) if &**k != "as"
        ),
        _ => false,
    }
}

/// True when `e` is a binding pattern: a symbol (other than `&`), a
/// vector or a map.
pub fn is_pattern(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => &**s != "&",
        ExprKind::Vector(_) | ExprKind::Map(_) => !is_annotation(e),
        _ => false,
    }
}

/// True when `e` in first body position (`(fn [x] :int body)`) is a return
/// type rather than a body form: a keyword, a vector headed by a type
/// constructor or predicate (`[:vector :int]`), or `(or ...)`/`(and ...)`
/// of type-like forms.
pub fn is_return_annotation(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Keyword(_) => true,
        ExprKind::Vector(items) => matches!(
            items.first().map(|f| &f.kind),
            Some(ExprKind::Keyword(k)) if CONSTRUCTORS.contains(&&**k) || PREDICATES.contains(&&**k)
        ),
        ExprKind::List(items) => {
            matches!(
                items.first().and_then(Expr::as_symbol),
                Some("or" | "and" | "union")
            ) && items.len() > 1
                && items[1..]
                    .iter()
                    .all(|t| matches!(t.kind, ExprKind::Keyword(_)) || is_return_annotation(t))
        }
        _ => false,
    }
}

/// A parsed annotation and where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotation {
    /// The type.
    pub ty: TypeExpr,
    /// The annotation in the source.
    pub span: Span,
}

impl Annotation {
    /// Parses the annotation written as `e`.
    pub fn parse(e: &Expr) -> Result<Annotation, String> {
        Ok(Annotation {
            ty: TypeExpr::parse_expr(e)?,
            span: e.span,
        })
    }
}

/// A parameter or binding and its annotation, as written.
#[derive(Debug, Clone, Copy)]
pub struct Annotated<'a> {
    /// The binding pattern.
    pub pattern: &'a Expr,
    /// The type annotation after it, if any.
    pub ty: Option<&'a Expr>,
}

/// Splits a parameter vector's elements into parameters with their
/// annotations and the `& rest` parameter: `[x :int [a b] [:tuple :int
/// :int] & more :string]`. `Err` carries the offending element and what is
/// wrong.
pub fn split_params(
    params: &[Expr],
) -> Result<(Vec<Annotated<'_>>, Option<Annotated<'_>>), (Span, String)> {
    let mut fixed = vec![];
    let mut i = 0;
    while i < params.len() {
        let p = &params[i];
        if p.as_symbol() == Some("&") {
            let Some(rest) = params.get(i + 1) else {
                return Err((p.span, "a parameter after `&`".into()));
            };
            let ty = params.get(i + 2).filter(|t| is_annotation(t));
            let used = 2 + usize::from(ty.is_some());
            if let Some(extra) = params.get(i + used) {
                return Err((extra.span, "exactly one parameter after `&`".into()));
            }
            return Ok((fixed, Some(Annotated { pattern: rest, ty })));
        }
        if is_annotation(p) {
            return Err((p.span, "a parameter before this type annotation".into()));
        }
        let ty = params.get(i + 1).filter(|t| is_annotation(t));
        fixed.push(Annotated { pattern: p, ty });
        i += 1 + usize::from(ty.is_some());
    }
    Ok((fixed, None))
}

/// One `let` binding: pattern, optional annotation, value.
#[derive(Debug, Clone, Copy)]
pub struct Binding<'a> {
    /// The binding pattern.
    pub pattern: &'a Expr,
    /// The annotation between pattern and value, if any.
    pub ty: Option<&'a Expr>,
    /// The value expression.
    pub value: &'a Expr,
}

/// Splits a `let` binding vector into bindings, each `pattern value` or
/// `pattern type value`: `[x :int 1 y 2]`. When both readings are possible
/// the one without annotations wins, so `[x :a y :b]` binds keywords as it
/// always did. `None` when no reading works.
pub fn split_bindings(items: &[Expr]) -> Option<Vec<Binding<'_>>> {
    // Fast path: plain pairs.
    if items.len().is_multiple_of(2) && items.chunks(2).all(|p| is_pattern(&p[0])) {
        return Some(
            items
                .chunks(2)
                .map(|p| Binding {
                    pattern: &p[0],
                    ty: None,
                    value: &p[1],
                })
                .collect(),
        );
    }
    // ok[i]: the bindings from i on can be split (plain pairs preferred).
    let n = items.len();
    let mut ok = vec![false; n + 1];
    let mut annotated = vec![false; n + 1];
    ok[n] = true;
    for i in (0..n).rev() {
        if !is_pattern(&items[i]) {
            continue;
        }
        if i + 2 <= n && ok[i + 2] {
            ok[i] = true;
        } else if i + 3 <= n && is_annotation(&items[i + 1]) && ok[i + 3] {
            ok[i] = true;
            annotated[i] = true;
        }
    }
    if !ok[0] {
        return None;
    }
    let mut out = vec![];
    let mut i = 0;
    while i < n {
        if annotated[i] {
            out.push(Binding {
                pattern: &items[i],
                ty: Some(&items[i + 1]),
                value: &items[i + 2],
            });
            i += 3;
        } else {
            out.push(Binding {
                pattern: &items[i],
                ty: None,
                value: &items[i + 1],
            });
            i += 2;
        }
    }
    Some(out)
}

/// The return annotation and the body of an arity: `(fn [x] :int (inc x))`
/// has `:int` and `[(inc x)]`. A would-be annotation that is the only form
/// is the body (`(fn [] :done)` returns `:done`).
pub fn split_return(after_params: &[Expr]) -> (Option<&Expr>, &[Expr]) {
    match after_params {
        [ty, body @ ..] if !body.is_empty() && is_return_annotation(ty) => (Some(ty), body),
        body => (None, body),
    }
}

/// A literal that does not have the type its annotation declares, found
/// without running the program (see [`literal_mismatches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LiteralMismatch {
    /// The literal.
    pub span: Span,
    /// The annotation it fails.
    pub annotation: Span,
    /// What was annotated: `parameter x of add`, `let binding y`, ...
    pub target: String,
    /// The check's message: `expected :int, got string "a"`.
    pub message: String,
}

/// A parameter's parsed annotation (with its span) and printed pattern.
type ParamSig = (Option<(TypeExpr, Span)>, String);

/// Literal values that meet an annotation they do not satisfy, for
/// preflight: `(let [x :int "a"] ...)`, `(def n :int "a")`, and calls of a
/// `defn` with annotated parameters, `(add 1 "2")`, when the argument is
/// a constant. Annotations that do not parse are reported too (the target
/// says so). Calls are matched by name to every `defn` in `forms`.
pub fn literal_mismatches(forms: &[Expr]) -> Vec<LiteralMismatch> {
    let mut out = vec![];
    // Parameter types of every annotated defn, by name.
    let mut sigs: Vec<(&str, Vec<ParamSig>)> = vec![];
    for f in forms {
        f.walk(&mut |e| {
            let Some(items) = e.as_list() else { return };
            if items.first().and_then(Expr::as_symbol) != Some("defn") {
                return;
            }
            let Some(name) = items.get(1).and_then(Expr::as_symbol) else {
                return;
            };
            let params = items[2..]
                .iter()
                .find(|x| matches!(x.kind, ExprKind::Vector(_)));
            let Some(ExprKind::Vector(ps)) = params.map(|p| &p.kind) else {
                return;
            };
            let Ok((fixed, _)) = split_params(ps) else {
                return;
            };
            let types = fixed
                .iter()
                .map(|a| {
                    let ty =
                        a.ty.and_then(|t| TypeExpr::parse_expr(t).ok().map(|ty| (ty, t.span)));
                    (ty, crate::printer::print_expr(a.pattern))
                })
                .collect();
            sigs.push((name, types));
        });
    }
    let check = |value: &Expr, ty: &Expr, target: String, out: &mut Vec<LiteralMismatch>| {
        if !value.is_constant() {
            return;
        }
        match TypeExpr::parse_expr(ty) {
            Ok(t) => {
                if let Err(message) = t.check(&value.to_value()) {
                    out.push(LiteralMismatch {
                        span: value.span,
                        annotation: ty.span,
                        target,
                        message,
                    });
                }
            }
            Err(message) => out.push(LiteralMismatch {
                span: ty.span,
                annotation: ty.span,
                target: format!("annotation of {target} (not a type)"),
                message,
            }),
        }
    };
    for f in forms {
        f.walk(&mut |e| {
            let Some(items) = e.as_list() else { return };
            match items.first().and_then(Expr::as_symbol) {
                Some("let") => {
                    if let Some(ExprKind::Vector(bs)) = items.get(1).map(|b| &b.kind)
                        && let Some(bindings) = split_bindings(bs)
                    {
                        for b in bindings {
                            if let Some(ty) = b.ty {
                                let target = format!(
                                    "let binding {}",
                                    crate::printer::print_expr(b.pattern)
                                );
                                check(b.value, ty, target, &mut out);
                            }
                        }
                    }
                }
                Some("def") => {
                    if let [_, name, ty, value] = items
                        && is_annotation(ty)
                    {
                        let target = format!("def {}", crate::printer::print_expr(name));
                        check(value, ty, target, &mut out);
                    }
                }
                Some(head) => {
                    for (name, params) in &sigs {
                        if *name != head || params.len() != items.len() - 1 {
                            continue;
                        }
                        for ((ty, pname), arg) in params.iter().zip(&items[1..]) {
                            if let Some((t, tspan)) = ty
                                && arg.is_constant()
                                && let Err(message) = t.check(&arg.to_value())
                            {
                                out.push(LiteralMismatch {
                                    span: arg.span,
                                    annotation: *tspan,
                                    target: format!("parameter {pname} of {name}"),
                                    message,
                                });
                            }
                        }
                    }
                }
                None => {}
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ty(src: &str) -> TypeExpr {
        let v = crate::parser::parse_one(src).map(|e| e.to_value());
        match v.map(|v| TypeExpr::parse(&v)) {
            Ok(Ok(t)) => t,
            other => panic!("{src}: {other:?}"),
        }
    }

    fn val(src: &str) -> Value {
        crate::eval_str(src).unwrap_or_else(|e| panic!("{src}: {e}"))
    }

    #[test]
    fn primitives_in_every_spelling() {
        for (src, want) in [
            (":int", TypeExpr::Prim(Prim::Int)),
            (":integer", TypeExpr::Prim(Prim::Int)),
            ("Int", TypeExpr::Prim(Prim::Int)),
            ("Integer", TypeExpr::Prim(Prim::Int)),
            (":String", TypeExpr::Prim(Prim::String)),
            (":boolean", TypeExpr::Prim(Prim::Bool)),
            (":number", TypeExpr::Prim(Prim::Number)),
            ("nil", TypeExpr::Prim(Prim::Nil)),
            (":any", TypeExpr::Any),
            (":vector", TypeExpr::Vector(None)),
            (
                ":string?",
                TypeExpr::Optional(Box::new(TypeExpr::Prim(Prim::String))),
            ),
            (":CustomType", TypeExpr::Named("CustomType".into())),
            (
                "Vector<Int>",
                TypeExpr::Vector(Some(Box::new(TypeExpr::Prim(Prim::Int)))),
            ),
            (
                "List<Vector<String>>",
                TypeExpr::List(Some(Box::new(TypeExpr::Vector(Some(Box::new(
                    TypeExpr::Prim(Prim::String),
                )))))),
            ),
            ("Map<K>", TypeExpr::Named("Map<K>".into())),
        ] {
            assert_eq!(ty(src), want, "{src}");
        }
    }

    #[test]
    fn checks_values() {
        let cases: &[(&str, &str, bool)] = &[
            (":int", "1", true),
            (":int", "1.5", false),
            (":float", "1", true),
            (":float", "1.5", true),
            (":number", "\"1\"", false),
            (":string?", "nil", true),
            (":string?", "1", false),
            ("[:vector :int]", "[1 2]", true),
            ("[:vector :int]", "[1 \"2\"]", false),
            ("[:vector :int]", "'(1 2)", false),
            ("[:list :int]", "'(1 2)", true),
            ("[:seq :int]", "'(1 2)", true),
            ("[:tuple :string :int]", "[\"a\" 1]", true),
            ("[:tuple :string :int]", "[\"a\" 1 2]", false),
            ("[:int :int]", "[1 2]", true),
            (
                "[:map [:name :string] [:age :int]]",
                "{:name \"A\" :age 3 :x 1}",
                true,
            ),
            ("[:map [:name :string] [:age :int]]", "{:name \"A\"}", false),
            (
                "[:map [:name :string] [:age {:optional true} :int]]",
                "{:name \"A\"}",
                true,
            ),
            (
                "[:map [:name :string] [:age :int ?]]",
                "{:name \"A\"}",
                true,
            ),
            ("[:map {:name :string}]", "{:name 1}", false),
            ("[:record [:a :int] [:* :string]]", "{:a 1 :b \"x\"}", true),
            ("[:record [:a :int] [:* :string]]", "{:a 1 :b 2}", false),
            ("[:map-of :keyword :int]", "{:a 1 :b 2}", true),
            ("[:dict :string :int]", "{:a 1}", false),
            ("[:union :int :string]", "\"x\"", true),
            ("[:or :int :string]", ":x", false),
            ("(or :int :string)", "1", true),
            ("[:and :int [:> 0] [:< 100]]", "50", true),
            ("[:and :int [:> 0] [:< 100]]", "100", false),
            ("[:and :string [:min-length 3]]", "\"ab\"", false),
            ("[:enum :red :green]", ":red", true),
            ("[:enum :red :green]", ":blue", false),
            ("[:val 5]", "5", true),
            ("[:= \"a\"]", "\"b\"", false),
            ("[:fn [:int] :int]", "inc", true),
            ("[:fn [:int] :int]", "5", false),
            (":fn", ":k", false),
            (":fn", "(fn [] 1)", true),
            ("[:optional :int]", "nil", true),
            ("[:in-range 1 5]", "5", true),
            ("[:has-key :a]", "{:a nil}", true),
            ("[:required-keys [:a :b]]", "{:a 1}", false),
            ("[:non-empty]", "[]", false),
            ("[:count 2]", "[1 2]", true),
            (":never", "nil", false),
            (":Whatever", "nil", true),
        ];
        for (t, v, want) in cases {
            assert_eq!(ty(t).accepts(&val(v)), *want, "{t} on {v}");
        }
    }

    #[test]
    fn errors_name_the_path() {
        let t = ty("[:map [:user [:map [:age :int]]]]");
        assert_eq!(
            t.check(&val("{:user {:age \"x\"}}")),
            Err("at [:user :age]: expected :int, got string \"x\"".into())
        );
        assert_eq!(
            t.check(&val("{:user {}}")),
            Err("at [:user]: missing required key :age".into())
        );
        let t = ty("[:vector [:vector :int]]");
        assert_eq!(
            t.check(&val("[[1] [2 nil]]")),
            Err("at [1 1]: expected :int, got nil".into())
        );
    }

    #[test]
    fn parse_errors_are_clear() {
        for (src, fragment) in [
            ("[:map-of :int]", "needs a key type and a value type"),
            ("[:vector :int :int]", "at most one element type"),
            ("[:map 5]", "a field is [:key type]"),
            ("[:> \"a\"]", "expected a number"),
            ("[:fn :int]", "parameter-type vector"),
            ("\"int\"", "not a type expression"),
            ("(f :int)", "not a type expression"),
            ("[:union]", "at least one type"),
        ] {
            let v = crate::parser::parse_one(src).unwrap().to_value();
            let e = TypeExpr::parse(&v).unwrap_err();
            assert!(e.contains(fragment), "{src}: {e}");
        }
        let deep = format!("{}:int{}", "[:vector ".repeat(100), "]".repeat(100));
        let v = crate::parser::parse_one(&deep).unwrap().to_value();
        assert!(TypeExpr::parse(&v).unwrap_err().contains("deeper"));
    }

    #[test]
    fn prints_back_as_the_same_type() {
        for src in [
            ":int",
            "[:vector :string]",
            ":vector",
            "[:map [:a :int] [:b {:optional true} :string] [:* :any]]",
            "[:map [:* {} :int] [:a {:doc \"x\"} :int]]",
            "Vector<Optional<Int>>",
            "[:map-of :keyword [:list :int]]",
            "[:fn [:int & :string] :bool]",
            "[:union :int :nil]",
            "[:and :int [:>= 0] [:in-range 0 9]]",
            "[:enum \"a\" :b 3]",
            "[:val {:a 1}]",
            "[:optional [:tuple :int :int]]",
            "[:matches-regex \"^a\"]",
            ":MyType",
        ] {
            let t = ty(src);
            let again = TypeExpr::parse(&t.to_value()).unwrap();
            assert_eq!(again, t, "{src} printed as {t}");
        }
        assert_eq!(ty("Int").to_string(), ":int");
        assert_eq!(ty("(or :int String)").to_string(), "[:union :int :string]");
    }

    #[test]
    fn json_schema_matches_the_marketplace_conversion() {
        // The cases of ccos-marketplace's rtfs_type_to_json_schema test.
        assert_eq!(
            ty("[:map [:message :string] [:count {:optional true} :int]]")
                .to_json_schema()
                .unwrap(),
            json!({"type":"object","properties":{"message":{"type":"string"},"count":{"type":"integer"}},"required":["message"]})
        );
        assert_eq!(
            ty("[:number :number]").to_json_schema().unwrap(),
            json!({"type":"array","prefixItems":[{"type":"number"},{"type":"number"}],"minItems":2,"maxItems":2})
        );
        assert_eq!(
            ty(":wat").to_json_schema(),
            Err("unknown RTFS type :wat".into())
        );
        for (src, want) in [
            (":keyword", json!({"type": "string"})),
            (":any", json!({})),
            (":map", json!({"type": "object"})),
            (":list", json!({"type": "array"})),
            (
                "[:vector :int]",
                json!({"type": "array", "items": {"type": "integer"}}),
            ),
            ("[:enum \"a\" :b]", json!({"enum": ["a", "b"]})),
            (
                "[:or :int :nil]",
                json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            ),
            (
                ":string?",
                json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
            ),
            (
                "[:and :int [:> 0]]",
                json!({"allOf": [{"type": "integer"}, {"exclusiveMinimum": 0}]}),
            ),
            (
                "[:map-of :string :int]",
                json!({"type": "object", "additionalProperties": {"type": "integer"}}),
            ),
            ("[:val 3]", json!({"const": 3})),
        ] {
            assert_eq!(ty(src).to_json_schema().unwrap(), want, "{src}");
        }
        assert!(ty("[:fn [] :int]").to_json_schema().is_err());
    }

    #[test]
    fn splits_parameters_and_bindings() {
        let v =
            crate::parser::parse_one("[x :int [a b] [:tuple :int :int] m & r :string]").unwrap();
        let ExprKind::Vector(ps) = &v.kind else {
            panic!()
        };
        let (fixed, rest) = split_params(ps).unwrap();
        let shown: Vec<String> = fixed
            .iter()
            .map(|a| {
                format!(
                    "{}{}",
                    crate::printer::print_expr(a.pattern),
                    a.ty.map(|t| format!(" {}", crate::printer::print_expr(t)))
                        .unwrap_or_default()
                )
            })
            .collect();
        assert_eq!(shown, ["x :int", "[a b] [:tuple :int :int]", "m"]);
        let rest = rest.unwrap();
        assert_eq!(rest.pattern.as_symbol(), Some("r"));
        assert!(rest.ty.is_some());

        let bind = |src: &str| -> Option<Vec<String>> {
            let v = crate::parser::parse_one(src).unwrap();
            let ExprKind::Vector(items) = &v.kind else {
                panic!()
            };
            split_bindings(items).map(|bs| {
                bs.iter()
                    .map(|b| {
                        format!(
                            "{}{}={}",
                            crate::printer::print_expr(b.pattern),
                            b.ty.map(|t| format!(":{}", crate::printer::print_expr(t)))
                                .unwrap_or_default(),
                            crate::printer::print_expr(b.value)
                        )
                    })
                    .collect()
            })
        };
        assert_eq!(bind("[x :a y :b]").unwrap(), ["x=:a", "y=:b"]);
        assert_eq!(bind("[x :int 1]").unwrap(), ["x::int=1"]);
        assert_eq!(bind("[x :int 1 y 2]").unwrap(), ["x::int=1", "y=2"]);
        assert_eq!(
            bind("[x 1 y [:vector :int] [2]]").unwrap(),
            ["x=1", "y:[:vector :int]=[2]"]
        );
        assert_eq!(
            bind("[x :int (f) [a b] :k]").unwrap(),
            ["x::int=(f)", "[a b]=:k"]
        );
        assert_eq!(bind("[x]"), None);
        assert_eq!(bind("[1 2]"), None);
        assert_eq!(bind("[x :int]").unwrap(), ["x=:int"]);
    }

    #[test]
    fn finds_literal_mismatches() {
        let src = "(defn add [a :int b :int] :int (+ a b))
             (add 1 \"2\")
             (add x 2)
             (let [n :string 5 ok :int 1] n)
             (def limit :int \"ten\")
             (let [bad [:vector] 1] bad)";
        let forms = crate::parse(src).unwrap();
        let found = literal_mismatches(&forms);
        let shown: Vec<(String, String)> = found
            .iter()
            .map(|m| (m.target.clone(), m.message.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "parameter b of add".to_string(),
                    "expected :int, got string \"2\"".to_string()
                ),
                (
                    "let binding n".to_string(),
                    "expected :string, got int 5".to_string()
                ),
                (
                    "def limit".to_string(),
                    "expected :int, got string \"ten\"".to_string()
                ),
                (
                    "let binding bad".to_string(),
                    "expected :vector, got int 1".to_string()
                ),
            ]
        );
        let s = found[0].span;
        assert_eq!(&src[s.start..s.end], "\"2\"");
    }
}

//! Runtime values.
//!
//! Values are immutable and cheap to clone (collections sit behind `Arc`), and
//! `Send + Sync`, so a host may evaluate `step-parallel` branches on several
//! threads. Maps are `BTreeMap`s ordered by [`Value`]'s total order, so map
//! iteration, printing and hashing of results are deterministic.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::builtins::Builtin;
use crate::syntax::Expr;

/// An RTFS map: keys in [`Value`]'s total order.
pub type Map = BTreeMap<Value, Value>;

/// A value of the language.
#[derive(Clone)]
pub enum Value {
    /// `nil`
    Nil,
    /// `true` / `false`
    Bool(bool),
    /// 64-bit signed integer; arithmetic overflow is an error.
    Int(i64),
    /// 64-bit float.
    Float(f64),
    /// UTF-8 string.
    Str(Arc<str>),
    /// `:name`, `:ns/name`, `:ccos.echo`; stored without the colon.
    Keyword(Arc<str>),
    /// A symbol as data (from `quote`); stored as written.
    Symbol(Arc<str>),
    /// `(a b c)`
    List(Arc<Vec<Value>>),
    /// `[a b c]`
    Vector(Arc<Vec<Value>>),
    /// `{k v ...}`
    Map(Arc<Map>),
    /// A function: a built-in or a closure.
    Function(Function),
}

/// A callable value.
#[derive(Clone)]
pub enum Function {
    /// A function of the standard library.
    Builtin(Builtin),
    /// A user function created by `fn` or `defn`.
    Closure(Arc<Closure>),
}

/// A user-defined function and the environment it closed over.
pub struct Closure {
    /// The name given by `defn` or `(fn name [...] ...)`, for messages.
    pub name: Option<Arc<str>>,
    /// One or more arities: parameter patterns and bodies (shared by the
    /// copies a recursive group makes of its functions).
    pub arities: Arc<[Arity]>,
    /// The lexical environment at creation.
    pub(crate) env: crate::eval::Env,
    /// For a named `(fn name ...)` or `let`-bound functions that call
    /// themselves or each other: the names to bind on each call (letrec).
    pub(crate) rec: Option<Arc<crate::eval::RecGroup>>,
}

/// One arity of a closure: parameters (possibly with `& rest`) and body.
pub struct Arity {
    /// Fixed parameter patterns.
    pub params: Vec<Expr>,
    /// The pattern bound to the remaining arguments after `&`.
    pub rest: Option<Expr>,
    /// Body expressions, evaluated in order; the last gives the value.
    pub body: Vec<Expr>,
    /// Type annotations of the parameters and the result, when any are
    /// written (`(fn [x :int] :int ...)`); checked on every call.
    pub types: Option<Box<ArityTypes>>,
}

/// The annotations of one arity.
pub struct ArityTypes {
    /// One entry per fixed parameter.
    pub params: Vec<Option<crate::types::Annotation>>,
    /// The type of each rest argument.
    pub rest: Option<crate::types::Annotation>,
    /// The return type.
    pub ret: Option<crate::types::Annotation>,
}

impl Value {
    /// A keyword value from its name (without the leading colon).
    pub fn keyword(name: &str) -> Value {
        Value::Keyword(Arc::from(name))
    }

    /// A string value.
    pub fn string(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    /// A vector value.
    pub fn vector(items: Vec<Value>) -> Value {
        Value::Vector(Arc::new(items))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(items))
    }

    /// A map value from key/value pairs (later duplicates win).
    pub fn map<I: IntoIterator<Item = (Value, Value)>>(entries: I) -> Value {
        Value::Map(Arc::new(entries.into_iter().collect()))
    }

    /// The name of this value's type as used in error messages (`int`, `map`, ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Keyword(_) => "keyword",
            Value::Symbol(_) => "symbol",
            Value::List(_) => "list",
            Value::Vector(_) => "vector",
            Value::Map(_) => "map",
            Value::Function(_) => "function",
        }
    }

    /// Truthiness: everything but `nil` and `false` is true.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The string content, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is a list or a vector.
    pub fn as_seq(&self) -> Option<&[Value]> {
        match self {
            Value::List(v) | Value::Vector(v) => Some(v),
            _ => None,
        }
    }

    /// The map, if this is a map.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Map lookup by keyword name: `(get m :name)`.
    pub fn get_key(&self, name: &str) -> Option<&Value> {
        self.as_map()?.get(&Value::keyword(name))
    }

    fn rank(&self) -> u8 {
        match self {
            Value::Nil => 0,
            Value::Bool(_) => 1,
            Value::Int(_) | Value::Float(_) => 2,
            Value::Str(_) => 3,
            Value::Keyword(_) => 4,
            Value::Symbol(_) => 5,
            Value::List(_) => 6,
            Value::Vector(_) => 7,
            Value::Map(_) => 8,
            Value::Function(_) => 9,
        }
    }
}

impl Function {
    /// The function's name for messages (`+`, `my-fn`, or `fn`).
    pub fn name(&self) -> String {
        match self {
            Function::Builtin(b) => b.name().to_string(),
            Function::Closure(c) => c.name.as_deref().unwrap_or("fn").to_string(),
        }
    }

    fn identity(&self) -> (u8, usize) {
        match self {
            Function::Builtin(b) => (0, *b as usize),
            Function::Closure(c) => (1, Arc::as_ptr(c) as *const u8 as usize),
        }
    }
}

/// Structural equality. Ints and floats are different values (`(= 1 1.0)` is
/// false), as in Clojure; floats compare by bits order (`##NaN` equals itself)
/// so that `Eq` and `Ord` are lawful and values can be map keys.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A total order: by type rank (nil < bool < number < string < keyword <
/// symbol < list < vector < map < function), then by content. Numbers of
/// both kinds order numerically, ints before floats when equal in value.
impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        use Value::*;
        match (self, other) {
            (Nil, Nil) => Ordering::Equal,
            (Bool(a), Bool(b)) => a.cmp(b),
            (Int(a), Int(b)) => a.cmp(b),
            (Float(a), Float(b)) => a.total_cmp(b),
            (Int(a), Float(b)) => (*a as f64).total_cmp(b).then(Ordering::Less),
            (Float(a), Int(b)) => a.total_cmp(&(*b as f64)).then(Ordering::Greater),
            (Str(a), Str(b)) => a.cmp(b),
            (Keyword(a), Keyword(b)) => a.cmp(b),
            (Symbol(a), Symbol(b)) => a.cmp(b),
            (List(a), List(b)) => a.cmp(b),
            (Vector(a), Vector(b)) => a.cmp(b),
            (Map(a), Map(b)) => a.iter().cmp(b.iter()),
            (Function(a), Function(b)) => a.identity().cmp(&b.identity()),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl std::hash::Hash for Value {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Consistent with Eq: hash the canonical printed form's structure.
        self.rank().hash(state);
        match self {
            Value::Nil => {}
            Value::Bool(b) => b.hash(state),
            Value::Int(i) => i.hash(state),
            Value::Float(f) => f.to_bits().hash(state),
            Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => s.hash(state),
            Value::List(v) | Value::Vector(v) => v.hash(state),
            Value::Map(m) => {
                for (k, v) in m.iter() {
                    k.hash(state);
                    v.hash(state);
                }
            }
            Value::Function(f) => f.identity().hash(state),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::printer::print_value(self))
    }
}

/// Displays the canonical printed form (see [`crate::printer`]).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::printer::print_value(self))
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Float(x)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::string(s)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(Arc::from(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_total_and_typed() {
        let mut v = [
            Value::string("b"),
            Value::Int(2),
            Value::Nil,
            Value::keyword("a"),
            Value::Float(1.5),
            Value::Bool(true),
        ];
        v.sort();
        let printed: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        assert_eq!(printed, ["nil", "true", "1.5", "2", "\"b\"", ":a"]);
    }

    #[test]
    fn int_and_float_differ() {
        assert_ne!(Value::Int(1), Value::Float(1.0));
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
    }

    #[test]
    fn truthiness() {
        assert!(!Value::Nil.is_truthy());
        assert!(!Value::Bool(false).is_truthy());
        assert!(Value::Int(0).is_truthy());
        assert!(Value::string("").is_truthy());
    }
}

//! Runtime values.
//!
//! Values are immutable and cheap to clone (collections sit behind `Arc`), and
//! `Send + Sync`, so a host may evaluate `step-parallel` branches on several
//! threads. Maps are `BTreeMap`s ordered by [`Value`]'s total order, so map
//! iteration, printing and hashing of results are deterministic.
//!
//! # Logical size and depth
//!
//! Because collections are shared, a value can be tiny in memory and huge
//! once traversed: `(reduce (fn [acc _] [acc acc]) 1 (range 60))` is 61
//! allocations but 2^60 elements to print, compare or hash. Every
//! collection therefore carries, next to its elements ([`Coll`]), the
//! *logical size* of the value it makes ([`Value::logical_size`]: bytes as
//! if nothing were shared) and its *depth* ([`Value::depth`]), both computed
//! in O(1) per element from the children's when it is built. The evaluator
//! refuses to build a value beyond [`Limits::max_value_bytes`] or
//! [`Limits::max_value_depth`], so every traversal of a value it produces —
//! printing, JSON, equality, ordering, hashing, dropping — is bounded.
//!
//! The infallible constructors ([`Value::vector`], [`Value::map`], ...) are
//! for values of known, modest size. A host building a value from outside
//! data uses a bounded one ([`Value::try_vector`], [`Value::try_map`],
//! [`crate::json::from_json_bounded`]); whatever it builds, the evaluator
//! checks every value a host hands it against the limits in O(1).
//!
//! [`Limits::max_value_bytes`]: crate::Limits::max_value_bytes
//! [`Limits::max_value_depth`]: crate::Limits::max_value_depth

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::builtins::Builtin;
use crate::error::{ErrorKind, Result, RtfsError};
use crate::eval::Limits;
use crate::syntax::Expr;

/// An RTFS map: keys in [`Value`]'s total order.
pub type Map = BTreeMap<Value, Value>;

/// The logical size, in bytes, of a scalar (`nil`, a boolean, a number, a
/// function) and the overhead counted for every string, keyword, symbol
/// and collection on top of its content: roughly what one element takes
/// when printed, and a lower bound of what it takes in memory.
pub const SLOT_BYTES: u64 = 8;

/// A shared, immutable collection: the elements of a list or vector
/// (`Coll<Vec<Value>>`) or the entries of a map (`Coll<Map>`), with the
/// logical size and depth of the value they make, computed once when the
/// collection is built (see the [module docs](self)).
///
/// It dereferences to its content, so `items.len()`, `items.iter()`,
/// `&items[..]` and `map.get(k)` read it as they would an
/// `Arc<Vec<Value>>` or an `Arc<Map>`; clones share the content.
pub struct Coll<T>(Arc<Node<T>>);

/// A collection's content and its cached measures.
struct Node<T> {
    bytes: u64,
    depth: u32,
    items: T,
}

impl<T> Coll<T> {
    /// The logical size in bytes of the value this collection makes
    /// (shared parts counted each time they appear; saturating).
    #[inline]
    pub fn logical_size(&self) -> u64 {
        self.0.bytes
    }

    /// The nesting depth of the value this collection makes: 1 for a
    /// collection of scalars, one more than its deepest element otherwise.
    #[inline]
    pub fn depth(&self) -> u32 {
        self.0.depth
    }

    /// True when both share the same content (so they are equal).
    #[inline]
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The content, without copying it when this is its only owner.
    pub fn into_inner(self) -> T
    where
        T: Clone,
    {
        match Arc::try_unwrap(self.0) {
            Ok(node) => node.items,
            Err(shared) => shared.items.clone(),
        }
    }

    /// Whether this is the only owner of the content (so
    /// [`Coll::into_inner`] does not copy it).
    pub fn is_unique(&self) -> bool {
        Arc::strong_count(&self.0) == 1 && Arc::weak_count(&self.0) == 0
    }

    /// A collection with measures already known (the caller computed them
    /// from exactly these items).
    pub(crate) fn with_measures(items: T, bytes: u64, depth: u32) -> Self {
        Coll(Arc::new(Node {
            bytes,
            depth,
            items,
        }))
    }
}

impl Coll<Vec<Value>> {
    /// The elements of a list or vector, measured (O(1) per element).
    pub fn new(items: Vec<Value>) -> Self {
        let (bytes, depth) = measure_seq(&items);
        Coll::with_measures(items, bytes, depth)
    }
}

impl Coll<Map> {
    /// The entries of a map, measured (O(1) per entry).
    pub fn new(map: Map) -> Self {
        let (bytes, depth) = measure_map(&map);
        Coll::with_measures(map, bytes, depth)
    }
}

/// Logical size and depth of a sequence of `items`.
fn measure_seq(items: &[Value]) -> (u64, u32) {
    let mut bytes = SLOT_BYTES;
    let mut depth = 0u32;
    for v in items {
        bytes = bytes.saturating_add(v.logical_size());
        depth = depth.max(v.depth());
    }
    (bytes, depth.saturating_add(1))
}

/// Logical size and depth of a map.
pub(crate) fn measure_map(map: &Map) -> (u64, u32) {
    let mut bytes = SLOT_BYTES;
    let mut depth = 0u32;
    for (k, v) in map {
        bytes = bytes
            .saturating_add(k.logical_size())
            .saturating_add(v.logical_size());
        depth = depth.max(k.depth()).max(v.depth());
    }
    (bytes, depth.saturating_add(1))
}

impl<T> Clone for Coll<T> {
    #[inline]
    fn clone(&self) -> Self {
        Coll(self.0.clone())
    }
}

impl<T> std::ops::Deref for Coll<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0.items
    }
}

impl<T> AsRef<T> for Coll<T> {
    fn as_ref(&self) -> &T {
        &self.0.items
    }
}

impl<T: fmt::Debug> fmt::Debug for Coll<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.items.fmt(f)
    }
}

impl From<Vec<Value>> for Coll<Vec<Value>> {
    fn from(items: Vec<Value>) -> Self {
        Coll::<Vec<Value>>::new(items)
    }
}

impl From<Map> for Coll<Map> {
    fn from(map: Map) -> Self {
        Coll::<Map>::new(map)
    }
}

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
    List(Coll<Vec<Value>>),
    /// `[a b c]`
    Vector(Coll<Vec<Value>>),
    /// `{k v ...}`
    Map(Coll<Map>),
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
    /// One more than the deepest value the environment holds, so a chain
    /// of closures over closures is bounded like nested collections.
    pub(crate) depth: u32,
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

    /// A vector value. For values of modest, known size; build values
    /// from outside data with [`Value::try_vector`].
    pub fn vector(items: Vec<Value>) -> Value {
        Value::Vector(Coll::<Vec<Value>>::new(items))
    }

    /// A list value. For values of modest, known size; build values from
    /// outside data with [`Value::try_list`].
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Coll::<Vec<Value>>::new(items))
    }

    /// A map value from key/value pairs (later duplicates win). For values
    /// of modest, known size; build values from outside data with
    /// [`Value::try_map`].
    pub fn map<I: IntoIterator<Item = (Value, Value)>>(entries: I) -> Value {
        Value::Map(Coll::<Map>::new(entries.into_iter().collect()))
    }

    /// A vector value, or a [`ErrorKind::Limit`] error when it would exceed
    /// `limits.max_value_bytes` or `limits.max_value_depth`.
    pub fn try_vector(items: Vec<Value>, limits: &Limits) -> Result<Value> {
        let v = Value::vector(items);
        limits.check_value(&v)?;
        Ok(v)
    }

    /// A list value, or a [`ErrorKind::Limit`] error when it would exceed
    /// the value limits (see [`Value::try_vector`]).
    pub fn try_list(items: Vec<Value>, limits: &Limits) -> Result<Value> {
        let v = Value::list(items);
        limits.check_value(&v)?;
        Ok(v)
    }

    /// A map value, or a [`ErrorKind::Limit`] error when it would exceed
    /// the value limits (see [`Value::try_vector`]).
    pub fn try_map(map: Map, limits: &Limits) -> Result<Value> {
        let v = Value::Map(Coll::<Map>::new(map));
        limits.check_value(&v)?;
        Ok(v)
    }

    /// The logical size of the value in bytes: [`SLOT_BYTES`] per scalar,
    /// per collection and per string, keyword or symbol, plus the UTF-8
    /// bytes of strings, keywords and symbols; shared parts count each
    /// time they appear. About the length of the printed form, and what
    /// bounds the work of printing, comparing or hashing the value. O(1).
    #[inline]
    pub fn logical_size(&self) -> u64 {
        match self {
            Value::Str(s) | Value::Keyword(s) | Value::Symbol(s) => {
                SLOT_BYTES.saturating_add(s.len() as u64)
            }
            Value::List(c) | Value::Vector(c) => c.logical_size(),
            Value::Map(c) => c.logical_size(),
            _ => SLOT_BYTES,
        }
    }

    /// The nesting depth of the value: 0 for a scalar or a built-in
    /// function, 1 for a collection of scalars, one more than the deepest
    /// element otherwise; a closure is one deeper than the deepest value
    /// it closes over. O(1).
    #[inline]
    pub fn depth(&self) -> u32 {
        match self {
            Value::List(c) | Value::Vector(c) => c.depth(),
            Value::Map(c) => c.depth(),
            Value::Function(Function::Closure(c)) => c.depth,
            _ => 0,
        }
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
            // Shared content is equal without a traversal: values built by
            // doubling compare in time proportional to their depth.
            (List(a), List(b)) | (Vector(a), Vector(b)) => {
                if Coll::ptr_eq(a, b) {
                    Ordering::Equal
                } else {
                    a.as_slice().cmp(b.as_slice())
                }
            }
            (Map(a), Map(b)) => {
                if Coll::ptr_eq(a, b) {
                    Ordering::Equal
                } else {
                    a.iter().cmp(b.iter())
                }
            }
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
            Value::List(v) | Value::Vector(v) => v.as_slice().hash(state),
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

impl Limits {
    /// Checks `v` against [`Limits::max_value_bytes`] and
    /// [`Limits::max_value_depth`] in O(1) (the measures are cached): a
    /// [`ErrorKind::Limit`] error naming the bound when it exceeds one.
    #[inline]
    pub fn check_value(&self, v: &Value) -> Result<()> {
        let (bytes, depth) = (v.logical_size(), v.depth() as usize);
        if bytes > self.max_value_bytes || depth > self.max_value_depth {
            return Err(self.value_error(bytes, depth));
        }
        Ok(())
    }

    #[cold]
    fn value_error(&self, bytes: u64, depth: usize) -> RtfsError {
        if bytes > self.max_value_bytes {
            value_too_large(bytes, self.max_value_bytes)
        } else {
            value_too_deep(depth, self.max_value_depth)
        }
    }
}

/// The error for a value over `max_value_bytes`.
pub(crate) fn value_too_large(bytes: u64, max: u64) -> RtfsError {
    RtfsError::new(
        ErrorKind::Limit,
        format!("value size limit exceeded: {bytes} bytes > max_value_bytes {max}"),
    )
    .with_help("a value's size counts shared parts each time they appear (as printing would); build smaller values")
}

/// The error for a value over `max_value_depth`.
pub(crate) fn value_too_deep(depth: usize, max: usize) -> RtfsError {
    RtfsError::new(
        ErrorKind::Limit,
        format!("value depth limit exceeded: nesting {depth} > max_value_depth {max}"),
    )
    .with_help("values (and functions closing over values) nest at most this deep")
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

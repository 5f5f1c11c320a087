//! The syntax tree: what the parser produces and the evaluator walks.
//!
//! Every node carries the byte [`Span`] it was read from, so any error the
//! evaluator raises can point at the code that caused it.

use std::sync::Arc;

use crate::error::Span;
use crate::value::Value;

/// A node of the syntax tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What the node is.
    pub kind: ExprKind,
    /// Where it was read from.
    pub span: Span,
    /// Metadata written before the form (`^{:doc "..."}`, `^:private`), as
    /// a map expression. Kept for tools; evaluation, [`Expr::to_value`],
    /// [`Expr::walk`] and the printers ignore it, as they ignore comments.
    pub meta: Option<Box<Expr>>,
}

/// The shape of a syntax node.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// `nil`
    Nil,
    /// `true` / `false`
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal (including `##NaN`, `##Inf`, `##-Inf`).
    Float(f64),
    /// A string literal, escapes resolved.
    Str(Arc<str>),
    /// A keyword literal, without its colon.
    Keyword(Arc<str>),
    /// A symbol.
    Symbol(Arc<str>),
    /// `( ... )`
    List(Vec<Expr>),
    /// `[ ... ]`
    Vector(Vec<Expr>),
    /// `{ k v ... }` in source order (the parser rejects duplicated literal keys).
    Map(Vec<(Expr, Expr)>),
}

impl Expr {
    /// A node of `kind` at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr {
            kind,
            span,
            meta: None,
        }
    }

    /// The metadata map's entries (empty when the form has none).
    pub fn meta_entries(&self) -> &[(Expr, Expr)] {
        match self.meta.as_deref().map(|m| &m.kind) {
            Some(ExprKind::Map(entries)) => entries,
            _ => &[],
        }
    }

    /// The node as data, as `quote` sees it: symbols stay symbols, lists
    /// stay lists.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            ExprKind::Nil => Value::Nil,
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::Keyword(k) => Value::Keyword(k.clone()),
            ExprKind::Symbol(s) => Value::Symbol(s.clone()),
            ExprKind::List(items) => Value::list(items.iter().map(Expr::to_value).collect()),
            ExprKind::Vector(items) => Value::vector(items.iter().map(Expr::to_value).collect()),
            ExprKind::Map(entries) => {
                Value::map(entries.iter().map(|(k, v)| (k.to_value(), v.to_value())))
            }
        }
    }

    /// The symbol name, if this node is a symbol.
    pub fn as_symbol(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The keyword name, if this node is a keyword.
    pub fn as_keyword(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Keyword(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this node is a list.
    pub fn as_list(&self) -> Option<&[Expr]> {
        match &self.kind {
            ExprKind::List(items) => Some(items),
            _ => None,
        }
    }

    /// True for literals whose value does not depend on evaluation
    /// (no symbols, no lists anywhere inside).
    pub fn is_constant(&self) -> bool {
        match &self.kind {
            ExprKind::Symbol(_) | ExprKind::List(_) => false,
            ExprKind::Vector(items) => items.iter().all(Expr::is_constant),
            ExprKind::Map(entries) => entries
                .iter()
                .all(|(k, v)| k.is_constant() && v.is_constant()),
            _ => true,
        }
    }

    /// Calls `f` on this node and every node below it, parents first.
    pub fn walk<'a>(&'a self, f: &mut dyn FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::List(items) | ExprKind::Vector(items) => {
                for i in items {
                    i.walk(f);
                }
            }
            ExprKind::Map(entries) => {
                for (k, v) in entries {
                    k.walk(f);
                    v.walk(f);
                }
            }
            _ => {}
        }
    }
}

/// True when `name` can be written as a symbol (and, after a colon, as a
/// keyword) and read back unchanged.
pub fn is_valid_symbol_name(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !crate::lexer::is_symbol_char(first) || first.is_ascii_digit() {
        return false;
    }
    if (first == '-' || first == '+' || first == '.')
        && name[first.len_utf8()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    {
        return false;
    }
    if matches!(name, "nil" | "true" | "false") {
        return false;
    }
    name.chars().all(crate::lexer::is_symbol_char)
}

/// True when `name` can follow a colon as a keyword and read back unchanged.
pub fn is_valid_keyword_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(crate::lexer::is_symbol_char)
}

//! `ccos.file.*`: file access confined to the configured roots.
//!
//! Every path is resolved to a canonical absolute path (symlinks followed,
//! `..` removed) and must lie inside a canonicalised root; for a file that
//! does not exist yet (writes), the parent directory is canonicalised and
//! checked instead. Relative paths resolve against the first root.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use rtfs::Value;

use super::{Args, BuiltinConfig, MAX_READ_BYTES};
use crate::executor::CallError;

pub(super) fn call(cfg: &BuiltinConfig, id: &str, a: &Args<'_>) -> Result<Value, CallError> {
    let raw = match id {
        "ccos.file.list" => a.opt_str("path")?.unwrap_or("."),
        _ => a.str("path")?,
    };
    let jail = Jail::new(cfg, id)?;
    match id {
        "ccos.file.read" => {
            let p = jail.existing(raw)?;
            let meta = std::fs::metadata(&p).map_err(|e| io_err(id, &p, e))?;
            if meta.is_dir() {
                return Err(CallError::invalid(
                    id,
                    format!("{} is a directory", p.display()),
                ));
            }
            if meta.len() > MAX_READ_BYTES {
                return Err(CallError::failed(
                    id,
                    format!(
                        "{} is {} bytes; the read limit is {MAX_READ_BYTES} bytes",
                        p.display(),
                        meta.len()
                    ),
                ));
            }
            let bytes = std::fs::read(&p).map_err(|e| io_err(id, &p, e))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| CallError::failed(id, format!("{} is not UTF-8 text", p.display())))?;
            Ok(Value::string(&text))
        }
        "ccos.file.list" => {
            let p = jail.existing(raw)?;
            let rd = std::fs::read_dir(&p).map_err(|e| io_err(id, &p, e))?;
            let mut entries = Vec::new();
            for entry in rd {
                let entry = entry.map_err(|e| io_err(id, &p, e))?;
                let meta = entry.metadata().map_err(|e| io_err(id, &entry.path(), e))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                entries.push((name, kind(&meta), meta.len()));
            }
            entries.sort();
            Ok(Value::vector(
                entries
                    .into_iter()
                    .map(|(name, ty, size)| {
                        Value::map([
                            (Value::keyword("name"), Value::string(&name)),
                            (Value::keyword("type"), Value::string(ty)),
                            (Value::keyword("size"), size_value(size)),
                        ])
                    })
                    .collect(),
            ))
        }
        "ccos.file.write" | "ccos.file.append" => {
            let content = a.str("content")?;
            let p = jail.writable(raw)?;
            let mut f = open_for_writing(id, raw, &p, id == "ccos.file.append")?;
            f.write_all(content.as_bytes())
                .map_err(|e| io_err(id, &p, e))?;
            Ok(Value::map([
                (Value::keyword("path"), Value::string(&p.to_string_lossy())),
                (Value::keyword("bytes"), size_value(content.len() as u64)),
            ]))
        }
        "ccos.file.stat" => {
            let p = match jail.existing(raw) {
                Ok(p) => p,
                Err(CallError::Failed { message, .. }) if message.contains("does not exist") => {
                    return Ok(Value::map([
                        (Value::keyword("path"), Value::string(raw)),
                        (Value::keyword("exists"), Value::Bool(false)),
                    ]));
                }
                Err(e) => return Err(e),
            };
            let meta = std::fs::metadata(&p).map_err(|e| io_err(id, &p, e))?;
            let modified = meta
                .modified()
                .ok()
                .map(time::OffsetDateTime::from)
                .and_then(|t| {
                    t.format(&time::format_description::well_known::Rfc3339)
                        .ok()
                });
            Ok(Value::map([
                (Value::keyword("path"), Value::string(&p.to_string_lossy())),
                (Value::keyword("exists"), Value::Bool(true)),
                (Value::keyword("type"), Value::string(kind(&meta))),
                (Value::keyword("size"), size_value(meta.len())),
                (
                    Value::keyword("modified"),
                    modified.map_or(Value::Nil, |m| Value::string(&m)),
                ),
            ]))
        }
        other => Err(CallError::failed(other, "not a file capability")),
    }
}

/// Opens the checked path `p` for writing without following a symlink put
/// there after the check (`O_NOFOLLOW`), and refuses a file with more than
/// one link: a hard link inside a root to a file outside it would
/// otherwise let a write land outside the roots. Only then is the file
/// truncated (write) or positioned at its end (append).
fn open_for_writing(
    id: &str,
    raw: &str,
    p: &Path,
    append: bool,
) -> Result<std::fs::File, CallError> {
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .append(append)
        .custom_flags(libc::O_NOFOLLOW)
        .open(p)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                CallError::denied(id, format!("path {raw:?} is a symbolic link"))
            } else {
                io_err(id, p, e)
            }
        })?;
    let meta = f.metadata().map_err(|e| io_err(id, p, e))?;
    if !meta.is_file() {
        return Err(CallError::denied(
            id,
            format!("path {raw:?} is not a regular file"),
        ));
    }
    if meta.nlink() > 1 {
        return Err(CallError::denied(
            id,
            format!(
                "path {raw:?} has {} hard links; writing through it could change a file outside the allowed roots",
                meta.nlink()
            ),
        ));
    }
    if !append {
        f.set_len(0).map_err(|e| io_err(id, p, e))?;
    }
    Ok(f)
}

fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "dir"
    } else if meta.is_file() {
        "file"
    } else if meta.file_type().is_symlink() {
        "symlink"
    } else {
        "other"
    }
}

fn size_value(n: u64) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

fn io_err(id: &str, p: &Path, e: std::io::Error) -> CallError {
    CallError::failed(id, format!("{}: {e}", p.display()))
}

/// The canonical roots and the path checks.
struct Jail<'a> {
    id: &'a str,
    roots: Vec<PathBuf>,
}

impl<'a> Jail<'a> {
    fn new(cfg: &BuiltinConfig, id: &'a str) -> Result<Jail<'a>, CallError> {
        let roots: Vec<PathBuf> = cfg
            .file_roots
            .iter()
            .filter_map(|r| std::fs::canonicalize(r).ok())
            .collect();
        if roots.is_empty() {
            return Err(CallError::denied(
                id,
                "no accessible file roots are configured",
            ));
        }
        Ok(Jail { id, roots })
    }

    fn absolute(&self, raw: &str) -> Result<PathBuf, CallError> {
        if raw.is_empty() {
            return Err(CallError::invalid(self.id, ":path cannot be empty"));
        }
        if raw.contains('\0') {
            return Err(CallError::invalid(self.id, ":path contains a NUL byte"));
        }
        let p = Path::new(raw);
        Ok(if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.roots[0].join(p)
        })
    }

    fn check(&self, canonical: PathBuf, raw: &str) -> Result<PathBuf, CallError> {
        if self.roots.iter().any(|r| canonical.starts_with(r)) {
            Ok(canonical)
        } else {
            Err(CallError::denied(
                self.id,
                format!("path {raw:?} is outside the allowed file roots"),
            ))
        }
    }

    /// An existing path, canonicalised and checked.
    fn existing(&self, raw: &str) -> Result<PathBuf, CallError> {
        let abs = self.absolute(raw)?;
        match std::fs::canonicalize(&abs) {
            Ok(c) => self.check(c, raw),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Refuse escapes even for missing files, so the answer does
                // not reveal what exists outside the roots.
                self.writable(raw)?;
                Err(CallError::failed(
                    self.id,
                    format!("{raw:?} does not exist"),
                ))
            }
            Err(e) => Err(io_err(self.id, &abs, e)),
        }
    }

    /// A path to write: the file itself when it exists (following
    /// symlinks), else its canonicalised parent joined with its name.
    fn writable(&self, raw: &str) -> Result<PathBuf, CallError> {
        let abs = self.absolute(raw)?;
        if std::fs::symlink_metadata(&abs).is_ok() {
            return match std::fs::canonicalize(&abs) {
                Ok(c) => self.check(c, raw),
                // A dangling symlink: refuse, its target is unknown.
                Err(_) => Err(CallError::denied(
                    self.id,
                    format!("path {raw:?} is a dangling link"),
                )),
            };
        }
        let name = match abs.components().next_back() {
            Some(Component::Normal(n)) => n.to_os_string(),
            _ => {
                return Err(CallError::invalid(
                    self.id,
                    format!("path {raw:?} does not name a file"),
                ));
            }
        };
        let parent = abs
            .parent()
            .ok_or_else(|| CallError::invalid(self.id, format!("path {raw:?} has no parent")))?;
        let parent = match std::fs::canonicalize(parent) {
            Ok(p) => self.check(p, raw)?,
            Err(_) => {
                // Decide refusal lexically so a missing parent outside the
                // roots is still refused rather than "not found".
                let lexical = normalize(parent);
                self.check(lexical, raw)?;
                return Err(CallError::failed(
                    self.id,
                    format!("the directory of {raw:?} does not exist"),
                ));
            }
        };
        Ok(parent.join(name))
    }
}

/// Removes `.` and resolves `..` lexically (no filesystem access).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

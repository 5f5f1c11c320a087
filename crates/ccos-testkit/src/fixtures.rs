//! The goal suite's loopback fixture server (`goals/fixtures/README.md`,
//! section 2): plain routes at the root (`http.json`), an invented TMDB
//! under `/3` (`tmdb.json`) and a GitHub-like API under `/github`
//! (`github.json`). Stateless: one server serves a whole run. Used by the
//! goal-suite runner (`ccos eval goals`) and by end-to-end tests of
//! imported OpenAPI operations.

use std::path::Path;

use serde_json::{Value as Json, json};

use crate::http::{LoopbackServer, Reply, Request};

/// The fixture data, read once.
#[derive(Debug, Clone)]
pub struct Fixtures {
    http: Json,
    tmdb: Json,
    github: Json,
}

impl Fixtures {
    /// Reads `http.json`, `tmdb.json` and `github.json` from `dir`
    /// (`goals/fixtures`).
    pub fn load(dir: &Path) -> Result<Fixtures, String> {
        let read = |name: &str| -> Result<Json, String> {
            let p = dir.join(name);
            let text =
                std::fs::read_to_string(&p).map_err(|e| format!("reading {}: {e}", p.display()))?;
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
        };
        Ok(Fixtures {
            http: read("http.json")?,
            tmdb: read("tmdb.json")?,
            github: read("github.json")?,
        })
    }

    /// Starts the server.
    pub fn serve(self) -> LoopbackServer {
        LoopbackServer::start(move |req| self.answer(req))
    }

    /// The answer to one request.
    pub fn answer(&self, req: &Request) -> Reply {
        if let Some(rest) = req.path.strip_prefix("/3/") {
            return self.tmdb(req, rest);
        }
        if let Some(rest) = req.path.strip_prefix("/github/") {
            return self.github(req, rest);
        }
        self.plain(req)
    }

    fn plain(&self, req: &Request) -> Reply {
        let routes = self.http["routes"].as_array().cloned().unwrap_or_default();
        for r in routes {
            if r["method"] != req.method.as_str() || r["path"] != req.path.as_str() {
                continue;
            }
            if r.get("echo").and_then(Json::as_bool) == Some(true) {
                let is_json = req
                    .header("content-type")
                    .is_some_and(|c| c.contains("json"));
                let received = if is_json {
                    serde_json::from_slice(&req.body).unwrap_or_else(|_| json!(req.text()))
                } else {
                    json!(req.text())
                };
                return Reply::json(200, &json!({ "received": received }));
            }
            let status = r["status"]
                .as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .unwrap_or(200);
            let ctype = r["content_type"].as_str().unwrap_or("text/plain");
            let body = match (r.get("body"), r.get("json")) {
                (Some(Json::String(b)), _) => b.clone(),
                (_, Some(j)) => j.to_string(),
                _ => String::new(),
            };
            return Reply::typed(status, ctype, body);
        }
        Reply::typed(404, "text/plain", "not found")
    }

    fn tmdb(&self, req: &Request, rest: &str) -> Reply {
        let not_found = || {
            Reply::json(
                404,
                &json!({"status_code": 34, "status_message": "The resource you requested could not be found.", "success": false}),
            )
        };
        if req.method != "GET" {
            return not_found();
        }
        let page_no = query_usize(req, "page").unwrap_or(1).max(1);
        let path = format!("/{rest}");
        match path.as_str() {
            // The invented data has no TV shows, companies or
            // collections: their searches answer an empty page, as TMDB
            // does for no hit.
            "/search/movie" | "/search/person" | "/search/tv" | "/search/company"
            | "/search/collection" => {
                let kind = path.trim_start_matches("/search/");
                let query = decoded(req.query_param("query").unwrap_or(""));
                let year = req
                    .query_param("year")
                    .or_else(|| req.query_param("primary_release_year"))
                    .map(decoded);
                match tmdb_search(&self.tmdb, kind, &query, year.as_deref()) {
                    Some(rows) => Reply::json(200, &page(&rows, page_no, 20)),
                    None => Reply::json(422, &json!({"errors": ["query must be provided"]})),
                }
            }
            "/movie/popular" | "/movie/top_rated" => match self.tmdb["responses"].get(&path) {
                Some(first) => {
                    let rows = first["results"].as_array().cloned().unwrap_or_default();
                    Reply::json(200, &page(&rows, page_no, 20))
                }
                None => not_found(),
            },
            _ => match self.tmdb["responses"].get(&path) {
                Some(body) => Reply::json(200, body),
                None => not_found(),
            },
        }
    }

    fn github(&self, req: &Request, rest: &str) -> Reply {
        let not_found = || {
            Reply::json(
                404,
                &json!({"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}),
            )
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let g = &self.github;
        match (req.method.as_str(), parts.as_slice()) {
            ("GET", ["repos", owner, repo]) => match g["repos"].get(format!("{owner}/{repo}")) {
                Some(r) => Reply::json(200, r),
                None => not_found(),
            },
            ("GET", ["repos", owner, repo, "issues"]) => {
                let Some(all) = g["issues"]
                    .get(format!("{owner}/{repo}"))
                    .and_then(Json::as_array)
                else {
                    return not_found();
                };
                let state = req.query_param("state").unwrap_or("open");
                let labels: Vec<String> = req
                    .query_param("labels")
                    .map(|l| {
                        decoded(l)
                            .split(',')
                            .map(|s| s.trim().to_string())
                            .filter(|s| !s.is_empty())
                            .collect()
                    })
                    .unwrap_or_default();
                let mut rows: Vec<Json> = all
                    .iter()
                    .filter(|i| state == "all" || i["state"] == state)
                    .filter(|i| {
                        labels.iter().all(|l| {
                            i["labels"]
                                .as_array()
                                .is_some_and(|ls| ls.iter().any(|x| x["name"] == l.as_str()))
                        })
                    })
                    .cloned()
                    .collect();
                let sort = req.query_param("sort").unwrap_or("created");
                let key = match sort {
                    "updated" => "updated_at",
                    "comments" => "comments",
                    _ => "created_at",
                };
                rows.sort_by(|a, b| compare(&a[key], &b[key]));
                if req.query_param("direction").unwrap_or("desc") != "asc" {
                    rows.reverse();
                }
                Reply::json(200, &json!(paged(rows, req)))
            }
            ("GET", ["repos", owner, repo, "issues", n]) => {
                let issue = g["issues"]
                    .get(format!("{owner}/{repo}"))
                    .and_then(Json::as_array)
                    .and_then(|all| {
                        all.iter()
                            .find(|i| {
                                i["number"].as_u64().map(|x| x.to_string()).as_deref() == Some(*n)
                            })
                            .cloned()
                    });
                match issue {
                    Some(i) => Reply::json(200, &i),
                    None => not_found(),
                }
            }
            ("POST", ["repos", owner, repo, "issues"]) => {
                let Some(r) = g["repos"].get(format!("{owner}/{repo}")) else {
                    return not_found();
                };
                let body = req.json();
                let Some(title) = body["title"].as_str() else {
                    return Reply::json(422, &json!({"message": "Validation Failed"}));
                };
                let highest = g["issues"]
                    .get(format!("{owner}/{repo}"))
                    .and_then(Json::as_array)
                    .map(|all| {
                        all.iter()
                            .filter_map(|i| i["number"].as_u64())
                            .max()
                            .unwrap_or(0)
                    })
                    .unwrap_or(0);
                let number = highest + 1;
                let mut issue = g["created_issue_defaults"].clone();
                let labels: Vec<Json> = body["labels"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|l| l.as_str())
                    .map(|name| {
                        json!({"color": g["label_colors"].get(name).cloned().unwrap_or(json!("ededed")), "name": name})
                    })
                    .collect();
                if let Some(o) = issue.as_object_mut() {
                    o.insert("number".into(), json!(number));
                    o.insert(
                        "id".into(),
                        json!(r["id"].as_u64().unwrap_or(0) * 1000 + number),
                    );
                    o.insert("title".into(), json!(title));
                    o.insert(
                        "body".into(),
                        body.get("body").cloned().unwrap_or(Json::Null),
                    );
                    o.insert("labels".into(), json!(labels));
                    o.insert(
                        "html_url".into(),
                        json!(format!("https://github.com/{owner}/{repo}/issues/{number}")),
                    );
                }
                Reply::json(201, &issue)
            }
            ("GET", ["users", user]) => match g["users"].get(*user) {
                Some(u) => Reply::json(200, u),
                None => not_found(),
            },
            ("GET", ["users", user, "repos"]) => {
                if g["users"].get(*user).is_none() {
                    return not_found();
                }
                let mut rows: Vec<Json> = g["repos"]
                    .as_object()
                    .map(|o| {
                        o.values()
                            .filter(|r| r["owner"]["login"] == *user)
                            .cloned()
                            .collect()
                    })
                    .unwrap_or_default();
                let sort = req.query_param("sort").unwrap_or("full_name");
                let (key, default_desc) = match sort {
                    "created" => ("created_at", true),
                    "updated" => ("updated_at", true),
                    "pushed" => ("pushed_at", true),
                    _ => ("full_name", false),
                };
                rows.sort_by(|a, b| compare(&a[key], &b[key]));
                let desc = match req.query_param("direction") {
                    Some("asc") => false,
                    Some("desc") => true,
                    _ => default_desc,
                };
                if desc {
                    rows.reverse();
                }
                Reply::json(200, &json!(paged(rows, req)))
            }
            _ => not_found(),
        }
    }
}

/// JSON values compared as numbers or strings (stable for sorting).
fn compare(a: &Json, b: &Json) -> std::cmp::Ordering {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
        _ => a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")),
    }
}

fn query_usize(req: &Request, name: &str) -> Option<usize> {
    req.query_param(name)?.parse().ok()
}

/// `per_page` (default 30, at most 100) and `page` (default 1) of a list.
fn paged(rows: Vec<Json>, req: &Request) -> Vec<Json> {
    let per = query_usize(req, "per_page").unwrap_or(30).clamp(1, 100);
    let page_no = query_usize(req, "page").unwrap_or(1).max(1);
    rows.into_iter()
        .skip((page_no - 1) * per)
        .take(per)
        .collect()
}

/// The TMDB paging envelope of `rows`.
fn page(rows: &[Json], page_no: usize, per: usize) -> Json {
    let total = rows.len();
    let results: Vec<Json> = rows
        .iter()
        .skip((page_no - 1) * per)
        .take(per)
        .cloned()
        .collect();
    json!({
        "page": if total == 0 { 1 } else { page_no },
        "results": results,
        "total_pages": total.div_ceil(per),
        "total_results": total,
    })
}

/// Percent-decoding of a query value (`+` is a space).
pub fn decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Lower-case runs of letters and digits.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The search rule of the TMDB server; `None` for an empty query (422).
fn tmdb_search(tmdb: &Json, kind: &str, query: &str, year: Option<&str>) -> Option<Vec<Json>> {
    let rows = tmdb["search"][kind].as_array().cloned().unwrap_or_default();
    let key = if kind == "movie" { "title" } else { "name" };
    let q = words(query);
    if q.is_empty() {
        return None;
    }
    let mut hits = vec![];
    for r in rows {
        let mut names = vec![r[key].as_str().unwrap_or("").to_string()];
        if kind == "movie" {
            names.push(r["original_title"].as_str().unwrap_or("").to_string());
        }
        let matches = names.iter().any(|n| {
            let ws = words(n);
            q.iter().all(|t| ws.iter().any(|w| w.contains(t.as_str())))
        });
        if !matches {
            continue;
        }
        if let Some(y) = year
            && !r["release_date"].as_str().unwrap_or("").starts_with(y)
        {
            continue;
        }
        hits.push(r);
    }
    let exact_of =
        |r: &Json| r[key].as_str().unwrap_or("").to_lowercase() == query.trim().to_lowercase();
    let mut out: Vec<Json> = hits.iter().filter(|r| exact_of(r)).cloned().collect();
    out.extend(hits.iter().filter(|r| !exact_of(r)).cloned());
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixtures() -> Fixtures {
        Fixtures::load(&crate::repo_root().join("goals/fixtures")).unwrap()
    }

    fn get(f: &Fixtures, target: &str) -> (u16, Json) {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let req = Request {
            method: "GET".into(),
            path: path.into(),
            query: query.into(),
            ..Request::default()
        };
        match f.answer(&req) {
            Reply::Http { status, body, .. } => {
                (status, serde_json::from_slice(&body).unwrap_or(Json::Null))
            }
            Reply::Hang(_) => panic!("hang"),
        }
    }

    #[test]
    fn decodes_queries() {
        assert_eq!(decoded("copper+sky%3A%20ascent"), "copper sky: ascent");
        assert_eq!(decoded("100%"), "100%");
    }

    #[test]
    fn serves_the_documented_routes() {
        let f = fixtures();
        let (s, j) = get(&f, "/3/search/movie?query=copper+sky");
        assert_eq!(s, 200);
        assert!(j["total_results"].as_u64().unwrap() >= 2, "{j}");
        let (s, _) = get(&f, "/3/search/movie?query=");
        assert_eq!(s, 422);
        // No TV shows in the data: a search finds nothing, as TMDB says it.
        let (s, j) = get(&f, "/3/search/tv?query=iron+meadow");
        assert_eq!((s, j["total_results"].as_u64()), (200, Some(0)), "{j}");
        let (s, j) = get(&f, "/3/movie/999999");
        assert_eq!((s, j["status_code"].as_u64()), (404, Some(34)));
        let (s, j) = get(&f, "/github/repos/acme/rocket/issues");
        assert_eq!(s, 200);
        let numbers: Vec<u64> = j
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|i| i["number"].as_u64())
            .collect();
        assert_eq!(numbers.len(), 4, "{numbers:?}");
        let (s, _) = get(&f, "/status.json");
        assert_eq!(s, 200);
        let (s, _) = get(&f, "/missing");
        assert_eq!(s, 404);
    }
}

#!/usr/bin/env python3
"""Writes the goal suite (goals/dev.toml, goals/held-out.toml) from the goal
list below, computing every expected value from the fixtures.

    python3 goals/tools/build_suite.py          # (re)write the two suite files
    python3 goals/tools/build_suite.py --check  # exit 1 if they differ or a check fails
    python3 goals/tools/build_suite.py --stats  # counts per part, category, kind

The TOML files are what `ccos eval goals` reads; this script is how they were
written: values derived from the workspace, the TMDB / GitHub / HTTP fixtures
and the memory seed are computed here (never typed by hand), printed in the
canonical RTFS form, and checked for consistency (unique ids, known fields,
every goal in exactly one part). Edit goals here, not in the TOML.

The held-out part was written together with the dev part, before any planner
change for issue #15; it must not be used for tuning (see goals/README.md).
Deterministic: no clock, no randomness.
"""

import json
import math
import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOALS = HERE.parent
WS = GOALS / "fixtures" / "workspace"
sys.path.insert(0, str(HERE))
import fixtures as fx  # noqa: E402

# --------------------------------------------------------------------------
# RTFS printing (the canonical one-line form of rtfs::printer::print_value)
# --------------------------------------------------------------------------


class Kw(str):
    """A keyword (printed :name)."""


SYMBOL_EXTRA = set("./+-*=<>!?_&%$")


def valid_keyword(name):
    return bool(name) and all(c.isalnum() or c in SYMBOL_EXTRA for c in name)


def from_json(v):
    """JSON -> RTFS data as rtfs::from_json does (object keys -> keywords when valid)."""
    if isinstance(v, dict):
        return {(Kw(k) if valid_keyword(k) else k): from_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [from_json(x) for x in v]
    return v


def fmt_float(f):
    assert math.isfinite(f) and (f == 0 or 1e-4 <= abs(f) < 1e15), f
    s = repr(f)
    assert "e" not in s, s
    return s


def fmt_str(s):
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def key_order(k):
    # rank: string 3 < keyword 4; then by text (code point order == UTF-8 byte order)
    return (4 if isinstance(k, Kw) else 3, str(k))


def rtfs(v):
    if v is None:
        return "nil"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return fmt_float(v)
    if isinstance(v, Kw):
        return ":" + v
    if isinstance(v, str):
        return fmt_str(v)
    if isinstance(v, (list, tuple)):
        return "[" + " ".join(rtfs(x) for x in v) + "]"
    if isinstance(v, dict):
        items = sorted(v.items(), key=lambda kv: key_order(kv[0]))
        return "{" + " ".join(rtfs(k) + " " + rtfs(x) for k, x in items) + "}"
    raise TypeError(type(v))


def rx(s):
    """A regex matching s literally, escaping only the metacharacters (so the
    pattern is valid for both Rust's regex crate and Python's re)."""
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$" else c for c in s)


def K(**kw):
    """An RTFS map with keyword keys."""
    return {Kw(k): v for k, v in kw.items()}


# --------------------------------------------------------------------------
# Workspace facts
# --------------------------------------------------------------------------


def text(name):
    return (WS / name).read_text(encoding="utf-8")


def nwords(s):
    return len(s.split())  # whitespace-separated tokens, as ccos.text.count_words


def nlines(s):
    # Rust str::lines(): a final line ending does not start a new line.
    return len(s.splitlines())


def nchars(s):
    return len(s)  # Unicode scalar values


def nbytes(name):
    return (WS / name).stat().st_size


def lines_of(name):
    return text(name).splitlines()


def json_file(name):
    return from_json(json.loads(text(name)))


def variants(s):
    """A text with and without its final newline (both acceptable answers)."""
    return [s, s.rstrip("\n")] if s.endswith("\n") else [s, s + "\n"]


DOCS = ["faq.md", "intro.md", "usage.md"]  # the files of docs/ (docs/archive is a directory)


def per_file(fn):
    """Accepted forms of a per-file result over docs/: the canonical map from
    file name to value, the same keyed by relative path, and a vector of
    [name value] pairs in name order."""
    vals = {n: fn(text("docs/" + n)) for n in DOCS}
    return (
        rtfs(vals),
        [rtfs({"docs/" + n: v for n, v in vals.items()}),
         rtfs([[n, v] for n, v in vals.items()])],
    )


TOP_LEVEL = sorted(p.name for p in WS.iterdir())

# --------------------------------------------------------------------------
# The goals
# --------------------------------------------------------------------------

GOAL_LIST = []
ALL_SERVERS = ["filesystem", "memory", "everything", "time", "git", "tmdb", "github"]

FIELDS = [
    "id", "part", "category", "tags", "goal", "needs", "distractors", "expect", "also_right",
    "expect_match", "expect_contains", "expect_not_contains", "missing", "error_match",
    "answers", "approve", "memory_seed", "files", "files_absent", "dirs", "memory_check",
    "git_check", "min_elapsed_ms", "timeout_s", "note",
]


def G(id, category, goal, expect, **kw):
    g = {"id": id, "category": category, "goal": goal, "expect": expect}
    for k, v in kw.items():
        assert k in FIELDS, k
        g[k] = v
    g.setdefault("tags", [])
    g.setdefault("needs", [])
    g.setdefault("distractors", [])
    g.setdefault("approve", False)
    if expect in ("requires-agent", "error") or g["distractors"]:
        # a plan that should not exist, or a distractor chosen by mistake, must
        # not hide behind a policy denial
        g["approve"] = True
    if "network" in g["tags"] or {"tmdb", "github"} & set(g["needs"]):
        g["approve"] = True  # ccos.http.* and OpenAPI operations have the network effect
    GOAL_LIST.append(g)
    return g


def V(v):
    return rtfs(v)


# ---- built-ins: echo -------------------------------------------------------
C = "builtins"
G("echo-01", C, "echo hello", V("hello"), tags=["echo", "issue"],
  note="Issue #15 phrasing; ccos.echo returns its message.")
G("echo-02", C, "echo 'good morning, team'", V("good morning, team"), tags=["echo"],
  note="The quoted text, without the quotes.")
G("echo-03", C, 'say "it works"', V("it works"), tags=["echo"])
G("echo-04", C, "repeat after me: the build is green", V("the build is green"), tags=["echo"])
G("echo-05", C, "echo hello", V("hello"), tags=["echo", "distractor"], distractors=["everything"],
  also_right=[V("Echo: hello")],
  note="Same as echo-01 with the everything server configured: its echo tool answers "
       "\"Echo: hello\", which is also right.")

# ---- built-ins: math -------------------------------------------------------
G("math-01", C, "what is 12 times 7", V(84), tags=["math", "issue"])
G("math-02", C, "12*7", V(84), tags=["math"])
G("math-03", C, "(2+3)*4", V(20), tags=["math", "issue"])
G("math-04", C, "sum of 1.5 and 2.25", V(3.75), tags=["math", "issue"])
G("math-05", C, "add 2 and 3 and 4", V(9), tags=["math", "issue"])
G("math-06", C, "add 2 and 3", V(5), tags=["math", "issue", "distractor", "large-catalog"],
  distractors=["tmdb", "github"],
  note="Issue #15: with imported OpenAPI documents a GitHub operation won and dropped both operands.")
G("math-07", C, "divide 10 by 4", V(2.5), tags=["math", "issue", "distractor"],
  distractors=["everything"],
  note="Issue #15: get-sum of the everything server answered 14. Non-exact integer division gives a float.")
G("math-08", C, "subtract 7 from 20", V(13), tags=["math", "issue", "distractor"],
  distractors=["everything"], note="Issue #15: get-sum answered 27. 20 - 7.")
G("math-09", C, "add 99999999999999999999 and 1", "error", tags=["math", "issue", "out-of-range"],
  error_match="99999999999999999999",
  note="Decision: the literal does not fit a 64-bit integer and a float would silently lose the +1, "
       "so the right outcome is a clear user error that names the literal (exit non-zero, not "
       "'planner bug'). A requires-agent report naming the literal is accepted too.")
G("math-10", C, "what's 100 divided by 8?", V(12.5), tags=["math"])
G("math-11", C, "seven plus eight", V(15), tags=["math", "words"])
G("math-12", C, "what is twenty minus six", V(14), tags=["math", "words"])
G("math-13", C, "multiply 2.5 by 4", V(10.0), tags=["math"], note="10.0 (numbers compare numerically, 10 is right too).")
G("math-14", C, "divide 9 by 3", V(3), tags=["math"], note="Exact integer division stays an integer (3.0 is right too).")
G("math-15", C, "10 / 0", "error", tags=["math", "division-by-zero"], error_match="zero",
  note="Division by zero is an error; any value is wrong.")
G("math-16", C, "what is 17 mod 5", V(2), tags=["math"], note="RTFS has mod.")
G("math-17", C, "what is the largest of 4, 19, 7 and 12?", V(19), tags=["math", "list"], note="RTFS max.")
G("math-18", C, "what's the average of 2, 4 and 9?", V(5), tags=["math", "list", "composite"],
  note="(2+4+9)/3 = 15/3 = 5 (5.0 is right too).")
G("math-19", C, "increase 250 by 10 percent", V(275.0), tags=["math", "composite"],
  note="250 * 1.1 = 275.00000000000006 in floats: within the float tolerance of 275.")
G("math-20", C, "sum the numbers 4, 8, 15, 16, 23 and 42", V(108), tags=["math", "list"])

# ---- built-ins: text -------------------------------------------------------
G("text-01", C, 'split "a,b,c" on commas', V(["a", "b", "c"]), tags=["text", "issue"])
G("text-02", C, 'uppercase "hello world"', V("HELLO WORLD"), tags=["text"])
G("text-03", C, 'make "LOUD NOISES" lowercase', V("loud noises"), tags=["text"])
G("text-04", C, 'how many words are in "the quick brown fox jumps"?', V(5), tags=["text"])
G("text-05", C, "join red, green and blue with dashes", V("red-green-blue"), tags=["text", "list"])
G("text-06", C, 'find all the numbers in "order 66 shipped 3 items"', V(["66", "3"]), tags=["text", "regex"],
  also_right=[V([66, 3])], note="regex_find returns the matches as strings; numbers are right too.")
G("text-07", C, 'put "shout" in capital letters', V("SHOUT"), tags=["text"])
G("text-08", C, 'reverse the string "stressed"', V("desserts"), tags=["text", "composite"],
  also_right=[V(list("desserts"))],
  note="Characters in reverse order; the vector of characters is accepted too.")
G("text-09", C, 'replace "cat" with "dog" in "the cat sat on the cat mat"',
  V("the dog sat on the dog mat"), tags=["text"], note="Every occurrence.")
G("text-10", C, 'how many characters are in "naïve café"?', V(10), tags=["text", "unicode"],
  note="Characters, not bytes (the string is 12 bytes).")
G("text-11", C, 'extract the email addresses from "contact ana@example.com or bob@example.org today"',
  V(["ana@example.com", "bob@example.org"]), tags=["text", "regex"])

# ---- built-ins: data -------------------------------------------------------
G("data-01", C, "sort the numbers 3, 1, 2", V([1, 2, 3]), tags=["data", "issue"])
G("data-02", C, "sort 10, 2, 33 and 4 from largest to smallest", V([33, 10, 4, 2]), tags=["data"])
G("data-03", C, "take the first 2 of 7, 8, 9", V([7, 8]), tags=["data"])
G("data-04", C, 'parse the JSON {"name": "Ada", "age": 36}', V(K(age=36, name="Ada")), tags=["data", "json"])
G("data-05", C, "format the list 1, 2, 3 as JSON", V("[1,2,3]"), tags=["data", "json"],
  also_right=[V("[1, 2, 3]"), V("[\n  1,\n  2,\n  3\n]")],
  note="JSON text of the list; compact or pretty are both right.")
G("data-06", C, "remove duplicates from 3, 1, 3, 2, 1", V([3, 1, 2]), tags=["data"],
  also_right=[V([1, 2, 3])], note="First occurrences in order; the sorted unique list is right too.")
G("data-07", C, "give me the last 2 items of 5, 6, 7, 8", V([7, 8]), tags=["data"])

# ---- built-ins: files ------------------------------------------------------
readme, notes, lines = text("README.md"), text("notes.txt"), text("lines.txt")
data = json_file("data.json")
people = json_file("people.json")
G("file-01", C, "could you please count how many words are in README.md?", V(nwords(readme)),
  tags=["file", "chatty"], note="Whitespace-separated tokens of README.md (`wc -w`).")
G("file-02", C, "count the lines in README.md", V(nlines(readme)), tags=["file"])
G("file-03", C, "read notes.txt", V(notes), tags=["file"])
up = text("lines.txt").upper()
G("file-04", C, "convert lines.txt to upper case", V(up), tags=["file", "issue"],
  also_right=[V(up.rstrip("\n"))],
  note="Issue #15: the file's content upper-cased (not the goal sentence); the final newline may be dropped.")
G("file-05", C, "parse the JSON in data.json", V(data), tags=["file", "json", "issue"],
  note="Issue #15: the parsed file, not the goal text.")
G("file-06", C, 'write "hello" to out.txt', "*", tags=["file", "write", "issue"], approve=True,
  files={"out.txt": "hello"}, note="The value is the write result; the file is what counts.")
G("file-07", C, "how many lines does notes.txt have?", V(nlines(notes)), tags=["file"])
G("file-08", C, "what's in data.json?", V(text("data.json")), tags=["file"],
  also_right=[V(data)], note="The text of the file; its parsed value is right too.")
G("file-09", C, "list the files in docs", "*", tags=["file", "list"],
  expect_contains=["archive", "faq.md", "intro.md", "usage.md"],
  expect_not_contains=["README.md", "notes.txt"],
  note="The entries of docs/ (a full listing with sizes is fine).")
G("file-10", C, "how big is people.json?", "*", tags=["file", "stat"],
  expect_match=rf"^{nbytes('people.json')}$|:size {nbytes('people.json')}\b",
  note=f"{nbytes('people.json')} bytes; the stat map is accepted.")
G("file-11", C, "does missing.txt exist?", V(False), tags=["file", "stat"],
  also_right=[V(K(exists=False, path="missing.txt"))])
uni = text("unicode.txt")
G("file-12", C, "count the characters in unicode.txt", V(nchars(uni)), tags=["file", "unicode"],
  note="unicode.txt has no final newline; characters, not bytes.")
G("file-13", C, "how many lines are in empty.txt", V(0), tags=["file", "edge"])
G("file-14", C, 'append "milk" to shopping.txt', "*", tags=["file", "write"], approve=True,
  files={"shopping.txt": ["eggs\nbread\nmilk", "eggs\nbread\nmilk\n"]},
  note="Appended as a new item; with or without a final newline.")
first3 = lines_of("lines.txt")[:3]
G("file-15", C, "show me the first 3 lines of lines.txt", V("\n".join(first3)), tags=["file", "composite"],
  also_right=[V("\n".join(first3) + "\n"), V(first3)])
paris = [p for p in people if p[Kw("city")] == "Paris"]
G("file-16", C, "which people in people.json live in Paris?", V(paris), tags=["file", "json", "filter"],
  also_right=[V([p[Kw("name")] for p in paris])])
oldest = max(people, key=lambda p: p[Kw("age")])
G("file-17", C, "who is the oldest person in people.json?", "*", tags=["file", "json", "composite"],
  expect_contains=[oldest[Kw("name")]],
  expect_not_contains=[p[Kw("name")] for p in people if p is not oldest],
  note=f"{oldest[Kw('name')]} ({oldest[Kw('age')]}); the person's map or name.")
nums = [int(x) for x in lines_of("numbers.txt")]
wl = sorted(lines_of("words.txt"))
G("file-18", C, "sort the lines of words.txt", V(wl), tags=["file", "sort"],
  also_right=[V("\n".join(wl)), V("\n".join(wl) + "\n")])
meeting = text("meeting notes.txt")
G("file-19", C, 'how many words are in "meeting notes.txt"?', V(nwords(meeting)), tags=["file", "space-in-path"])
G("file-20", C, "what files are in the current directory?", "*", tags=["file", "list"],
  expect_contains=["README.md", "data.json", "docs", "lines.txt", "notes.txt", "people.json"])
csv = lines_of("numbers.csv")
visitors = sum(int(r.split(",")[1]) for r in csv[1:])
G("file-21", C, "what's the total number of visitors in numbers.csv?", V(visitors),
  tags=["file", "csv", "composite", "hard"],
  note=f"Sum of the visitors column (header excluded): {visitors}.")

# ---- built-ins: time -------------------------------------------------------
G("wait-01", C, "wait 1 second", V(1000), tags=["time", "issue"], min_elapsed_ms=1000,
  also_right=["nil"],
  note="ccos.time.sleep returns the milliseconds slept; the run must take at least 1 s.")
G("wait-02", C, "sleep for half a second", V(500), tags=["time"], min_elapsed_ms=500, also_right=["nil"])
G("now-01", C, "what time is it?", "*", tags=["time"],
  expect_match=r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}",
  note="The current time (UTC from ccos.time.now); varies, so matched.")
G("now-02", C, "what's today's date?", "*", tags=["time"], expect_match=r"{today_utc}",
  note="{today_utc} is replaced by the runner with today's date (UTC, YYYY-MM-DD).")

# ---- built-ins: asking the user -------------------------------------------
G("ask-01", C, "ask me for two numbers and add them", V(7), tags=["ask"], answers=["3", "4"])
G("ask-02", C, "ask me which file to read and count its lines", V(nlines(notes)), tags=["ask", "file"],
  answers=["notes.txt"])
G("ask-03", C, "ask me what to say and echo it back", V("see you soon"), tags=["ask"],
  answers=["see you soon"])
G("ask-04", C, "ask for my name and write it to name.txt", "*", tags=["ask", "write"], approve=True,
  answers=["Ada"], files={"name.txt": ["Ada", "Ada\n"]})
G("ask-05", C, "ask me for a word and convert it to upper case", V("QUIET"), tags=["ask"], answers=["quiet"])
G("ask-06", C, "add 10 to a number I'll give you", V(17), tags=["ask"], answers=["7"],
  note="The second operand is left open: the plan asks for it.")

# ---- plain HTTP (built-in ccos.http.*, host 127.0.0.1 allow-listed) --------
C = "http"
hello_txt = fx.http_get("/hello.txt")
status_json = from_json(fx.http_get("/status.json"))
users_json = from_json(fx.http_get("/users.json"))
numbers_json = fx.http_get("/numbers.json")
quote = fx.http_get("/quote.txt")
HTTP_NOTE = "The body; the whole response map {:status :headers :body} is right too (README: unwrapping)."
G("http-01", C, "fetch http://127.0.0.1:{port}/hello.txt", V(hello_txt), tags=["network", "issue", "fetch"],
  note=HTTP_NOTE)
G("http-02", C, "get the contents of http://127.0.0.1:{port}/hello.txt", V(hello_txt),
  tags=["network", "issue", "fetch"], note=HTTP_NOTE)
G("http-03", C, "what does http://127.0.0.1:{port}/status.json return?", V(status_json),
  tags=["network", "issue", "fetch"], note=HTTP_NOTE)
G("http-04", C, "GET http://127.0.0.1:{port}/users.json", V(users_json), tags=["network", "issue", "fetch"],
  note=HTTP_NOTE)
G("http-05", C, "grab http://127.0.0.1:{port}/quote.txt for me", V(quote), tags=["network", "fetch"],
  note=HTTP_NOTE)
G("http-06", C, "how many users are listed at http://127.0.0.1:{port}/users.json?", V(len(users_json)),
  tags=["network", "composite"])
G("http-07", C, "what status code does http://127.0.0.1:{port}/missing give?", "*", tags=["network"],
  expect_match=r"^404$|:status 404\b", note="The fixture server answers 404 for unknown paths.")
G("http-08", C, 'post {"name": "widget"} to http://127.0.0.1:{port}/echo',
  V(K(received=K(name="widget"))), tags=["network", "post"],
  note="The echo route answers {\"received\": <body>}; " + HTTP_NOTE)
G("http-09", C, "what are the names of the users at http://127.0.0.1:{port}/users.json?",
  V([u[Kw("name")] for u in users_json]), tags=["network", "composite"])
G("http-10", C, "fetch https://example.com/", "error", tags=["network", "policy"],
  error_match=r"allow|example\.com|not permitted|denied|refused",
  note="example.com is not in the HTTP allow-list (only 127.0.0.1): refused before any connection.")

# ---- filesystem MCP server -------------------------------------------------
C = "filesystem"
FS = ["filesystem"]
G("fs-01", C, "show me the directory tree", "*", needs=FS, tags=["tree"],
  expect_contains=["docs", "archive", "old.md", "README.md", "faq.md"],
  note="Recursive: the tree includes docs/archive/old.md.")
G("fs-02", C, "find all markdown files, including in subfolders", "*", needs=FS, tags=["search"],
  expect_contains=["README.md", "intro.md", "usage.md", "faq.md", "old.md"],
  expect_not_contains=["notes.txt", "data.json"])
two = notes.splitlines()[:2]
G("fs-03", C, "show the first 2 lines of notes.txt", V("\n".join(two)), needs=FS, tags=["head"],
  also_right=[V("\n".join(two) + "\n"), V(two)])
G("fs-04", C, "rename notes.txt to notes.md", "*", needs=FS, tags=["move", "write"], approve=True,
  files={"notes.md": notes}, files_absent=["notes.txt"])
G("fs-05", C, "make a new directory named reports", "*", needs=FS, tags=["mkdir", "write"], approve=True,
  dirs=["reports"])
G("fs-06", C, "in notes.txt, replace 'Monday' with 'Tuesday'", "*", needs=FS, tags=["edit", "write"],
  approve=True, files={"notes.txt": notes.replace("Monday", "Tuesday")})
G("fs-07", C, "which directories am I allowed to access?", "*", needs=FS, tags=["roots"],
  expect_contains=["{workspace}"],
  note="{workspace} is replaced by the runner with the workspace copy's absolute path.")
G("fs-08", C, "read notes.txt and README.md together", "*", needs=FS, tags=["read-many"],
  expect_contains=["Buy oat milk", "# Acme Notes"])
G("fs-09", C, "move docs/faq.md into docs/archive", "*", needs=FS, tags=["move", "write"], approve=True,
  files={"docs/archive/faq.md": text("docs/faq.md")}, files_absent=["docs/faq.md"])
G("fs-10", C, "search for files named *.json", "*", needs=FS, tags=["search"],
  expect_contains=["data.json", "people.json"], expect_not_contains=["notes.txt", "README.md"])

# ---- memory MCP server -----------------------------------------------------
C = "memory"
M = ["memory"]
G("mem-01", C, "remember that Alice likes tea", "*", needs=M, tags=["write", "issue"], approve=True,
  memory_seed=False, memory_check=[{"fact": ["Alice", "tea"]}],
  note="Issue #15. Empty memory: Alice must be created with the fact (an observation mentioning tea, "
       "or a relation to an entity named like tea).")
G("mem-02", C, "what do you remember about Bob?", "*", needs=M, tags=["read"], memory_seed=True,
  expect_contains=["plays chess on Sundays", "allergic to peanuts"],
  expect_not_contains=["speaks Portuguese", "makes bicycles"])
G("mem-03", C, "who works at Globex?", "*", needs=M, tags=["read"], memory_seed=True,
  expect_contains=["Bob", "Dana"], expect_not_contains=["Alice"],
  note="Bob and Dana have works_at relations to Globex; Alice does not (a dump of the whole graph is imprecise).")
G("mem-04", C, "note that Bob's favourite colour is green", "*", needs=M, tags=["write"], approve=True,
  memory_seed=True, memory_check=[{"fact": ["Bob", "green"]}, {"fact": ["Bob", "chess"]}],
  note="Bob already exists: the fact must be added to him (creating a duplicate Bob is ignored by the server).")
G("mem-05", C, "forget everything about Dana", "*", needs=M, tags=["write", "delete"], approve=True,
  memory_seed=True, memory_check=[{"absent": "Dana"}, {"entity": "Bob"}])
G("mem-06", C, "Alice and Dana are sisters, please remember that.", "*", needs=M, tags=["write", "relation"],
  approve=True, memory_seed=True, memory_check=[{"fact": ["Alice", "Dana"]}])
G("mem-07", C, "show me everything in my knowledge graph", "*", needs=M, tags=["read"], memory_seed=True,
  expect_contains=["Alice", "Bob", "Dana", "Globex", "works_at"])
G("mem-08", C, "what language does Dana speak?", "*", needs=M, tags=["read"], memory_seed=True,
  expect_contains=["Portuguese"], expect_not_contains=["peanuts"])
G("mem-09", C, "remember that the office wifi password is hunter2", "*", needs=M, tags=["write"],
  approve=True, memory_seed=False, memory_check=[{"mentions": "hunter2"}])
G("mem-10", C, "add a new person called Erin who is a pilot", "*", needs=M, tags=["write"], approve=True,
  memory_seed=True, memory_check=[{"entity": "Erin"}, {"fact": ["Erin", "pilot"]}])

# ---- everything (reference test) MCP server --------------------------------
C = "everything"
E = ["everything"]
G("every-01", C, "echo 'ping' through the everything server", V("Echo: ping"), needs=E,
  note="The user names the server: its echo tool prefixes 'Echo: '.")
G("every-02", C, "use get-sum to add 4 and 5", V("The sum of 4 and 5 is 9."), needs=E,
  also_right=[V(9)], note="The tool's text answer; the number alone is right too.")
G("every-03", C, "get me the tiny MCP logo image", "*", needs=E, expect_contains=["image/png"])
G("every-04", C, "run the long running operation for 2 seconds with 2 steps",
  V("Long running operation completed. Duration: 2 seconds, Steps: 2."), needs=E, min_elapsed_ms=2000)
G("every-05", C, "give me 2 resource links from the test server", "*", needs=E,
  expect_contains=["Resource 1", "Resource 2"], expect_not_contains=["Resource 3"])
G("every-06", C, "show me an annotated error message", "*", needs=E,
  expect_contains=["Error: Operation failed"])
G("every-07", C, "what's the sum of 2.5 and 4 according to the everything server?",
  V("The sum of 2.5 and 4 is 6.5."), needs=E, also_right=[V(6.5)])

# ---- time MCP server (started with --local-timezone UTC) -------------------
C = "time"
T = ["time"]
DT = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?"
G("tz-01", C, "what time is it in Tokyo", "*", needs=T, tags=["issue"], expect_match=DT + r"\+09:00",
  note="Issue #15 (it asked three times): nothing is left open, so no question is asked.")
G("tz-02", C, "current time in New York", "*", needs=T, expect_match=DT + r"-0[45]:00")
G("tz-03", C, "what's the time in India right now?", "*", needs=T, expect_match=DT + r"\+05:30")
G("tz-04", C, "what time is it in Kathmandu?", "*", needs=T, expect_match=DT + r"\+05:45")
G("tz-05", C, "convert 09:30 Tokyo time to India time", "*", needs=T,
  expect_match=r"T06:00(:00)?\+05:30", note="Tokyo UTC+9, India UTC+5:30, neither has DST.")
G("tz-06", C, "if it's 14:00 UTC, what time is it in Tokyo?", "*", needs=T,
  expect_match=r"T23:00(:00)?\+09:00")
G("tz-07", C, "convert 8am Kolkata time to Tokyo time", "*", needs=T,
  expect_match=r"T11:30(:00)?\+09:00", note="'8am' is 08:00.")
G("tz-08", C, "what day of the week is it in Auckland?", "*", needs=T,
  expect_match=r'^"(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"$|:timezone "Pacific/Auckland"',
  note="The weekday in Pacific/Auckland (the day name, or the time map naming the zone).")
G("tz-09", C, "what time is it in Atlantis?", "error", needs=T, error_match="Atlantis",
  note="Not a time zone: an error or a requires-agent report naming Atlantis, never another zone's time.")
G("tz-10", C, "what's the time difference between Tokyo and Kolkata?", "*", needs=T,
  expect_match=r"3\.5 ?h|3:30|3 hours 30|-3\.5|\+3\.5",
  note="3.5 hours (convert_time reports time_difference \"-3.5h\" from Tokyo to Kolkata).")

# ---- git MCP server (repository fixture at {repo}) -------------------------
C = "git"
GT = ["git"]
MAIN_MSGS = ["Add MIT license", "Fix typo in README", "Add greeting module", "Initial commit"]
G("git-01", C, "show the git log of {repo}", "*", needs=GT, tags=["issue", "log"],
  expect_contains=MAIN_MSGS, expect_not_contains=["Add login form"],
  note="Issue #15 phrasing. HEAD is main: the feature branch's commit is not in its log.")
G("git-02", C, "what was the most recent commit in {repo}?", "*", needs=GT, tags=["log"],
  expect_contains=["Add MIT license"], expect_not_contains=["Fix typo in README"])
G("git-03", C, "list the branches of {repo}", "*", needs=GT, tags=["branch"],
  expect_contains=["feature/login", "main"])
G("git-04", C, "what's the status of the repository at {repo}?", "*", needs=GT, tags=["status"],
  expect_contains=["hello.py", "todo.txt"])
G("git-05", C, "show the unstaged changes in {repo}", "*", needs=GT, tags=["diff"],
  expect_contains=["farewell"])
G("git-06", C, "show README.md as of the latest commit in {repo}",
  V("# demo\n\nA demonstration repository.\n"), needs=GT, tags=["show"],
  also_right=[V("# demo\n\nA demonstration repository.")])
G("git-07", C, "what commits were made to {repo} since January 12, 2024?", "*", needs=GT, tags=["log"],
  expect_contains=["Add MIT license", "Fix typo in README"],
  expect_not_contains=["Add greeting module", "Initial commit"])
G("git-08", C, "create a branch called release-1.0 in {repo}", "*", needs=GT, tags=["branch", "write"],
  approve=True, git_check=[{"branch_exists": "release-1.0"}])
G("git-09", C, "switch {repo} to the feature/login branch", "*", needs=GT, tags=["checkout", "write"],
  approve=True, git_check=[{"head_branch": "feature/login"}])
G("git-10", C, "stage todo.txt in {repo}", "*", needs=GT, tags=["add", "write"], approve=True,
  git_check=[{"staged": ["todo.txt"]}])
G("git-11", C, "what's different between my working tree and the feature/login branch in {repo}?", "*",
  needs=GT, tags=["diff"], expect_contains=["login.html"])
G("git-12", C, "show me the contents of LICENSE in {repo}", V("MIT License\n"), needs=GT, tags=["show"],
  also_right=[V("MIT License")], note="{repo} is outside the file roots: only git can read it.")

# ---- TMDB (imported OpenAPI document, loopback fixture) -------------------
C = "tmdb"
TM = ["tmdb"]
R = fx.tmdb()["responses"]


def movie(title):
    return next(m for m in fx.MOVIES if m[1] == title)


def credits_of(title):
    return R[f"/movie/{movie(title)[0]}/credits"]


def person(name):
    return R[f"/person/{fx.PERSON_ID[name]}"]


def pcredits(name):
    return R[f"/person/{fx.PERSON_ID[name]}/movie_credits"]


all_titles = [m[1] for m in fx.MOVIES]
gh_cast = [c["name"] for c in credits_of("The Glass Harbor")["cast"]]
G("tmdb-01", C, "who directed The Glass Harbor?", "*", needs=TM,
  expect_contains=["Mara Okafor"], expect_not_contains=["Jonah Pike", "Leo Brandt"],
  note="Search the title, then its credits, the crew member whose job is Director.")
leo = sorted({c["title"] for c in pcredits("Leo Brandt")["cast"]})
G("tmdb-02", C, "what movies has Leo Brandt played in?", "*", needs=TM,
  expect_contains=leo, expect_not_contains=[t for t in all_titles if t not in leo and not any(t in x for x in leo)],
  note="His cast credits: " + ", ".join(leo) + ".")
harbor = [r["title"] for r in fx.search("movie", "harbor")["results"]]
G("tmdb-03", C, "find movies with 'harbor' in the title", "*", needs=TM,
  expect_contains=harbor, expect_not_contains=["Copper Sky", "Midnight Orchard"])
G("tmdb-04", C, "what is the runtime of Copper Sky?", V(movie("Copper Sky")[6]), needs=TM,
  also_right=[V(f"{movie('Copper Sky')[6]} minutes")],
  note="'Copper Sky' (141 min), not its sequel 'Copper Sky: Ascent' (149): the search lists the exact title first.")
G("tmdb-05", C, "list the movie genres", V(from_json(R["/genre/movie/list"])), needs=TM,
  also_right=[V(from_json(R["/genre/movie/list"]["genres"])), V([n for _, n in fx.GENRES])])
top = R["/movie/top_rated"]["results"]
G("tmdb-06", C, "what is the top rated movie?", "*", needs=TM,
  expect_contains=[top[0]["title"]], expect_not_contains=[top[1]["title"], top[2]["title"]],
  note=f"First of /movie/top_rated: {top[0]['title']} ({top[0]['vote_average']}).")
G("tmdb-07", C, "when was Amara Nwosu born?", "*", needs=TM,
  expect_match=rx(person("Amara Nwosu")["birthday"]))
G("tmdb-08", C, "where was Hana Sato born?", "*", needs=TM,
  expect_contains=[person("Hana Sato")["place_of_birth"]])
G("tmdb-09", C, "who plays Captain Ife Adeyemi in Copper Sky?", "*", needs=TM,
  expect_contains=["Amara Nwosu"], expect_not_contains=["Leo Brandt", "Felix Aurand"])
mo_cast = [c["name"] for c in credits_of("Midnight Orchard")["cast"]]
G("tmdb-10", C, "who starred in Midnight Orchard?", "*", needs=TM,
  expect_contains=mo_cast, expect_not_contains=["Mara Okafor"],
  note="The cast (" + ", ".join(mo_cast) + "); the director Mara Okafor is crew, not a star.")
im = R[f"/movie/{movie('Iron Meadow')[0]}"]
G("tmdb-11", C, "what genres is Iron Meadow?", "*", needs=TM,
  expect_contains=[g["name"] for g in im["genres"]], expect_not_contains=["Comedy", "Horror"])
okafor_dir = sorted({c["title"] for c in pcredits("Mara Okafor")["crew"] if c["job"] == "Director"})
G("tmdb-12", C, "which movies did Mara Okafor direct?", "*", needs=TM,
  expect_contains=okafor_dir, expect_not_contains=["Copper Sky", "Iron Meadow"])
pop = R["/movie/popular"]["results"]
G("tmdb-13", C, "what's the most popular movie right now?", "*", needs=TM,
  expect_contains=[pop[0]["title"]], expect_not_contains=[pop[2]["title"], pop[3]["title"]],
  note=f"First of /movie/popular: {pop[0]['title']}.")
G("tmdb-14", C, "when did Theo Marchetti die?", "*", needs=TM,
  expect_match=rx(person("Theo Marchetti")["deathday"]))
G("tmdb-15", C, "what is the original title of Paper Lanterns?", V(movie("Paper Lanterns")[2]), needs=TM)
sam = len(pcredits("Sam Whitlock")["cast"])
G("tmdb-16", C, "how many movies has Sam Whitlock acted in?", V(sam), needs=TM, tags=["composite"])
G("tmdb-17", C, "list the cast of The Glass Harbor in billing order", "*", needs=TM,
  expect_match=".*".join(rx(n) for n in gh_cast), expect_not_contains=["Mara Okafor"],
  note="Cast by `order`: " + ", ".join(gh_cast) + ".")
G("tmdb-18", C, "find the 2019 movie with 'sky' in its title", "*", needs=TM,
  expect_contains=["Copper Sky"], expect_not_contains=["Ascent"],
  note="Only Copper Sky (2019); Copper Sky: Ascent is from 2022.")
G("tmdb-19", C, "who composed the music for Iron Meadow?", "*", needs=TM,
  expect_contains=["Elena Voss"], expect_not_contains=["Dario Ferreira", "Leo Brandt"])
G("tmdb-20", C, "who directed Inception?", "error", needs=TM, error_match=r"Inception|not found|no (movie|result|match)",
  also_right=["nil", "[]"],
  note="Inception is not in the fixture database: 'not found' (an error, a requires-agent report naming "
       "Inception, or an empty result), never another film's director.")

# ---- GitHub subset (hand-written OpenAPI document, loopback fixture) ------
C = "github"
GHN = ["github"]
GHD = fx.github()
rocket_open = [i["title"] for i in fx.github_list_issues("acme/rocket", "open")]
rocket_closed = [i["title"] for i in fx.github_list_issues("acme/rocket", "closed")]
G("gh-01", C, "list the issues of acme/rocket", "*", needs=GHN, tags=["issue"],
  expect_contains=rocket_open,
  note="Issue #15 phrasing. The API lists open issues by default; listing all issues is fine too.")
G("gh-02", C, "show me the closed issues in acme/rocket", "*", needs=GHN,
  expect_contains=rocket_closed, expect_not_contains=rocket_open)
G("gh-03", C, "how many open issues does acme/rocket have?", V(len(rocket_open)), needs=GHN)
G("gh-04", C, "what language is acme/anvil written in?", "*", needs=GHN,
  expect_match=r'^"Go"$|:language "Go"')
rp = sorted(r["name"] for f, r in GHD["repos"].items() if f.startswith("rpatel/"))
G("gh-05", C, "list rpatel's repositories", "*", needs=GHN,
  expect_contains=rp, expect_not_contains=["anvil", "hello-world"])
G("gh-06", C, "how many stars does acme/rocket have?", "*", needs=GHN,
  expect_match=rf"^{GHD['repos']['acme/rocket']['stargazers_count']}$|:stargazers_count {GHD['repos']['acme/rocket']['stargazers_count']}\b")
G("gh-07", C, "show issue 3 of acme/rocket", "*", needs=GHN,
  expect_contains=["Launch countdown skips 3"], expect_not_contains=["Add --dry-run flag"])
G("gh-08", C, 'open an issue on acme/anvil titled "Build fails on FreeBSD"', "*", needs=GHN,
  tags=["network", "write"], expect_contains=["Build fails on FreeBSD", ":number 3"],
  note="The created issue (numbered after the repository's last issue, #2).")
bug_open = [i["title"] for i in fx.github_list_issues("acme/rocket", "open", "bug")]
G("gh-09", C, "which open issues of acme/rocket are labeled bug?", "*", needs=GHN,
  expect_contains=bug_open, expect_not_contains=[t for t in rocket_open + rocket_closed if t not in bug_open])
G("gh-10", C, "is acme/roadrunner archived?", "*", needs=GHN, expect_match=r"^true$|:archived true\b")
G("gh-11", C, "what are the open issues in rpatel/rocket?", "*", needs=GHN,
  expect_contains=["Rebase on upstream"], expect_not_contains=rocket_open,
  note="rpatel/rocket is a fork of acme/rocket with its own issues: the owner matters.")
G("gh-12", C, "show issue 99 of acme/rocket", "error", needs=GHN, error_match=r"99|404|not found",
  note="No such issue: the fixture answers 404.")

# ---- multi-clause goals, pipelines and loops -------------------------------
C = "multi-clause"
G("multi-01", C, "count the words in README.md; count the lines in README.md",
  V([nwords(readme), nlines(readme)]), tags=["issue", "independent"],
  note="Decision: independent clauses give a vector of their results in clause order.")
G("multi-02", C, "read notes.txt and count its lines", V(nlines(notes)), tags=["pipeline"],
  note="Decision: a pipeline ('read X and count its lines') gives its last step's value.")
G("multi-03", C, "for each line in lines.txt count the words", V([nwords(l) for l in lines_of("lines.txt")]),
  tags=["issue", "loop"], note="Issue #15: one count per line, in order.")
pf, pf_alt = per_file(nwords)
G("multi-04", C, "count the words in every file in docs", pf, tags=["loop", "per-file"], also_right=pf_alt,
  note="Decision: per-file results are a map from file name to value; docs/archive is a directory and is skipped.")
pf, pf_alt = per_file(nlines)
G("multi-05", C, "count the lines of each file in the docs folder", pf, tags=["loop", "per-file"],
  also_right=pf_alt, note="As multi-04.")
G("multi-06", C, "what is 6 times 7 and what is 10 minus 4?", V([42, 6]), tags=["independent"])
G("multi-07", C, "add 2 and 3, then multiply the result by 4", V(20), tags=["pipeline"])
G("multi-08", C, 'write "hello" to greeting.txt and then read it back', V("hello"), tags=["pipeline", "write"],
  approve=True, files={"greeting.txt": "hello"})
G("multi-09", C, "how many lines are in lines.txt and how many words are in notes.txt?",
  V([nlines(lines), nwords(notes)]), tags=["independent"])
G("multi-10", C, "read data.json, parse it, and give me the city", V(data[Kw("city")]), tags=["pipeline"])
G("multi-11", C, "fetch http://127.0.0.1:{port}/hello.txt and save it to hello-copy.txt", "*",
  tags=["pipeline", "network", "write"], approve=True, files={"hello-copy.txt": hello_txt})
G("multi-12", C, "fetch http://127.0.0.1:{port}/hello.txt and count its words", V(nwords(hello_txt)),
  tags=["pipeline", "network"])
G("multi-13", C, "ask me for a number and double it", V(42), tags=["issue", "ask", "pipeline"], answers=["21"],
  note="Issue #15: returning the number itself drops the 'double it' clause.")
G("multi-14", C, "stage todo.txt and commit it with the message 'Add todo list' in {repo}", "*",
  needs=["git"], tags=["pipeline", "write"], approve=True,
  git_check=[{"head_message": "Add todo list"}, {"head_tree_has": "todo.txt"}])
G("multi-15", C, "who directed The Glass Harbor and when was that person born?", "*", needs=["tmdb"],
  tags=["pipeline"], expect_contains=[person("Mara Okafor")["birthday"]],
  note="Mara Okafor, born " + person("Mara Okafor")["birthday"] + ".")
G("multi-16", C, "what time is it in Tokyo and in New York?", "*", needs=["time"], tags=["independent"],
  expect_match=r"(?s)\+09:00.*-0[45]:00", note="Both times, Tokyo first.")
G("multi-17", C, "fetch the open issues of acme/rocket and count them", V(len(rocket_open)),
  needs=["github"], tags=["pipeline"])
G("multi-18", C, "remember that Bob lives in Lyon, then tell me what you know about Bob", "*",
  needs=["memory"], tags=["pipeline", "write"], approve=True, memory_seed=True,
  expect_contains=["Lyon", "chess"], memory_check=[{"fact": ["Bob", "Lyon"]}])
G("multi-19", C, "for each number in numbers.txt, double it", V([2 * n for n in nums]), tags=["loop"])

# ---- requires-agent: nothing available serves the goal ---------------------
C = "requires-agent"


def RA(id, goal, missing, tags=(), **kw):
    return G(id, C, goal, "requires-agent", missing=missing, tags=list(tags), **kw)


RA("ra-01", "book a flight to Paris", ["flight", "book"], ["out-of-scope"], distractors=ALL_SERVERS)
RA("ra-02", "send an email to Bob saying I'll be late", ["email", "e-mail", "mail"], ["out-of-scope"],
   distractors=ALL_SERVERS)
RA("ra-03", "translate 'good morning' to French", ["translat", "French"], ["out-of-scope"],
   distractors=ALL_SERVERS)
RA("ra-04", "what's the weather in Paris", ["weather"], ["near-miss"], distractors=["everything", "time"],
   note="No tool fetches weather; the everything server's get-structured-content returns canned data "
        "for three US cities only.")
RA("ra-05", "delete README.md", ["delete", "remove"], ["near-miss"], distractors=["filesystem", "git"],
   note="No delete capability (the filesystem server can move, write and edit, not delete).")
RA("ra-06", "multiply the matrix [[1,2],[3,4]] by [[5,6],[7,8]]", ["matrix", "matrices"], ["near-miss"],
   distractors=["everything"], also_right=[V([[19, 22], [43, 50]])],
   note="ccos.math.mul multiplies two numbers. A correct product written by an agent is also right.")
RA("ra-07", "call my mom", ["call", "phone", "mom"], ["out-of-scope"], distractors=ALL_SERVERS)
RA("ra-08", "set an alarm for 7am tomorrow", ["alarm"], ["near-miss"], distractors=["time"])
RA("ra-09", "what's the stock price of AAPL?", ["stock", "AAPL", "price"], ["out-of-scope"],
   distractors=ALL_SERVERS)
RA("ra-10", "convert 100 US dollars to euros", ["currency", "dollar", "euro", "USD", "EUR", "exchange"],
   ["near-miss"], note="Looks like arithmetic but needs an exchange rate nothing provides.")
RA("ra-11", "summarize README.md in one sentence", ["summar"], ["near-miss"], distractors=["filesystem"],
   note="The file can be read; summarizing needs a language model.")
RA("ra-12", "what is the sentiment of notes.txt?", ["sentiment"], ["near-miss"])
RA("ra-13", "zip the docs folder", ["zip", "compress", "archive"], ["near-miss"],
   distractors=["everything", "filesystem"],
   note="The everything server's gzip-file-as-resource compresses one URL's content, not a folder into a zip.")
RA("ra-14", "make run.sh executable", ["executable", "chmod", "permission"], ["near-miss"],
   distractors=["filesystem"])
RA("ra-15", "push {repo} to origin", ["push"], ["near-miss"], needs=["git"])
RA("ra-16", "merge feature/login into main in {repo}", ["merge"], ["near-miss"], needs=["git"])
RA("ra-17", "clone https://github.com/acme/rocket", ["clone"], ["near-miss"], distractors=["git", "github"])
RA("ra-18", "delete the branch feature/login in {repo}", ["delete", "remove"], ["near-miss"], needs=["git"],
   note="git_branch only lists branches.")
RA("ra-19", "close issue 2 of acme/rocket", ["close"], ["near-miss"], needs=["github"],
   note="The GitHub subset has no update operation.")
RA("ra-20", "list the pull requests of acme/rocket", ["pull request", "pull-request", "pulls", "PR"],
   ["near-miss"], needs=["github"], note="No pulls operation (issues are not pull requests).")
RA("ra-21", "star the acme/rocket repository", ["star"], ["near-miss"], needs=["github"])
RA("ra-22", "rate Copper Sky 9 out of 10 on TMDB", ["rate", "rating"], ["near-miss"], needs=["tmdb"],
   note="The imported TMDB document has only GET operations.")
RA("ra-23", "add The Glass Harbor to my watchlist", ["watchlist"], ["near-miss"], needs=["tmdb"])
RA("ra-24", "buy two tickets for Northbound tonight", ["ticket", "buy"], ["near-miss"], needs=["tmdb"])
RA("ra-25", "what is 2 to the power of 10?", ["power", "exponent", "pow"], ["near-miss", "math"],
   also_right=[V(1024)], note="No power capability; 1024 computed by an agent is also right.")
RA("ra-26", "what is the square root of 2?", ["square root", "sqrt", "root"], ["near-miss", "math"],
   also_right=[V(math.sqrt(2))])
RA("ra-27", "is 97 a prime number?", ["prime"], ["near-miss", "math"], also_right=[V(True)])
RA("ra-28", "generate a random number between 1 and 10", ["random"], ["near-miss"])
RA("ra-29", "what time is it in Tokyo?", ["Tokyo", "time zone", "timezone"], ["near-miss"],
   note="Without the time server: ccos.time.now gives UTC only; a UTC time is a wrong answer.")
RA("ra-30", "remind me to call the dentist tomorrow at 9", ["remind"], ["near-miss"],
   distractors=["memory", "time"], note="Memory can store a note but nothing will remind the user.")
RA("ra-31", "schedule a meeting with Ana on Friday at 3pm", ["meeting", "calendar", "schedule"],
   ["out-of-scope"], distractors=ALL_SERVERS)
RA("ra-32", "encrypt notes.txt with a password", ["encrypt"], ["near-miss"])
RA("ra-33", "upload notes.txt to Dropbox", ["Dropbox", "upload"], ["near-miss"])
RA("ra-34", "resize photo.png to 100x100 pixels", ["resize", "image"], ["near-miss"], distractors=["filesystem"])
RA("ra-35", "install numpy", ["install", "numpy"], ["out-of-scope"], distractors=ALL_SERVERS)
RA("ra-36", "what is the capital of Australia?", ["capital", "Australia"], ["knowledge"], distractors=ALL_SERVERS)
RA("ra-37", "who won the 2018 World Cup?", ["World Cup", "won"], ["knowledge"], distractors=ALL_SERVERS)
RA("ra-38", "how many people live in Tokyo?", ["population", "live", "people"], ["knowledge"],
   distractors=ALL_SERVERS)
RA("ra-39", "what's the 10th Fibonacci number?", ["Fibonacci"], ["near-miss", "math"], also_right=[V(55)])
RA("ra-40", "convert notes.txt to a PDF", ["PDF"], ["near-miss"], distractors=["filesystem"])
RA("ra-41", "spell-check notes.txt", ["spell"], ["near-miss"])
RA("ra-42", "book a flight to Paris and tell me the time in Tokyo", ["flight", "book"], ["partial"],
   needs=["time"], note="The time clause is servable, the flight is not: requires-agent naming the flight.")
RA("ra-43", "count the words in README.md and translate it to German", ["translat", "German"], ["partial"])
RA("ra-44", "add 2 and 3 and email the result to Bob", ["email", "e-mail", "mail"], ["partial"])
RA("ra-45", "send a Slack message to #general saying hello", ["Slack", "message"], ["out-of-scope"],
   distractors=ALL_SERVERS)
RA("ra-46", "how much disk space is free?", ["disk", "space"], ["near-miss"], distractors=["filesystem"])
RA("ra-47", "read notes.txt aloud", ["aloud", "speak", "speech", "voice", "audio"], ["partial"],
   note="Reading the file is servable, speaking it is not.")
RA("ra-48", "find movies similar to The Glass Harbor that are streaming on Netflix",
   ["Netflix", "stream"], ["partial"], needs=["tmdb"],
   note="No watch-provider data in the fixture or the imported operations the loopback serves.")
RA("ra-49", "undo my last change to notes.txt", ["undo", "revert", "history"], ["near-miss"],
   distractors=["filesystem", "git"], note="The workspace is not a git repository; no history is kept.")
RA("ra-50", "open a pull request from feature/login in {repo}", ["pull request", "pull-request", "PR"],
   ["near-miss"], needs=["git"], distractors=["github"])
RA("ra-51", "what's the weather in Chicago tomorrow?", ["weather", "tomorrow", "forecast"], ["near-miss"],
   distractors=["everything"],
   note="The everything server's get-structured-content has canned 'weather' for Chicago, without "
        "any notion of tomorrow; a forecast needs a weather service.")

RA("ra-52", "what language is 'bonjour tout le monde' written in?", ["language", "detect"], ["near-miss"],
   note="Text tools split, count and change case; recognising a language needs a model.")
RA("ra-53", "read the text in the image scan.png", ["image", "OCR", "scan.png", "text in"], ["near-miss"],
   distractors=["filesystem"], note="read_media_file returns base64 data; reading text from an image needs OCR.")
RA("ra-54", "compute the SHA-256 hash of notes.txt", ["SHA", "hash", "checksum"], ["near-miss"],
   distractors=["filesystem", "everything"])
RA("ra-55", "convert README.md to HTML", ["HTML", "markdown"], ["near-miss"], distractors=["filesystem"],
   note="Upper/lower case and JSON are the only conversions available.")
RA("ra-56", "which person in people.json would make the best team lead?", ["team lead", "best", "judg"],
   ["near-miss"], note="people.json holds names, ages and cities: nothing to judge leadership by.")
# chit-chat and irrelevant
RA("chat-01", "hi", ["hi", "greeting"], ["chit-chat"], distractors=ALL_SERVERS,
   note="A greeting is not a task: echoing 'hi' is wrong.")
RA("chat-02", "thanks, that's all!", ["thank"], ["chit-chat"])
RA("chat-03", "how are you today?", ["how are you"], ["chit-chat"], distractors=ALL_SERVERS)
RA("chat-04", "tell me a joke", ["joke"], ["chit-chat"], distractors=ALL_SERVERS)
RA("chat-05", "write a haiku about autumn", ["haiku", "poem", "autumn"], ["chit-chat"], distractors=ALL_SERVERS)
RA("chat-06", "what's the meaning of life?", ["meaning"], ["chit-chat"], distractors=ALL_SERVERS)
RA("chat-07", "what's your name?", ["name"], ["chit-chat"], distractors=ALL_SERVERS)
RA("chat-08", "can you help me?", ["help"], ["chit-chat"])
RA("chat-09", "I'm bored", ["bored"], ["chit-chat"], distractors=ALL_SERVERS)

# ---- errors the user should see as errors ----------------------------------
C = "errors"
G("err-01", C, "count the words in missing.txt", "error", error_match="missing.txt",
  note="The file does not exist: an error naming it, not 0.")
G("err-02", C, "read /etc/passwd", "error", error_match=r"outside|allowed|root|/etc/passwd|denied|refused",
  note="Outside the file roots: refused.")
G("err-03", C, "show the git log of /tmp/no-such-repo", "error", needs=["git"],
  error_match=r"no-such-repo|not a (valid )?git|repositor",
  note="Not the fixture repository: the git server refuses it (outside --repository / does not exist).")
G("err-04", C, "parse the JSON in notes.txt", "error", error_match=r"JSON|json|parse",
  note="notes.txt is not JSON: the parse error, not a value.")
G("err-05", C, "count the lines of every file in the folder nonexistent", "error",
  error_match="nonexistent")

# --------------------------------------------------------------------------
# Parts. The split was made once, when the suite was written (before any
# planner change for issue #15), and is frozen here: goals tagged `issue`
# (phrasings quoted in the issue, public and certain to be worked on) are dev;
# of the other goals of every category about 40% were put in the held-out
# part, evenly by position. Goals added later are dev (they cannot be
# held-out: they were written after the planner changed).
# --------------------------------------------------------------------------

HELD_OUT = set("""
echo-03 echo-05 math-10 math-12 math-14 math-16 math-18 math-20 text-03 text-05 text-07 text-09
text-11 data-03 data-05 data-07 file-02 file-07 file-09 file-11 file-13 file-15 file-17 file-19
file-21 now-01 ask-01 ask-03 ask-05 ask-06 http-06 http-07 http-09 http-10 fs-03 fs-05 fs-08
fs-10 mem-04 mem-06 mem-08 mem-10 every-03 every-05 every-07 tz-04 tz-06 tz-08 tz-10 git-04
git-06 git-08 git-10 git-12 tmdb-03 tmdb-05 tmdb-08 tmdb-10 tmdb-13 tmdb-15 tmdb-18 tmdb-20
gh-04 gh-06 gh-08 gh-10 gh-12 multi-04 multi-06 multi-08 multi-10 multi-12 multi-15 multi-17
multi-19 ra-03 ra-05 ra-08 ra-10 ra-13 ra-15 ra-18 ra-20 ra-23 ra-25 ra-28 ra-30 ra-33 ra-35
ra-38 ra-40 ra-43 ra-45 ra-48 ra-50 ra-53 ra-55 chat-02 chat-04 chat-07 chat-09 err-03 err-05
""".split())


def assign_parts(goals):
    known = {g["id"] for g in goals}
    assert HELD_OUT <= known, sorted(HELD_OUT - known)
    for g in goals:
        g["part"] = "held-out" if g["id"] in HELD_OUT else "dev"
        assert not (g["part"] == "held-out" and "issue" in g["tags"]), g["id"]


# --------------------------------------------------------------------------
# TOML output
# --------------------------------------------------------------------------


def tstr(s):
    if "'" not in s and "\n" not in s and all(ord(c) >= 0x20 and c != "\x7f" for c in s):
        return "'" + s + "'"
    return json.dumps(s, ensure_ascii=False)


def tval(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return tstr(v)
    if isinstance(v, list):
        return "[" + ", ".join(tval(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {tval(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


HEADER = """# The ccos goal suite, {part} part ({n} goals). Format: goals/README.md.
# Generated by goals/tools/build_suite.py from the fixtures; edit goals there.
{extra}
"""


def toml_for(part, goals):
    extra = (
        "# HELD-OUT: written with the dev part before any planner change for issue #15.\n"
        "# Never tune the planner on these goals; report their figures separately."
        if part == "held-out" else
        "# DEV: the part a planner change may be tuned on (it includes every phrasing quoted in issue #15)."
    )
    out = [HEADER.format(part=part, n=len(goals), extra=extra)]
    for g in goals:
        out.append("[[goal]]")
        for f in FIELDS:
            if f not in g:
                continue
            v = g[f]
            if f in ("needs", "distractors", "tags") and not v:
                if f != "needs":
                    continue
            if f == "approve" and not v:
                continue
            if f == "memory_check" or f == "git_check":
                out.append(f"{f} = [" + ", ".join(tval(x) for x in v) + "]")
                continue
            out.append(f"{f} = {tval(v)}")
        out.append("")
    return "\n".join(out)


def kind(g):
    return g["expect"] if g["expect"] in ("requires-agent", "error") else "value"


def validate(goals):
    ids = [g["id"] for g in goals]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for g in goals:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*-\d{2}", g["id"]), g["id"]
        for s in g["needs"] + g["distractors"]:
            assert s in ALL_SERVERS, (g["id"], s)
        assert not set(g["needs"]) & set(g["distractors"]), g["id"]
        k = kind(g)
        checks = [f for f in ("expect_match", "expect_contains", "expect_not_contains", "files",
                              "files_absent", "dirs", "memory_check", "git_check") if f in g]
        if k == "requires-agent":
            assert g.get("missing"), g["id"]
        if k == "error":
            assert g.get("error_match"), g["id"]
        if g["expect"] == "*":
            assert checks or "min_elapsed_ms" in g, g["id"]
        if "{repo}" in g["goal"]:
            assert "git" in g["needs"], g["id"]
        if "{port}" in g["goal"]:
            assert g["approve"], g["id"]
        if "memory" in g["needs"] and k == "value":
            assert "memory_seed" in g, g["id"]
        for r in [g.get("expect_match")]:
            if r:
                re.compile(r.replace("{today_utc}", "2024-01-01").replace("{workspace}", "/x"))


def build():
    validate(GOAL_LIST)
    assign_parts(GOAL_LIST)
    parts = {"dev": [], "held-out": []}
    for g in GOAL_LIST:
        parts[g["part"]].append(g)
    files = {
        GOALS / "dev.toml": toml_for("dev", parts["dev"]),
        GOALS / "held-out.toml": toml_for("held-out", parts["held-out"]),
    }
    # round trip
    for path, t in files.items():
        doc = tomllib.loads(t)
        assert len(doc["goal"]) == len([g for g in GOAL_LIST if (GOALS / (g["part"] + ".toml")) == path])
    return files


def stats():
    from collections import Counter
    by = Counter((g["part"], g["category"]) for g in GOAL_LIST)
    cats = sorted({g["category"] for g in GOAL_LIST}, key=lambda c: [
        "builtins", "http", "filesystem", "memory", "everything", "time", "git", "tmdb", "github",
        "multi-clause", "requires-agent", "errors"].index(c))
    print(f"{'category':16} {'dev':>5} {'held-out':>9} {'total':>6}")
    for c in cats:
        d, h = by[("dev", c)], by[("held-out", c)]
        print(f"{c:16} {d:5} {h:9} {d + h:6}")
    n = len(GOAL_LIST)
    d = sum(1 for g in GOAL_LIST if g["part"] == "dev")
    print(f"{'total':16} {d:5} {n - d:9} {n:6}")
    kinds = Counter((g["part"], kind(g)) for g in GOAL_LIST)
    for k in ("value", "requires-agent", "error"):
        print(f"kind {k:14} dev {kinds[('dev', k)]:3}  held-out {kinds[('held-out', k)]:3}  "
              f"total {kinds[('dev', k)] + kinds[('held-out', k)]:3}")
    ra = sum(1 for g in GOAL_LIST if kind(g) == "requires-agent")
    print(f"requires-agent share: {ra / n:.1%}")
    srv = Counter(s for g in GOAL_LIST for s in g["needs"])
    print("needs:", dict(sorted(srv.items())))
    print("issue phrasings:", sum(1 for g in GOAL_LIST if "issue" in g["tags"]))


def main():
    files = build()
    if "--stats" in sys.argv[1:]:
        stats()
        return
    if "--check" in sys.argv[1:]:
        bad = [p for p, t in files.items() if not p.exists() or p.read_text(encoding="utf-8") != t]
        for p in bad:
            print(f"differs: {p}")
        sys.exit(1 if bad else 0)
    for p, t in files.items():
        p.write_text(t, encoding="utf-8")
        print(f"wrote {p}")


if __name__ == "__main__":
    main()

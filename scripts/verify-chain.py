#!/usr/bin/env python3
"""Verify a ccos causal chain export, independently of ccos's code.

Usage: ccos chain export > chain.jsonl; scripts/verify-chain.py chain.jsonl

Implements docs/chain-format.md with the Python standard library only:
RFC 8785 canonical JSON (format 2), the legacy encoding (format 1), the
entry hash and the links. Prints one line per problem and a summary; exits
0 when every entry checks out, 1 otherwise, 2 on bad usage or input.
"""
import hashlib
import json
import math
import sys

GENESIS = "0" * 64


def es_number(x):
    """A number as ECMAScript's Number.prototype.toString prints the double."""
    if isinstance(x, bool):
        raise TypeError("bool is not a number")
    f = float(x)
    if not math.isfinite(f):
        raise ValueError("NaN and infinities are not JSON")
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    digits, n = shortest_digits(abs(f))
    k = len(digits)
    if k <= n <= 21:
        body = digits + "0" * (n - k)
    elif 0 < n <= 21:
        body = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        body = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        mant = digits if k == 1 else digits[0] + "." + digits[1:]
        body = mant + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + body


def shortest_digits(f):
    """(digits, n) with f == 0.digits * 10**n, digits the shortest that round-trip."""
    r = repr(f)  # Python's repr is the shortest round-trip representation.
    mant, _, exp = r.partition("e")
    exp = int(exp) if exp else 0
    intpart, _, frac = mant.partition(".")
    digits = (intpart + frac).lstrip("0")
    n = len(intpart.lstrip("0")) + exp if intpart.strip("0") else exp - (len(frac) - len(frac.lstrip("0")))
    digits = digits.rstrip("0") or "0"
    return digits, n


def ryu_number(x):
    """A number as Rust's serde_json prints it (format 1 entries)."""
    if isinstance(x, int):
        return str(x)
    f = float(x)
    if f == 0:
        return "-0.0" if math.copysign(1, f) < 0 else "0.0"
    sign = "-" if f < 0 else ""
    digits, n = shortest_digits(abs(f))
    k = len(digits)
    if 0 <= n - k and n <= 16:
        return sign + digits + "0" * (n - k) + ".0"
    if 0 < n <= 16:
        return sign + digits[:n] + "." + digits[n:]
    if -5 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    mant = digits if k == 1 else digits[0] + "." + digits[1:]
    return sign + mant + "e" + str(e)


def json_string(s):
    out = ['"']
    for ch in s:
        c = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\r":
            out.append("\\r")
        elif c < 0x20:
            out.append("\\u%04x" % c)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def encode(v, legacy):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return ryu_number(v) if legacy else es_number(v)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ",".join(encode(x, legacy) for x in v) + "]"
    if isinstance(v, dict):
        if legacy:
            keys = sorted(v, key=lambda k: k.encode("utf-8"))
        else:
            keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json_string(k) + ":" + encode(v[k], legacy) for k in keys) + "}"
    raise TypeError("not JSON: %r" % (v,))


def entry_hash(e):
    doc = {
        "seq": e["seq"],
        "kind": e["kind"],
        "intent_id": e.get("intent_id"),
        "plan_id": e.get("plan_id"),
        "run_id": e.get("run_id"),
        "payload": e["payload"],
        "timestamp": e["timestamp"],
        "prev_hash": e["prev_hash"],
    }
    fmt = e.get("format", 1)
    if fmt == 2:
        doc["format"] = 2
        text = encode(doc, legacy=False)
    elif fmt == 1:
        text = encode(doc, legacy=True)
    else:
        raise ValueError("unknown chain format %r" % (fmt,))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    problems = 0
    expected_seq, prev = 1, GENESIS
    try:
        f = sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8")
    except OSError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    count = 0
    for lineno, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            e = json.loads(line)
        except ValueError as err:
            print("line %d: not JSON: %s" % (lineno, err), file=sys.stderr)
            return 2
        count += 1
        seq = e.get("seq")
        if seq != expected_seq:
            print("entry %s: expected seq %d" % (seq, expected_seq))
            problems += 1
        if e.get("prev_hash") != prev:
            print("entry %s: prev_hash does not match the previous entry's hash" % seq)
            problems += 1
        try:
            h = entry_hash(e)
        except (ValueError, TypeError, KeyError) as err:
            print("entry %s: cannot hash: %s" % (seq, err))
            problems += 1
            h = None
        if h is not None and h != e.get("hash"):
            print("entry %s: hash mismatch (recomputed %s, recorded %s)" % (seq, h, e.get("hash")))
            problems += 1
        expected_seq = (seq if isinstance(seq, int) else expected_seq) + 1
        prev = e.get("hash")
    print("%d entries, %d problem(s)" % (count, problems))
    return 0 if problems == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

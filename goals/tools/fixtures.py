#!/usr/bin/env python3
"""Writes the generated fixtures of the goal suite (goals/fixtures/*.json,
memory.jsonl) from the small invented databases below.

    python3 goals/tools/fixtures.py          # (re)write the fixture files
    python3 goals/tools/fixtures.py --check  # exit 1 if a file differs

The fixture files are what the loopback servers serve; this script is how
they were made, so that every derived response (search rows, person credits,
top-rated order, ...) is consistent with the source rows. The expected values
in the suite are computed from the same data by build_suite.py.
Deterministic: no clock, no randomness.
"""

import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIX = HERE.parent / "fixtures"

# --------------------------------------------------------------------------
# TMDB (invented films and people; ids 1001-1015 and 2001-2018)
# --------------------------------------------------------------------------

GENRES = [
    (28, "Action"), (12, "Adventure"), (16, "Animation"), (35, "Comedy"),
    (80, "Crime"), (99, "Documentary"), (18, "Drama"), (14, "Fantasy"),
    (27, "Horror"), (10749, "Romance"), (878, "Science Fiction"), (53, "Thriller"),
]
GENRE_ID = {name: gid for gid, name in GENRES}

COLLECTION_COPPER = {
    "id": 5001,
    "name": "Copper Sky Collection",
    "poster_path": "/collections/5001-poster.jpg",
    "backdrop_path": "/collections/5001-backdrop.jpg",
}

COMPANIES = {
    "Harborline Pictures": (301, "US"),
    "Orchard Road Films": (302, "GB"),
    "Skyforge Studios": (303, "US"),
    "Lantern House Animation": (304, "JP"),
    "Northlight Media": (305, "CA"),
    "Petit Phare": (306, "FR"),
}
COUNTRY = {"US": "United States of America", "GB": "United Kingdom",
           "JP": "Japan", "CA": "Canada", "FR": "France"}
LANGUAGE = {"en": "English", "ja": "Japanese", "fr": "French"}

# id, title, original_title, lang, release, genres, runtime, budget, revenue,
# tagline, overview, vote_average, vote_count, popularity, collection, company
MOVIES = [
    (1001, "The Glass Harbor", None, "en", "2014-03-21", ["Drama", "Thriller"], 128,
     42000000, 131500000, "Every window hides a tide.",
     "A lighthouse keeper's family unravels when a glass-walled house appears on the harbor overnight.",
     7.9, 8421, 61.337, None, "Harborline Pictures"),
    (1002, "Midnight Orchard", None, "en", "2016-09-09", ["Romance", "Drama"], 112,
     18000000, 64200000, "Love ripens after dark.",
     "Two rival apple growers meet every night in the orchard that divides their farms.",
     7.2, 3310, 22.418, None, "Orchard Road Films"),
    (1003, "Copper Sky", None, "en", "2019-06-14", ["Science Fiction", "Adventure"], 141,
     165000000, 612300000, "The sky is not the limit. It is the door.",
     "The crew of the survey ship Halcyon discovers that the copper-colored sky of a distant moon is alive.",
     8.1, 15230, 88.905, COLLECTION_COPPER, "Skyforge Studios"),
    (1004, "Copper Sky: Ascent", None, "en", "2022-07-01", ["Science Fiction", "Action"], 149,
     190000000, 540800000, "Higher. Faster. Further.",
     "Captain Adeyemi returns to the living sky to rescue a colony that climbed too high.",
     7.4, 9874, 95.212, COLLECTION_COPPER, "Skyforge Studios"),
    (1005, "Paper Lanterns", "Kami no Akari", "ja", "2011-11-19", ["Animation", "Fantasy"], 97,
     9000000, 48700000, "Every light carries a wish.",
     "A girl follows a drifting paper lantern into a village where wishes are kept in jars.",
     8.3, 6120, 34.551, None, "Lantern House Animation"),
    (1006, "The Last Ferry", None, "en", "2018-02-02", ["Thriller", "Crime"], 104,
     25000000, 77100000, "One crossing. No return.",
     "A detective has ninety minutes on the last ferry of the night to find a killer among the passengers.",
     6.8, 2875, 18.764, None, "Northlight Media"),
    (1007, "Sugar & Static", None, "en", "2015-05-15", ["Comedy", "Romance"], 99,
     12000000, 39900000, "She's sweet. He's noise.",
     "A pastry chef and a pirate radio DJ share a wall, a fuse box and eventually a life.",
     6.5, 1944, 12.093, None, "Orchard Road Films"),
    (1008, "Wax Museum Nights", None, "en", "2013-10-25", ["Horror", "Comedy"], 93,
     6500000, 21300000, "The exhibits are restless.",
     "A night guard discovers that the wax figures rehearse a play every night, and they need a villain.",
     5.9, 1402, 9.871, None, "Northlight Media"),
    (1009, "Iron Meadow", None, "en", "2020-11-06", ["Action", "Drama"], 133,
     88000000, 204600000, "Some fields are never quiet.",
     "A field hospital is caught between two armies in a meadow littered with old iron.",
     7.0, 5210, 41.226, None, "Harborline Pictures"),
    (1010, "Salt and Starlight", "Sel et Lumière", "fr", "2017-04-12", ["Documentary"], 88,
     1200000, 3400000, "The sea remembers the stars.",
     "A year with the salt harvesters of the Atlantic coast, filmed from dusk to dawn.",
     7.6, 612, 5.402, None, "Petit Phare"),
    (1011, "Quiet Engines", None, "en", "2021-03-19", ["Drama", "Science Fiction"], 118,
     30000000, 58800000, "The future hums.",
     "An aging inventor builds a silent engine and must decide who gets to hear about it.",
     7.3, 2209, 27.645, None, "Skyforge Studios"),
    (1012, "Harbor Lights", None, "en", "2009-08-28", ["Crime", "Drama"], 121,
     22000000, 71000000, "The docks never sleep.",
     "A harbor smuggling ring runs on the lights of the old port, until one of them goes out.",
     7.7, 4035, 15.318, None, "Harborline Pictures"),
    (1013, "The Lantern Keeper", None, "en", "2023-12-08", ["Fantasy", "Adventure"], 126,
     75000000, 255400000, "Keep the light. Keep the kingdom.",
     "The last keeper of the royal lanterns must relight them before the long night swallows the kingdom.",
     7.8, 6733, 73.09, None, "Lantern House Animation"),
    (1014, "Run, Ollie, Run", None, "en", "2012-06-22", ["Comedy", "Adventure"], 95,
     15000000, 52600000, "Twenty-six miles. One very late start.",
     "A lazy accountant signs up for a marathon to win back his ex and has six weeks to learn to run.",
     6.2, 1733, 8.337, None, "Orchard Road Films"),
    (1015, "Northbound", None, "en", "2019-01-25", ["Thriller", "Action"], 110,
     35000000, 96500000, "Don't look south.",
     "An agent escorts a witness on the only train north while someone on board wants them both off it.",
     6.9, 3388, 19.955, None, "Northlight Media"),
]

# id, name, department, gender (1 female, 2 male), birthday, deathday,
# place_of_birth, popularity, biography
PEOPLE = [
    (2001, "Mara Okafor", "Directing", 1, "1971-04-02", None, "Lagos, Nigeria", 14.2,
     "Mara Okafor is a director and screenwriter known for slow-burning dramas set by the sea."),
    (2002, "Tomasz Wren", "Directing", 2, "1968-11-30", None, "Krakow, Poland", 18.9,
     "Tomasz Wren directs large-scale science fiction and tense thrillers."),
    (2003, "Hana Sato", "Directing", 1, "1975-07-07", None, "Sapporo, Japan", 11.35,
     "Hana Sato is an animator and director whose films often feature lanterns and light."),
    (2004, "Priya Raman", "Directing", 1, "1980-01-19", None, "Chennai, India", 9.8,
     "Priya Raman writes and directs comedies."),
    (2005, "Dario Ferreira", "Directing", 2, "1966-05-23", None, "Porto, Portugal", 12.6,
     "Dario Ferreira directs war dramas and action films."),
    (2006, "Leo Brandt", "Acting", 2, "1982-02-14", None, "Hamburg, Germany", 33.71,
     "Leo Brandt is an actor known for playing soldiers and sailors."),
    (2007, "Ines Duval", "Acting", 1, "1986-09-03", None, "Lyon, France", 29.4,
     "Ines Duval is an actress and narrator."),
    (2008, "Sam Whitlock", "Acting", 2, "1979-12-12", None, "Leeds, England, UK", 21.05,
     "Sam Whitlock is a character actor with a long career in crime films."),
    (2009, "Amara Nwosu", "Acting", 1, "1990-06-28", None, "Enugu, Nigeria", 38.2,
     "Amara Nwosu rose to fame as Captain Ife Adeyemi in Copper Sky."),
    (2010, "Felix Aurand", "Acting", 2, "1974-03-08", None, "Zurich, Switzerland", 15.9,
     "Felix Aurand is a comic actor."),
    (2011, "Yuki Tanabe", "Acting", 1, "1988-10-10", None, "Osaka, Japan", 24.6,
     "Yuki Tanabe is an actress and voice actress."),
    (2012, "Carmen Ibarra", "Acting", 1, "1984-08-17", None, "Seville, Spain", 19.3,
     "Carmen Ibarra is a Spanish actress."),
    (2013, "Oskar Lind", "Acting", 2, "1977-01-25", None, "Uppsala, Sweden", 13.75,
     "Oskar Lind is a Swedish actor."),
    (2014, "Nadia Petrova", "Acting", 1, "1992-05-05", None, "Varna, Bulgaria", 27.15,
     "Nadia Petrova is an actress known for action roles."),
    (2015, "Theo Marchetti", "Acting", 2, "1969-09-21", "2021-02-11", "Turin, Italy", 10.45,
     "Theo Marchetti was an Italian actor."),
    (2016, "Grace Okonkwo", "Acting", 1, "1995-04-30", None, "Accra, Ghana", 22.8,
     "Grace Okonkwo is an actress."),
    (2017, "Jonah Pike", "Writing", 2, "1973-12-01", None, "Portland, Oregon, USA", 6.1,
     "Jonah Pike is a screenwriter."),
    (2018, "Elena Voss", "Sound", 1, "1981-07-14", None, "Graz, Austria", 5.3,
     "Elena Voss is a film composer."),
]
PERSON = {p[0]: p for p in PEOPLE}
PERSON_ID = {p[1]: p[0] for p in PEOPLE}

DIRECTOR = "Director"
WRITER = "Screenplay"
COMPOSER = "Original Music Composer"
JOB_DEPARTMENT = {DIRECTOR: "Directing", WRITER: "Writing", COMPOSER: "Sound"}

# movie id -> (cast [(person, character)] in billing order, crew [(person, job)])
CREDITS = {
    1001: ([("Leo Brandt", "Daniel Marsh"), ("Ines Duval", "Claire Marsh"),
            ("Oskar Lind", "Harbor Master Keel"), ("Grace Okonkwo", "Ada Marsh")],
           [("Mara Okafor", DIRECTOR), ("Jonah Pike", WRITER), ("Elena Voss", COMPOSER)]),
    1002: ([("Ines Duval", "June Halloway"), ("Sam Whitlock", "Tom Bright"),
            ("Carmen Ibarra", "Rosa")],
           [("Mara Okafor", DIRECTOR), ("Mara Okafor", WRITER)]),
    1003: ([("Amara Nwosu", "Captain Ife Adeyemi"), ("Leo Brandt", "Commander Reyes"),
            ("Felix Aurand", "Dr. Otto Brenner"), ("Nadia Petrova", "Lieutenant Vera Sokol")],
           [("Tomasz Wren", DIRECTOR), ("Jonah Pike", WRITER), ("Elena Voss", COMPOSER)]),
    1004: ([("Amara Nwosu", "Captain Ife Adeyemi"), ("Nadia Petrova", "Lieutenant Vera Sokol"),
            ("Yuki Tanabe", "Engineer Mei Arakawa")],
           [("Tomasz Wren", DIRECTOR), ("Tomasz Wren", WRITER), ("Elena Voss", COMPOSER)]),
    1005: ([("Yuki Tanabe", "Aiko (voice)"), ("Oskar Lind", "The Lantern Maker (voice)"),
            ("Grace Okonkwo", "Firefly (voice)")],
           [("Hana Sato", DIRECTOR), ("Hana Sato", WRITER)]),
    1006: ([("Sam Whitlock", "Detective Hale"), ("Carmen Ibarra", "Lucia Ortega"),
            ("Theo Marchetti", "Father Benedetti")],
           [("Tomasz Wren", DIRECTOR), ("Jonah Pike", WRITER)]),
    1007: ([("Ines Duval", "Mimi Lark"), ("Felix Aurand", "Bruno Static"),
            ("Grace Okonkwo", "Jess")],
           [("Priya Raman", DIRECTOR), ("Priya Raman", WRITER)]),
    1008: ([("Sam Whitlock", "Night Guard Pete"), ("Nadia Petrova", "Wax Figure Anya"),
            ("Theo Marchetti", "Curator Vance")],
           [("Priya Raman", DIRECTOR), ("Jonah Pike", WRITER)]),
    1009: ([("Leo Brandt", "Sergeant Kurt Wolff"), ("Amara Nwosu", "Nurse Halima"),
            ("Oskar Lind", "Colonel Stroud")],
           [("Dario Ferreira", DIRECTOR), ("Dario Ferreira", WRITER), ("Elena Voss", COMPOSER)]),
    1010: ([("Ines Duval", "Narrator")],
           [("Hana Sato", DIRECTOR)]),
    1011: ([("Felix Aurand", "Walter Quine"), ("Yuki Tanabe", "Dr. Emi Kaneda"),
            ("Carmen Ibarra", "Marta")],
           [("Dario Ferreira", DIRECTOR), ("Jonah Pike", WRITER)]),
    1012: ([("Theo Marchetti", "Don Aurelio"), ("Sam Whitlock", "Officer Flynn"),
            ("Ines Duval", "Sophie Varga")],
           [("Mara Okafor", DIRECTOR), ("Mara Okafor", WRITER)]),
    1013: ([("Grace Okonkwo", "Nell the Keeper"), ("Leo Brandt", "King Alder"),
            ("Yuki Tanabe", "Moth")],
           [("Hana Sato", DIRECTOR), ("Jonah Pike", WRITER), ("Elena Voss", COMPOSER)]),
    1014: ([("Felix Aurand", "Ollie Grant"), ("Carmen Ibarra", "Coach Rita"),
            ("Oskar Lind", "Mr. Pemberton")],
           [("Priya Raman", DIRECTOR), ("Priya Raman", WRITER)]),
    1015: ([("Amara Nwosu", "Agent Kira Vale"), ("Sam Whitlock", "Tom Ridley"),
            ("Nadia Petrova", "Sasha")],
           [("Dario Ferreira", DIRECTOR), ("Jonah Pike", WRITER)]),
}


def movie_row(m):
    (mid, title, original, lang, release, genres, *_rest) = m
    vote_average, vote_count, popularity = m[11], m[12], m[13]
    return {
        "adult": False,
        "backdrop_path": f"/backdrops/{mid}.jpg",
        "genre_ids": [GENRE_ID[g] for g in genres],
        "id": mid,
        "original_language": lang,
        "original_title": original or title,
        "overview": m[10],
        "popularity": popularity,
        "poster_path": f"/posters/{mid}.jpg",
        "release_date": release,
        "title": title,
        "video": False,
        "vote_average": vote_average,
        "vote_count": vote_count,
    }


def movie_details(m):
    (mid, title, original, lang, release, genres, runtime, budget, revenue, tagline,
     overview, vote_average, vote_count, popularity, collection, company) = m
    cid, country = COMPANIES[company]
    return {
        "adult": False,
        "backdrop_path": f"/backdrops/{mid}.jpg",
        "belongs_to_collection": collection,
        "budget": budget,
        "genres": [{"id": GENRE_ID[g], "name": g} for g in genres],
        "homepage": "",
        "id": mid,
        "imdb_id": f"tt9{mid:06d}",
        "original_language": lang,
        "original_title": original or title,
        "overview": overview,
        "popularity": popularity,
        "poster_path": f"/posters/{mid}.jpg",
        "production_companies": [
            {"id": cid, "logo_path": None, "name": company, "origin_country": country}
        ],
        "production_countries": [{"iso_3166_1": country, "name": COUNTRY[country]}],
        "release_date": release,
        "revenue": revenue,
        "runtime": runtime,
        "spoken_languages": [{"iso_639_1": lang, "name": LANGUAGE[lang]}],
        "status": "Released",
        "tagline": tagline,
        "title": title,
        "video": False,
        "vote_average": vote_average,
        "vote_count": vote_count,
    }


def cast_credit_id(mid, pid):
    return f"cast-{mid}-{pid}"


def crew_credit_id(mid, pid, job):
    return f"crew-{mid}-{pid}-{JOB_DEPARTMENT[job].lower()}"


def movie_credits(mid):
    cast, crew = CREDITS[mid]
    out_cast = []
    for order, (name, character) in enumerate(cast):
        pid = PERSON_ID[name]
        out_cast.append({
            "cast_id": order + 1,
            "character": character,
            "credit_id": cast_credit_id(mid, pid),
            "gender": PERSON[pid][3],
            "id": pid,
            "name": name,
            "order": order,
            "profile_path": f"/profiles/{pid}.jpg",
        })
    out_crew = []
    for name, job in crew:
        pid = PERSON_ID[name]
        out_crew.append({
            "credit_id": crew_credit_id(mid, pid, job),
            "department": JOB_DEPARTMENT[job],
            "gender": PERSON[pid][3],
            "id": pid,
            "job": job,
            "name": name,
            "profile_path": f"/profiles/{pid}.jpg",
        })
    return {"cast": out_cast, "crew": out_crew, "id": mid}


def person_details(p):
    (pid, name, dept, gender, birthday, deathday, place, popularity, bio) = p
    return {
        "adult": False,
        "also_known_as": [],
        "biography": bio,
        "birthday": birthday,
        "deathday": deathday,
        "gender": gender,
        "homepage": None,
        "id": pid,
        "imdb_id": f"nm9{pid:06d}",
        "known_for_department": dept,
        "name": name,
        "place_of_birth": place,
        "popularity": popularity,
        "profile_path": f"/profiles/{pid}.jpg",
    }


MOVIE = {m[0]: m for m in MOVIES}


def person_movie_credits(pid):
    cast, crew = [], []
    for mid in sorted(CREDITS):
        mcast, mcrew = CREDITS[mid]
        for name, character in mcast:
            if PERSON_ID[name] == pid:
                row = movie_row(MOVIE[mid])
                row["character"] = character
                row["credit_id"] = cast_credit_id(mid, pid)
                cast.append(row)
        for name, job in mcrew:
            if PERSON_ID[name] == pid:
                row = movie_row(MOVIE[mid])
                row["credit_id"] = crew_credit_id(mid, pid, job)
                row["department"] = JOB_DEPARTMENT[job]
                row["job"] = job
                crew.append(row)
    return {"cast": cast, "crew": crew, "id": pid}


def person_row(p):
    pid = p[0]
    credits = person_movie_credits(pid)
    seen, known = set(), []
    for row in credits["cast"] + credits["crew"]:
        if row["id"] not in seen:
            seen.add(row["id"])
            known.append(row["id"])
    known.sort(key=lambda mid: -MOVIE[mid][13])
    known_for = []
    for mid in known[:3]:
        row = movie_row(MOVIE[mid])
        row["media_type"] = "movie"
        known_for.append(row)
    return {
        "adult": False,
        "id": pid,
        "known_for": known_for,
        "name": p[1],
        "popularity": p[7],
        "profile_path": f"/profiles/{pid}.jpg",
    }


def page(rows, n=1, size=20):
    return {
        "page": n,
        "results": rows[(n - 1) * size: n * size],
        "total_pages": math.ceil(len(rows) / size),
        "total_results": len(rows),
    }


def tmdb():
    by_pop = sorted(MOVIES, key=lambda m: -m[13])
    by_rating = sorted(MOVIES, key=lambda m: (-m[11], -m[12]))
    responses = {
        "/genre/movie/list": {"genres": [{"id": g, "name": n} for g, n in GENRES]},
        "/movie/popular": page([movie_row(m) for m in by_pop]),
        "/movie/top_rated": page([movie_row(m) for m in by_rating]),
    }
    for m in MOVIES:
        responses[f"/movie/{m[0]}"] = movie_details(m)
        responses[f"/movie/{m[0]}/credits"] = movie_credits(m[0])
    for p in PEOPLE:
        responses[f"/person/{p[0]}"] = person_details(p)
        responses[f"/person/{p[0]}/movie_credits"] = person_movie_credits(p[0])
    return {
        "_about": (
            "Invented TMDB data for the ccos goal suite (not real films or people). "
            "Served by the TMDB loopback server as described in goals/fixtures/README.md: "
            "'responses' are exact bodies by path (page 1 for the lists), 'search' holds "
            "the rows /search/movie and /search/person filter and page."
        ),
        "responses": responses,
        "search": {
            "movie": [movie_row(m) for m in by_pop],
            "person": [person_row(p) for p in sorted(PEOPLE, key=lambda p: -p[7])],
        },
    }


def words(s):
    out, cur = [], ""
    for ch in s.lower():
        if ch.isalnum():
            cur += ch
        else:
            if cur:
                out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


def search(kind, query, year=None):
    """The reference search of the TMDB loopback server (see README)."""
    rows = tmdb()["search"].get(kind, [])  # no TV shows, companies or collections
    key = "title" if kind == "movie" else "name"
    q = words(query)
    if not q:
        raise ValueError("422: query must be provided")
    hits = []
    for r in rows:
        names = [r[key]] + ([r["original_title"]] if kind == "movie" else [])
        if not any(all(any(t in w for w in words(n)) for t in q) for n in names):
            continue
        if year is not None and not r.get("release_date", "").startswith(str(year)):
            continue
        hits.append(r)
    exact = [r for r in hits if r[key].lower() == query.strip().lower()]
    rest = [r for r in hits if r not in exact]
    return page(exact + rest)


# --------------------------------------------------------------------------
# GitHub subset (invented owners, repositories and issues)
# --------------------------------------------------------------------------

USERS = {
    "acme": {"login": "acme", "id": 9001, "type": "Organization", "name": "Acme Corp",
             "company": None, "location": "Phoenix, AZ", "bio": "Tools for coyotes and everyone else.",
             "followers": 870, "following": 0, "created_at": "2015-03-02T10:00:00Z"},
    "rpatel": {"login": "rpatel", "id": 9002, "type": "User", "name": "Riya Patel",
               "company": "Acme Corp", "location": "Bristol, UK", "bio": "Rust and note-taking apps.",
               "followers": 312, "following": 41, "created_at": "2017-08-19T15:30:00Z"},
    "jdoe": {"login": "jdoe", "id": 9003, "type": "User", "name": "Jordan Doe",
             "company": None, "location": None, "bio": None,
             "followers": 3, "following": 12, "created_at": "2021-01-05T08:00:00Z"},
}

# full_name -> fields
REPOS = {
    "acme/rocket": dict(id=7001, description="A tiny rocket launcher CLI", language="Rust",
                        stars=1280, forks=64, archived=False, fork=False, license="mit",
                        topics=["cli", "rust", "rockets"], created="2018-04-01T12:00:00Z"),
    "acme/anvil": dict(id=7002, description="Heavy-duty build cache", language="Go",
                       stars=342, forks=12, archived=False, fork=False, license="apache-2.0",
                       topics=["build", "cache"], created="2019-09-15T09:00:00Z"),
    "acme/roadrunner": dict(id=7003, description="Fast job runner (unmaintained)", language="Python",
                            stars=57, forks=9, archived=True, fork=False, license="mit",
                            topics=[], created="2016-02-20T18:00:00Z"),
    "rpatel/dotfiles": dict(id=7004, description="My shell configuration", language="Shell",
                            stars=15, forks=1, archived=False, fork=False, license=None,
                            topics=["dotfiles"], created="2017-09-01T20:00:00Z"),
    "rpatel/notes-app": dict(id=7005, description="A local-first notes app", language="TypeScript",
                             stars=230, forks=18, archived=False, fork=False, license="mit",
                             topics=["notes", "local-first"], created="2020-05-10T11:00:00Z"),
    "rpatel/rocket": dict(id=7006, description="A tiny rocket launcher CLI", language="Rust",
                          stars=2, forks=0, archived=False, fork=True, license="mit",
                          topics=[], created="2022-11-11T11:11:00Z"),
    "jdoe/hello-world": dict(id=7007, description="My first repository", language="JavaScript",
                             stars=2, forks=0, archived=False, fork=False, license=None,
                             topics=[], created="2021-01-06T09:00:00Z"),
}

LICENSES = {
    "mit": {"key": "mit", "name": "MIT License", "spdx_id": "MIT"},
    "apache-2.0": {"key": "apache-2.0", "name": "Apache License 2.0", "spdx_id": "Apache-2.0"},
}

LABELS = {"bug": "d73a4a", "enhancement": "a2eeef", "documentation": "0075ca"}

# full_name -> [(number, title, state, label, author, comments, created, closed)]
ISSUES = {
    "acme/rocket": [
        (1, "Crash when config file is missing", "closed", "bug", "jdoe", 4,
         "2023-01-10T09:00:00Z", "2023-01-12T17:00:00Z"),
        (2, "Add --dry-run flag", "open", "enhancement", "rpatel", 2, "2023-02-01T10:00:00Z", None),
        (3, "Launch countdown skips 3", "open", "bug", "jdoe", 7, "2023-03-14T15:14:00Z", None),
        (4, "Document the plugin API", "open", "documentation", "rpatel", 0,
         "2023-04-20T08:30:00Z", None),
        (5, "Segfault on ARM64", "closed", "bug", "rpatel", 11, "2023-05-05T05:05:00Z",
         "2023-06-01T12:00:00Z"),
        (6, "Support TOML config", "open", "enhancement", "jdoe", 3, "2023-07-07T07:07:00Z", None),
        (7, "Typo in README", "closed", "documentation", "jdoe", 1, "2023-08-08T08:08:00Z",
         "2023-08-08T09:00:00Z"),
    ],
    "acme/anvil": [
        (1, "Cache misses on Windows", "open", "bug", "rpatel", 5, "2023-02-02T12:00:00Z", None),
        (2, "Add S3 backend", "closed", "enhancement", "jdoe", 9, "2023-03-03T12:00:00Z",
         "2023-09-09T12:00:00Z"),
    ],
    "acme/roadrunner": [],
    "rpatel/dotfiles": [],
    "rpatel/notes-app": [
        (1, "Dark mode", "open", "enhancement", "jdoe", 6, "2021-06-01T10:00:00Z", None),
        (2, "Sync conflicts lose edits", "open", "bug", "rpatel", 12, "2022-01-15T10:00:00Z", None),
        (3, "Export to PDF", "closed", "enhancement", "jdoe", 2, "2022-03-01T10:00:00Z",
         "2022-04-01T10:00:00Z"),
    ],
    "rpatel/rocket": [
        (1, "Rebase on upstream", "open", "enhancement", "rpatel", 0, "2023-01-01T00:00:00Z", None),
    ],
    "jdoe/hello-world": [],
}

GH = "https://github.com"


def gh_owner(login):
    u = USERS[login]
    return {"id": u["id"], "login": login, "type": u["type"], "html_url": f"{GH}/{login}"}


def gh_repo(full):
    r = REPOS[full]
    owner, name = full.split("/")
    open_issues = sum(1 for i in ISSUES[full] if i[2] == "open")
    return {
        "archived": r["archived"],
        "created_at": r["created"],
        "default_branch": "main",
        "description": r["description"],
        "fork": r["fork"],
        "forks_count": r["forks"],
        "full_name": full,
        "html_url": f"{GH}/{full}",
        "id": r["id"],
        "language": r["language"],
        "license": LICENSES.get(r["license"]),
        "name": name,
        "open_issues_count": open_issues,
        "owner": gh_owner(owner),
        "private": False,
        "pushed_at": "2024-01-01T00:00:00Z",
        "stargazers_count": r["stars"],
        "topics": r["topics"],
        "updated_at": "2024-01-01T00:00:00Z",
        "watchers_count": r["stars"],
    }


def gh_issue(full, i):
    number, title, state, label, author, comments, created, closed = i
    rid = REPOS[full]["id"]
    return {
        "body": f"{title}.",
        "closed_at": closed,
        "comments": comments,
        "created_at": created,
        "html_url": f"{GH}/{full}/issues/{number}",
        "id": rid * 1000 + number,
        "labels": [{"color": LABELS[label], "name": label}],
        "number": number,
        "state": state,
        "title": title,
        "updated_at": closed or created,
        "user": gh_owner(author),
    }


def gh_user(login):
    u = USERS[login]
    public = sum(1 for full in REPOS if full.split("/")[0] == login)
    return {
        "bio": u["bio"],
        "company": u["company"],
        "created_at": u["created_at"],
        "followers": u["followers"],
        "following": u["following"],
        "html_url": f"{GH}/{login}",
        "id": u["id"],
        "location": u["location"],
        "login": login,
        "name": u["name"],
        "public_repos": public,
        "type": u["type"],
    }


def github():
    return {
        "_about": (
            "Invented GitHub-like data for the ccos goal suite, served by the GitHub loopback "
            "server for goals/fixtures/github-subset.openapi.json as described in "
            "goals/fixtures/README.md. Issues are listed newest first (number descending) by default."
        ),
        "users": {login: gh_user(login) for login in USERS},
        "repos": {full: gh_repo(full) for full in REPOS},
        "issues": {full: [gh_issue(full, i) for i in sorted(ISSUES[full], key=lambda i: -i[0])]
                   for full in REPOS},
        "label_colors": LABELS,
        "created_issue_defaults": {
            "comments": 0,
            "created_at": "2024-06-01T12:00:00Z",
            "updated_at": "2024-06-01T12:00:00Z",
            "closed_at": None,
            "state": "open",
            "user": gh_owner("rpatel"),
        },
    }


def github_list_issues(full, state="open", labels=None):
    rows = github()["issues"][full]
    if state != "all":
        rows = [r for r in rows if r["state"] == state]
    if labels:
        want = [s.strip() for s in labels.split(",") if s.strip()]
        rows = [r for r in rows if all(w in [l["name"] for l in r["labels"]] for w in want)]
    return rows


def openapi_github():
    def param(name, where, schema, desc, required=None):
        p = {"name": name, "in": where, "description": desc, "schema": schema}
        if required or where == "path":
            p["required"] = True
        return p

    owner = param("owner", "path", {"type": "string"},
                  "The account owner of the repository (user or organization login).")
    repo = param("repo", "path", {"type": "string"}, "The name of the repository, without the owner.")
    ref = lambda n: {"$ref": f"#/components/schemas/{n}"}  # noqa: E731
    ok = lambda desc, schema: {"description": desc, "content": {"application/json": {"schema": schema}}}  # noqa: E731
    not_found = {"description": "Resource not found",
                 "content": {"application/json": {"schema": ref("error")}}}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "GitHub subset (goal suite fixture)",
            "version": "1.0.0",
            "description": (
                "A small hand-written, GitHub-like REST API: repositories, their issues and users. "
                "Written for the ccos goal suite; served by a loopback fixture server."
            ),
        },
        "servers": [{"url": "https://api.github.example"}],
        "paths": {
            "/repos/{owner}/{repo}": {
                "get": {
                    "operationId": "repos/get",
                    "summary": "Get a repository",
                    "description": "Get a repository: description, language, star count, forks, open issue count, license, archived flag.",
                    "tags": ["repos"],
                    "parameters": [owner, repo],
                    "responses": {"200": ok("The repository", ref("repository")), "404": not_found},
                }
            },
            "/repos/{owner}/{repo}/issues": {
                "get": {
                    "operationId": "issues/list-for-repo",
                    "summary": "List repository issues",
                    "description": "List the issues of a repository, newest first. Only open issues unless `state` says otherwise.",
                    "tags": ["issues"],
                    "parameters": [
                        owner, repo,
                        param("state", "query",
                              {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
                              "Indicates the state of the issues to return."),
                        param("labels", "query", {"type": "string"},
                              "A list of comma separated label names; only issues with all of them are returned. Example: bug,ui"),
                        param("sort", "query",
                              {"type": "string", "enum": ["created", "updated", "comments"], "default": "created"},
                              "What to sort results by."),
                        param("direction", "query",
                              {"type": "string", "enum": ["asc", "desc"], "default": "desc"},
                              "The direction to sort the results by."),
                        param("per_page", "query", {"type": "integer", "default": 30, "maximum": 100},
                              "The number of results per page (max 100)."),
                        param("page", "query", {"type": "integer", "default": 1},
                              "The page number of the results to fetch."),
                    ],
                    "responses": {"200": ok("The issues", {"type": "array", "items": ref("issue")}),
                                  "404": not_found},
                },
                "post": {
                    "operationId": "issues/create",
                    "summary": "Create an issue",
                    "description": "Create (open) a new issue in a repository.",
                    "tags": ["issues"],
                    "parameters": [owner, repo],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {
                            "type": "object",
                            "required": ["title"],
                            "properties": {
                                "title": {"type": "string", "description": "The title of the issue."},
                                "body": {"type": "string", "description": "The contents of the issue."},
                                "labels": {"type": "array", "items": {"type": "string"},
                                           "description": "Labels to associate with this issue."},
                            },
                        }}},
                    },
                    "responses": {"201": ok("The created issue", ref("issue")), "404": not_found},
                },
            },
            "/repos/{owner}/{repo}/issues/{issue_number}": {
                "get": {
                    "operationId": "issues/get",
                    "summary": "Get an issue",
                    "description": "Get one issue of a repository by its number.",
                    "tags": ["issues"],
                    "parameters": [owner, repo,
                                   param("issue_number", "path", {"type": "integer"},
                                         "The number that identifies the issue.")],
                    "responses": {"200": ok("The issue", ref("issue")), "404": not_found},
                }
            },
            "/users/{username}": {
                "get": {
                    "operationId": "users/get-by-username",
                    "summary": "Get a user",
                    "description": "Public information about a GitHub account (user or organization).",
                    "tags": ["users"],
                    "parameters": [param("username", "path", {"type": "string"},
                                         "The handle for the GitHub user account.")],
                    "responses": {"200": ok("The account", ref("user")), "404": not_found},
                }
            },
            "/users/{username}/repos": {
                "get": {
                    "operationId": "repos/list-for-user",
                    "summary": "List repositories for a user",
                    "description": "List the public repositories owned by a user or organization, sorted by full name.",
                    "tags": ["repos"],
                    "parameters": [
                        param("username", "path", {"type": "string"},
                              "The handle for the GitHub user account."),
                        param("sort", "query",
                              {"type": "string", "enum": ["created", "updated", "pushed", "full_name"],
                               "default": "full_name"},
                              "The property to sort the results by."),
                        param("direction", "query", {"type": "string", "enum": ["asc", "desc"]},
                              "The order to sort by. Default: asc when using full_name, otherwise desc."),
                        param("per_page", "query", {"type": "integer", "default": 30, "maximum": 100},
                              "The number of results per page (max 100)."),
                        param("page", "query", {"type": "integer", "default": 1},
                              "The page number of the results to fetch."),
                    ],
                    "responses": {"200": ok("The repositories", {"type": "array", "items": ref("repository")}),
                                  "404": not_found},
                }
            },
        },
        "components": {
            "schemas": {
                "owner": {"type": "object", "properties": {
                    "login": {"type": "string"}, "id": {"type": "integer"},
                    "type": {"type": "string", "enum": ["User", "Organization"]},
                    "html_url": {"type": "string"}}},
                "license": {"type": "object", "nullable": True, "properties": {
                    "key": {"type": "string"}, "name": {"type": "string"}, "spdx_id": {"type": "string"}}},
                "label": {"type": "object", "properties": {
                    "name": {"type": "string"}, "color": {"type": "string"}}},
                "repository": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "name": {"type": "string"},
                    "full_name": {"type": "string", "description": "owner/name"},
                    "owner": ref("owner"), "private": {"type": "boolean"},
                    "description": {"type": "string", "nullable": True},
                    "fork": {"type": "boolean"}, "language": {"type": "string", "nullable": True},
                    "stargazers_count": {"type": "integer", "description": "Number of stars"},
                    "watchers_count": {"type": "integer"}, "forks_count": {"type": "integer"},
                    "open_issues_count": {"type": "integer"},
                    "default_branch": {"type": "string"}, "archived": {"type": "boolean"},
                    "topics": {"type": "array", "items": {"type": "string"}},
                    "license": ref("license"), "html_url": {"type": "string"},
                    "created_at": {"type": "string", "format": "date-time"},
                    "updated_at": {"type": "string", "format": "date-time"},
                    "pushed_at": {"type": "string", "format": "date-time"}}},
                "issue": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "number": {"type": "integer"},
                    "title": {"type": "string"}, "body": {"type": "string", "nullable": True},
                    "state": {"type": "string", "enum": ["open", "closed"]},
                    "user": ref("owner"), "labels": {"type": "array", "items": ref("label")},
                    "comments": {"type": "integer"}, "html_url": {"type": "string"},
                    "created_at": {"type": "string", "format": "date-time"},
                    "updated_at": {"type": "string", "format": "date-time"},
                    "closed_at": {"type": "string", "format": "date-time", "nullable": True}}},
                "user": {"type": "object", "properties": {
                    "login": {"type": "string"}, "id": {"type": "integer"},
                    "type": {"type": "string"}, "name": {"type": "string", "nullable": True},
                    "company": {"type": "string", "nullable": True},
                    "location": {"type": "string", "nullable": True},
                    "bio": {"type": "string", "nullable": True},
                    "public_repos": {"type": "integer"}, "followers": {"type": "integer"},
                    "following": {"type": "integer"}, "html_url": {"type": "string"},
                    "created_at": {"type": "string", "format": "date-time"}}},
                "error": {"type": "object", "properties": {
                    "message": {"type": "string"}, "documentation_url": {"type": "string"}}},
            }
        },
    }


# --------------------------------------------------------------------------
# Plain HTTP fixture routes
# --------------------------------------------------------------------------

HTTP_ROUTES = [
    {"method": "GET", "path": "/hello.txt", "status": 200,
     "content_type": "text/plain; charset=utf-8", "body": "Hello from the fixture server!\n"},
    {"method": "GET", "path": "/quote.txt", "status": 200,
     "content_type": "text/plain; charset=utf-8",
     "body": "Simplicity is prerequisite for reliability.\n"},
    {"method": "GET", "path": "/status.json", "status": 200, "content_type": "application/json",
     "json": {"service": "inventory", "status": "ok", "version": "2.4.1"}},
    {"method": "GET", "path": "/users.json", "status": 200, "content_type": "application/json",
     "json": [{"id": 1, "name": "Ada", "role": "admin"},
              {"id": 2, "name": "Grace", "role": "editor"},
              {"id": 3, "name": "Linus", "role": "viewer"}]},
    {"method": "GET", "path": "/numbers.json", "status": 200, "content_type": "application/json",
     "json": [4, 8, 15, 16, 23, 42]},
    {"method": "POST", "path": "/echo", "status": 200, "content_type": "application/json",
     "echo": True},
]


def http_routes():
    return {
        "_about": (
            "Routes of the plain HTTP fixture server (goals write its address as "
            "http://127.0.0.1:{port}). 'body' is sent as is, 'json' is sent serialized; "
            "'echo' routes answer {\"received\": <request body>} (parsed when the request's "
            "Content-Type says JSON, else the body text). Any other method or path: 404, "
            "text/plain body \"not found\"."
        ),
        "routes": HTTP_ROUTES,
    }


def http_get(path):
    for r in HTTP_ROUTES:
        if r["method"] == "GET" and r["path"] == path:
            return r.get("json", r.get("body"))
    return None


# --------------------------------------------------------------------------
# Memory server seed graph
# --------------------------------------------------------------------------

MEMORY = [
    {"type": "entity", "name": "Alice", "entityType": "person",
     "observations": ["drinks coffee every morning", "works as a nurse"]},
    {"type": "entity", "name": "Bob", "entityType": "person",
     "observations": ["plays chess on Sundays", "allergic to peanuts"]},
    {"type": "entity", "name": "Globex", "entityType": "company",
     "observations": ["based in Lyon", "makes bicycles"]},
    {"type": "entity", "name": "Dana", "entityType": "person",
     "observations": ["speaks Portuguese"]},
    {"type": "relation", "from": "Bob", "to": "Globex", "relationType": "works_at"},
    {"type": "relation", "from": "Dana", "to": "Globex", "relationType": "works_at"},
    {"type": "relation", "from": "Alice", "to": "Bob", "relationType": "knows"},
]


def dump(obj):
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def outputs():
    return {
        "tmdb.json": dump(tmdb()),
        "github.json": dump(github()),
        "github-subset.openapi.json": dump(openapi_github()),
        "http.json": dump(http_routes()),
        # The memory server's own format: JSON lines, no trailing newline.
        "memory.jsonl": "\n".join(json.dumps(x, ensure_ascii=False) for x in MEMORY),
    }


def main():
    check = "--check" in sys.argv[1:]
    bad = 0
    for name, text in outputs().items():
        path = FIX / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path}")
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

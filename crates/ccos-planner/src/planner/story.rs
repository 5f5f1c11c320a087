//! A story of instances served by one capability: one call per instance,
//! each with what that instance states ("The first triangle has a base of
//! 10 units and a height of 5 units. The second … Can you calculate the
//! area of both?" → two calls of the area capability).
//!
//! The words are read by [`crate::decompose::story`]; here the catalog
//! decides. Precision first, every condition below refuses the reading
//! (the goal is then planned clause by clause, as before):
//! - every ask ranks the same capability first, and one passes the
//!   ranking's bar or names it;
//! - the setting states no value beyond the count and names as subjects;
//!   the asks use no word the capability does not know and count the
//!   group by no word a parameter takes ("for two *guests*");
//! - each instance is read as a single request would be — the asks said
//!   of one instance, then its words — and is served by the capability
//!   and chosen for it, every value it states passed, no word with a
//!   digit left unread; no two instances alike, no change repeated with a
//!   value all share;
//! - an ask that combines the results ("the *total* area") is reported
//!   unserved: one call per instance does not add them up.

use super::*;
use crate::decompose::story::{Combination, Role, Story};
use crate::understand::mentions::MentionKind;

/// The plan of a story: its sub-intents' traces, steps and what is
/// missing, as the clause-by-clause loop of `plan_outcome` makes them.
pub(super) struct StoryPlan {
    pub traces: Vec<IntentTrace>,
    pub steps: Vec<ResolvedStep>,
    pub planned: Vec<SubIntent>,
    pub missing: Vec<MissingCapability>,
}

/// The arithmetic combining a story's results, with the built-ins doing it.
struct Combining {
    how: Combination,
    add: CapabilityManifest,
    div: Option<CapabilityManifest>,
}

/// The words by which `text` says a value relative to another ("2 *more
/// than* its base", "*twice* the first"), if any.
fn relative_value(text: &str) -> Option<&'static str> {
    const RELATIVE: &[&str] = &[
        "more than",
        "less than",
        "fewer than",
        "greater than",
        "larger than",
        "smaller than",
        "higher than",
        "lower than",
        "longer than",
        "shorter than",
        "times as",
        "times the",
        "twice",
        "half",
        "same as",
        "as much as",
    ];
    RELATIVE
        .iter()
        .copied()
        .find(|r| lexicon::says_whole(text, r, &[]))
}

/// Quantities that do not add up: a sum or a mean of them is no answer
/// ("the average speed over both trips" is no mean of the speeds).
const NOT_ADDITIVE: &[&str] = &[
    "rate",
    "speed",
    "velocity",
    "density",
    "ratio",
    "percentage",
    "percent",
    "probability",
    "average",
    "mean",
    "median",
    "max",
    "maximum",
    "min",
    "minimum",
    "largest",
    "smallest",
    "highest",
    "lowest",
    "temperature",
    "pressure",
    "frequency",
    "index",
    "bmi",
    "per",
];

/// Measures a capability's name may say it gives (`area_circle`): a
/// number, unless it declares otherwise.
const MEASURES: &[&str] = &[
    "area",
    "circumference",
    "perimeter",
    "volume",
    "length",
    "distance",
    "displacement",
    "cost",
    "price",
    "tax",
    "interest",
    "weight",
    "mass",
    "energy",
    "force",
    "profit",
    "revenue",
    "calories",
    "fee",
    "payment",
    "salary",
    "income",
    "expense",
    "duration",
];

/// Verbs of a capability's name saying it computes a number
/// ("*calculate*_area", "*count*_words").
const COMPUTING_VERBS: &[&str] = &[
    "calculate",
    "calc",
    "compute",
    "count",
    "estimate",
    "predict",
];

/// Words of an ask about how to serve it rather than what ("use the …
/// *function*", "in descending *order*"): no part of the request a
/// capability must know.
const REQUEST_FRAME_WORDS: [&str; 6] = ["function", "tool", "method", "api", "capability", "order"];

/// Words of an ask that names the capability, saying to call it ("*using*
/// the finance.predict_future_value function"): no part of the request.
const NAMED_CALL_WORDS: [&str; 6] = ["use", "using", "utilize", "utilizing", "invoke", "employ"];

impl Planner {
    /// `subs` (the goal's clauses) read as a story of instances one
    /// capability serves; `None` when they are not one, or no capability
    /// serves every instance (see the module documentation).
    pub(super) fn instance_story(&self, subs: &[SubIntent]) -> Option<Result<StoryPlan, String>> {
        if subs.is_empty() || subs.iter().any(|s| !s.from_text) {
            return None;
        }
        let texts: Vec<&str> = subs.iter().map(|s| s.description.as_str()).collect();
        let story = crate::decompose::story::read(&texts)?;
        Some(self.plan_story(subs, &story))
    }

    /// The plan of `story`, read from `subs`, or why one capability does
    /// not serve it instance by instance (a notice of the trace: the goal
    /// is then planned clause by clause).
    fn plan_story(&self, subs: &[SubIntent], story: &Story) -> Result<StoryPlan, String> {
        let unreadable = |what: &str| format!("{what:?} cannot be read");
        // The capability every ask ranks first (allowed by the policy).
        let mut capability: Option<(CapabilityManifest, String)> = None;
        let mut ask_traces = vec![];
        let mut established = false;
        let mut named = false;
        for part in story.parts.iter().filter(|p| p.role == Role::Ask) {
            // The ask alone when its sentence goes on to the instances
            // ("What is the total area of three circles, where the first
            // …"): their words are no request of the capability.
            // A combination the plan makes is no request of the
            // capability either ("the *average* area").
            let whole = &subs[part.clause];
            let text = without_combining(&part.text, story);
            let own;
            let ask = if text == whole.description {
                whole
            } else {
                let mut a = SubIntent::new(&whole.id, &text, whole.intent_type.clone());
                a.mentions = crate::understand::mentions(&text).map_err(|_| unreadable(&text))?;
                a.from_text = true;
                own = a;
                &own
            };
            let (trace, _) = self
                .choose(ask)
                .map_err(|e| format!("the ask {:?} is not planned: {e}", ask.description))?;
            // The capability the ask names ("use the 'predict_house_price'
            // function"), else its first allowed candidate, else (the
            // candidates' bar missed) the first it ranks: every ask must
            // agree, and one must name it or pass the bar.
            let allowed = |id: &str| !trace.filtered.iter().any(|f| f.capability_id == id);
            let first = |list: &[Candidate]| {
                list.iter()
                    .find(|c| allowed(&c.capability_id))
                    .map(|c| c.capability_id.clone())
            };
            let m = match self.named_capability(ask) {
                Some(m) => {
                    established = true;
                    named = true;
                    m
                }
                None => match first(&trace.candidates) {
                    Some(id) => {
                        established = true;
                        self.marketplace
                            .get(&id)
                            .ok_or_else(|| format!("{id} is not in the catalog"))?
                    }
                    None => {
                        let no_candidate =
                            || format!("no capability is ranked for the ask {:?}", ask.description);
                        let ranked = self
                            .diagnosis
                            .resolve(ask, DIAGNOSED)
                            .map_err(|_| no_candidate())?;
                        let id = first(&ranked).ok_or_else(no_candidate)?;
                        self.marketplace
                            .get(&id)
                            .ok_or_else(|| format!("{id} is not in the catalog"))?
                    }
                },
            };
            match &capability {
                Some((c, _)) if c.id != m.id => {
                    return Err(format!(
                        "the asks rank different capabilities first ({} and {})",
                        c.id, m.id
                    ));
                }
                Some(_) => {}
                None => {
                    let decision = self.policy.decide_call(&m);
                    if matches!(decision, CallDecision::Deny { .. }) {
                        return Err(format!("the policy denies {}", m.id));
                    }
                    capability = Some((m.clone(), decision.label().to_string()));
                }
            }
            ask_traces.push((part.clause, trace));
        }
        let (m, decision) = capability.ok_or("the story asks nothing")?;
        // "… using the finance.predict_future_value function": named by
        // its identifier, though no mention reads it as one.
        named = named
            || ask_traces
                .iter()
                .any(|(c, _)| says_identifier(&subs[*c].description, &m.id));
        if !established {
            return Err(format!(
                "no ask names {} or passes the ranking's bar for it",
                m.id
            ));
        }
        for part in story.parts.iter().filter(|p| p.role == Role::Setting) {
            let mentions =
                crate::understand::mentions(&part.text).map_err(|_| unreadable(&part.text))?;
            if let Some(men) = mentions
                .iter()
                .find(|men| !says_nothing_of_its_own(men, &part.text, story))
            {
                return Err(format!(
                    "the scene {:?} states {:?}, which no instance would pass",
                    part.text, men.text
                ));
            }
        }
        let ask_ids: Vec<String> = ask_traces
            .iter()
            .map(|(c, _)| subs[*c].id.clone())
            .collect();
        let ask_type = subs[ask_traces.first().ok_or("the story asks nothing")?.0]
            .intent_type
            .clone();
        // The asks, said of one instance.
        let one_ask: String = story
            .parts
            .iter()
            .filter(|p| p.role == Role::Ask)
            .map(|p| {
                let one = crate::decompose::story::for_one(&p.text, story.instances, &story.nouns);
                one.trim_end_matches(['.', '?', '!', ' ']).to_string() + "."
            })
            .collect::<Vec<_>>()
            .join(" ");
        // The instances' noun, when the capability does not know it ("the
        // first *set* is …", "the average of each *set*"), names the
        // group, no restriction of the request: left out of the reading.
        let (params, _) = crate::understand::bind::params_of(&m);
        let vocabulary = capability_vocabulary(&m, &params);
        let names_the_instances = |w: &str| {
            ccos_marketplace::search::analyze(w)
                .iter()
                .all(|st| story.nouns.contains(st))
        };
        let unknown_nouns: BTreeSet<String> = story
            .nouns
            .iter()
            .filter(|stem| !vocabulary.contains(*stem))
            .cloned()
            .collect();
        // What the asks call the group ("four *individuals*") is no
        // value of the capability's: "for two *guests*" is a value of
        // `guests`, and the story no story.
        let group_words: Vec<String> = story
            .parts
            .iter()
            .filter(|p| p.role == Role::Ask)
            .flat_map(|p| {
                crate::decompose::story::group_words(&p.text, story.instances, &story.nouns)
            })
            .collect();
        if let Some(w) = group_words.iter().find(|w| {
            !names_the_instances(w)
                && ccos_marketplace::search::analyze(w)
                    .iter()
                    .any(|st| params.iter().any(|p| p.name_words.contains(st)))
        }) {
            return Err(format!(
                "the asks count the group by {w:?}, a word of a parameter of {}",
                m.id
            ));
        }
        // Every word of the asks is one the capability knows (its text,
        // with synonyms), the instances' nouns aside: "predict the
        // standings", "every hour", "with a pool" ask for more than it
        // does (the ranking's bar, diluted by the instances' words, would
        // not say so).
        {
            let mut asked = SubIntent::new("ask", one_ask.clone(), ask_type.clone());
            asked.mentions =
                crate::understand::mentions(&one_ask).map_err(|_| unreadable(&one_ask))?;
            asked.from_text = true;
            let lacking: Vec<String> = lacking_words(&asked, &m)
                .into_iter()
                .filter(|w| {
                    let frames = REQUEST_FRAME_WORDS.contains(&w.as_str())
                        || (named && NAMED_CALL_WORDS.contains(&w.as_str()))
                        // "*Assuming* the gravity to be 9.8 m/s^2, can you
                        // calculate …": its values are the request's.
                        || lexicon::PREMISE_OPENERS.contains(&w.as_str())
                        // "*John* wants to know the total area": who asks.
                        || story.characters.contains(w);
                    // Filler ("the *number* of words") says no request.
                    let filler = ccos_marketplace::search::analyze(w)
                        .iter()
                        .all(|st| lexicon::filler_word_stems().contains(st));
                    !(frames
                        || filler
                        || group_words.contains(w)
                        || crate::decompose::story::combines(w)
                        || names_the_instances(w))
                })
                .collect();
            if !lacking.is_empty() {
                return Err(format!(
                    "{} does not know {} of the asks",
                    m.id,
                    lacking
                        .iter()
                        .map(|w| format!("{w:?}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
        let one_ask = without_stems(&one_ask, &unknown_nouns);
        // Said of one instance, a combination is no part of its request
        // ("the *total* area of the triangle"): the plan does it after.
        let one_ask = without_combining(&one_ask, story);
        // Every instance served alone, with its own values.
        let per_clause = |c: usize| {
            story
                .parts
                .iter()
                .filter(|p| p.clause == c && p.role == Role::Instance)
                .count()
        };
        let mut seen_in_clause: BTreeMap<usize, usize> = BTreeMap::new();
        let mut served: Vec<(SubIntent, Chosen, Vec<String>)> = vec![];
        for part in story.parts.iter().filter(|p| p.role == Role::Instance) {
            let s = &subs[part.clause];
            let k = seen_in_clause.entry(part.clause).or_default();
            *k += 1;
            let id = if per_clause(part.clause) > 1 {
                format!("{}-{}", s.id, k)
            } else {
                s.id.clone()
            };
            // The asks said of the instance alone, then its values ("Can
            // you calculate the area of the triangle? The triangle has …"): its
            // request read as a single one, verb, qualifiers and values
            // the asks state for every instance included.
            let instance = without_stems(
                &crate::decompose::story::without_ordinal(&part.text),
                &unknown_nouns,
            );
            // The request first, as a user would say it of one instance.
            let text = format!("{one_ask} {instance}.");
            let ask_end = one_ask.len();
            let mut inst = SubIntent::new(id, text, ask_type.clone());
            inst.mentions = crate::understand::mentions(&inst.description)
                .map_err(|_| unreadable(&inst.description))?;
            inst.from_text = true;
            // A value said relative to another ("a height 2 *more than*
            // its base") is no value to pass as it is.
            if let Some(rel) = relative_value(&part.text) {
                return Err(format!(
                    "{:?} says a value {rel:?} another, which no value reads",
                    part.text
                ));
            }
            // A word with a digit no value covers ("a 5-day forecast",
            // "on web1") says something the plan would not pass.
            let unread_digits = word_spans(&inst.description).into_iter().find(|(span, w)| {
                w.chars().any(|c| c.is_ascii_digit())
                    && !inst
                        .mentions
                        .iter()
                        .any(|men| men.span.start <= span.start && span.end <= men.span.end)
            });
            if let Some((_, w)) = unread_digits {
                return Err(format!("{:?} says {w:?}, which no value reads", part.text));
            }
            let (mut chosen, notes) = match self.evaluate(&inst, &m, false) {
                Fit::Serves(chosen, notes) => (chosen, notes),
                Fit::Refused(reason) | Fit::Doubted(reason) => {
                    return Err(format!("{} does not serve {:?}: {reason}", m.id, part.text));
                }
                Fit::Asks(_, why, _) => {
                    return Err(format!("{} would ask for {:?}: {why}", m.id, part.text));
                }
            };
            // ... and chosen for it as a single request would be: the
            // ranking's bars (the request's words known, "predict" is
            // not "get") hold too.
            let (_, single) = self
                .choose(&inst)
                .map_err(|e| format!("{:?} is not planned: {e}", part.text))?;
            if single.is_none_or(|c| c.manifest.id != m.id) {
                return Err(format!(
                    "{:?} alone is not planned with {}",
                    part.text, m.id
                ));
            }
            // An instance's values are what tells it from the others: it
            // states some, and each is passed, weak ones too ("the first
            // folder is Docs" lists Docs, never the current folder).
            // The asks' count, the instances' labels and a name opening
            // a sentence are no values (mentions of the instance's own
            // text are).
            let no_value = |men: &Mention| {
                men.span.end <= ask_end
                    && (men.value.as_str().is_some_and(|v| names_capability(v, &m))
                        || men.kind != MentionKind::Number
                            && says_nothing_of_its_own(men, &inst.description, story))
            };
            if inst.mentions.iter().all(no_value) {
                return Err(format!("{:?} states no value of its own", part.text));
            }
            if !every_value_passed(&inst, &m, no_value) {
                return Err(format!(
                    "{} does not pass every value {:?} states",
                    m.id, part.text
                ));
            }
            // Said as the goal says it (the step's label).
            inst.description = part.text.clone();
            chosen.intent.description = part.text.clone();
            served.push((inst, chosen, notes));
        }
        // A change made once per instance with a value they all share
        // ("write each line to out.txt": the second write replaces the
        // first) is not read so.
        if crate::understand::bind::changes_things(&m)
            && let Some((_, first, _)) = served.first()
            && first.intent.params.iter().any(|(k, v)| {
                served
                    .iter()
                    .all(|(_, c, _)| c.intent.params.get(k) == Some(v))
            })
        {
            return Err(format!(
                "{} changes things, and every instance would pass the same value",
                m.id
            ));
        }
        // Instances the calls cannot tell apart are not read as such.
        for (k, (_, a, _)) in served.iter().enumerate() {
            if served[..k]
                .iter()
                .any(|(_, b, _)| b.intent.params == a.intent.params)
            {
                return Err("two instances would make the same call".to_string());
            }
        }
        let mut plan = StoryPlan {
            traces: vec![],
            steps: vec![],
            planned: vec![],
            missing: vec![],
        };
        // Results combined by arithmetic ("the *total* area") are added
        // up by the plan; any other combination is reported unserved.
        let combine = match &story.aggregate {
            None => None,
            Some(word) => match self.combining(story, &m, &served) {
                Ok(c) => Some((word.clone(), c)),
                Err(why) => {
                    for (c, mut trace) in ask_traces {
                        trace.chosen = None;
                        trace.notes.push(format!(
                            "a story of {} instances, each served by {}",
                            story.instances, m.id
                        ));
                        plan.traces.push(trace);
                        plan.planned.push(subs[c].clone());
                        plan.missing.push(MissingCapability {
                            sub_intent: subs[c].id.clone(),
                            description: subs[c].description.clone(),
                            reason: format!(
                                "\"{word}\" combines the results of the {} instances, which one call of {} each does not do{why}",
                                story.instances, m.id
                            ),
                        });
                    }
                    return Ok(plan);
                }
            },
        };
        // The steps whose results are the instances' answers.
        let mut results: Vec<String> = vec![];
        let mut served = served.into_iter();
        let mut index = 0;
        for part in &story.parts {
            let s = &subs[part.clause];
            match part.role {
                Role::Instance => {
                    index += 1;
                    let (inst, chosen, notes) =
                        served.next().ok_or("an instance was not served")?;
                    let mut trace = IntentTrace::new(&inst, self.resolution.name());
                    trace.notes.push(format!(
                        "instance {index} of {} of a story asked by {}: served by {} with its own values",
                        story.instances,
                        ask_ids.join(", "),
                        m.id
                    ));
                    trace.notes.extend(notes);
                    trace.chosen = Some(m.id.clone());
                    trace.decision = Some(decision.clone());
                    plan.traces.push(trace);
                    let mut reads = vec![];
                    self.push_chosen(
                        &inst,
                        chosen,
                        &mut reads,
                        (&mut plan.planned, &mut plan.steps, &mut plan.missing),
                    )
                    .map_err(|e| format!("{:?} is not planned: {e}", part.text))?;
                    plan.traces.extend(reads);
                    if let Some(st) = plan.steps.last() {
                        results.push(st.intent.id.clone());
                    }
                }
                Role::Ask => {
                    let mut trace = ask_traces
                        .iter()
                        .find(|(c, _)| *c == part.clause)
                        .map(|(_, t)| t.clone())
                        .ok_or("an ask was not traced")?;
                    trace.chosen = None;
                    trace.skipped.clear();
                    trace.notes.push(format!(
                        "asks the same of each of the {} instances the goal describes: served by their calls of {}",
                        story.instances, m.id
                    ));
                    if let Some((word, c)) = &combine {
                        trace.notes.push(format!(
                            "\"{word}\": their results are {} by {}",
                            match c.how {
                                Combination::Sum => "added up",
                                Combination::Mean => "averaged",
                            },
                            c.add.id
                        ));
                    }
                    plan.traces.push(trace);
                }
                Role::Setting => {
                    let mut trace = IntentTrace::new(s, self.resolution.name());
                    if per_clause(part.clause) > 0 {
                        trace.sub_intent = format!("{}-setting", s.id);
                    }
                    trace.description = part.text.clone();
                    trace.notes.push(
                        "sets the scene of the story (no value of its own beyond the count)"
                            .to_string(),
                    );
                    plan.traces.push(trace);
                }
            }
        }
        if let Some((word, c)) = combine {
            self.push_combination(&word, c, &results, subs, &mut plan);
        }
        Ok(plan)
    }

    /// How the results of `story`'s instances, each served by `m`, are
    /// combined by arithmetic, or why they are not (a reason appended to
    /// "… does not do"): the asks say one sum or one mean, `m` declares a
    /// number or nothing (an undeclared result that is no number fails
    /// the addition when run, never a wrong total), the instances state
    /// the same units (no meters added to feet), and the policy allows
    /// the arithmetic built-ins.
    fn combining(
        &self,
        story: &Story,
        m: &CapabilityManifest,
        served: &[(SubIntent, Chosen, Vec<String>)],
    ) -> Result<Combining, String> {
        use ccos_marketplace::search::analyze;
        let how = story.combination.ok_or_else(String::new)?;
        let asks: Vec<&str> = story
            .parts
            .iter()
            .filter(|p| p.role == Role::Ask)
            .map(|p| p.text.as_str())
            .collect();
        // What is combined is what the capability computes, by a word of
        // its name ("the total *area*" of `area_circle`), never one of its
        // inputs ("the total *height*": the areas were summed) nor
        // anything else ("the total price including tax" of a tax).
        let phrase = asks
            .iter()
            .find_map(|a| crate::decompose::story::combined_phrase(a))
            .ok_or("; what is combined is not said")?;
        let name = lexicon::name_words(m);
        let (params, _) = crate::understand::bind::params_of(m);
        let stems: Vec<String> = phrase.iter().flat_map(|w| analyze(w)).collect();
        let named = |st: &String| lexicon::synonym_stems(st).iter().any(|x| name.contains(x));
        if stems.is_empty() || !stems.iter().all(named) {
            return Err(format!(
                "; {:?} is not what {} computes",
                phrase.join(" "),
                m.id
            ));
        }
        let said: BTreeSet<&String> = stems.iter().collect();
        if let Some(input) = params.iter().find(|p| {
            !p.name_words.is_empty() && p.name_words.iter().collect::<BTreeSet<_>>() == said
        }) {
            return Err(format!(
                "; {:?} is :{}, an input of {}, not its result",
                phrase.join(" "),
                input.name,
                m.id
            ));
        }
        // A quantity that does not add up ("the average *speed*", "the
        // largest item … combined", a rate, a density).
        let intensive: BTreeSet<String> = NOT_ADDITIVE.iter().flat_map(|w| analyze(w)).collect();
        if let Some(w) = phrase
            .iter()
            .find(|w| analyze(w).iter().any(|st| intensive.contains(st)))
        {
            return Err(format!("; {w:?} does not add up"));
        }
        if name.iter().any(|st| intensive.contains(st)) {
            return Err(format!("; what {} gives does not add up", m.id));
        }
        // A number to add: declared so, or computed by what its name says
        // ("calculate", "count", a measure: "area"); an undeclared result
        // of a lookup may be anything (a list, a record).
        match m
            .output_schema
            .as_ref()
            .and_then(crate::understand::bind::schema_type)
        {
            Some(t) if matches!(t.as_str(), "number" | "integer") => {}
            Some(ty) => return Err(format!("; {} returns {ty}, no number to add up", m.id)),
            None => {
                let computing: BTreeSet<String> = COMPUTING_VERBS
                    .iter()
                    .chain(MEASURES)
                    .flat_map(|w| analyze(w))
                    .collect();
                if !name.iter().any(|w| computing.contains(w))
                    && !stems.iter().any(|w| computing.contains(w))
                {
                    return Err(format!(
                        "; {} does not say it returns a number to add up",
                        m.id
                    ));
                }
            }
        }
        // The ask states nothing of its own the sum would leave out ("…
        // in m": a unit to convert to), by a value or a unit's word.
        for ask in &asks {
            let mentions =
                crate::understand::mentions(ask).map_err(|_| format!("{ask:?} cannot be read"))?;
            if let Some(men) = mentions
                .iter()
                .find(|men| !says_nothing_of_its_own(men, ask, story))
            {
                return Err(format!(
                    "; the ask states {:?}, which the sum would not pass",
                    men.text
                ));
            }
            let words: Vec<String> = word_spans(ask).into_iter().map(|(_, w)| w).collect();
            if let Some(w) = (0..words.len()).find_map(|k| {
                let rest: Vec<Option<&str>> = words[k..].iter().map(|w| Some(w.as_str())).collect();
                crate::understand::units::unit_words(&rest).map(|_| words[k].clone())
            }) {
                return Err(format!(
                    "; the ask states the unit {w:?}, which the sum would not convert to"
                ));
            }
        }
        // Values in one unit or currency: no meters added to feet, no
        // dollars to euros.
        let units = |inst: &SubIntent| {
            let mut u: Vec<String> = inst
                .mentions
                .iter()
                .filter_map(|men| {
                    men.unit.clone().or_else(|| {
                        men.text
                            .chars()
                            .find(|c| {
                                !(c.is_alphanumeric()
                                    || c.is_whitespace()
                                    || matches!(c, '.' | ',' | '-' | '+' | '%'))
                            })
                            .map(String::from)
                    })
                })
                .collect();
            u.sort();
            u
        };
        if let Some((first, _, _)) = served.first()
            && served
                .iter()
                .any(|(inst, _, _)| units(inst) != units(first))
        {
            return Err("; the instances state their values in different units".to_string());
        }
        let allowed = |id: &str| {
            self.marketplace
                .get(id)
                .filter(|b| !matches!(self.policy.decide_call(b), CallDecision::Deny { .. }))
        };
        let add = allowed("ccos.math.add").ok_or("; no allowed capability adds numbers")?;
        let div = match how {
            Combination::Sum => None,
            Combination::Mean => {
                Some(allowed("ccos.math.div").ok_or("; no allowed capability divides numbers")?)
            }
        };
        Ok(Combining { how, add, div })
    }

    /// The steps adding up the `results` of a story's instances (and, for
    /// a mean, dividing the sum by their count), each traced.
    fn push_combination(
        &self,
        word: &str,
        c: Combining,
        results: &[String],
        subs: &[SubIntent],
        plan: &mut StoryPlan,
    ) {
        let Some((first, rest)) = results.split_first() else {
            return;
        };
        let base = subs.last().map_or("s", |s| s.id.as_str());
        let mut push = |id: String, what: String, intent: SubIntent, m: &CapabilityManifest| {
            let mut trace = IntentTrace::new(&intent, self.resolution.name());
            trace.notes.push(what);
            trace.chosen = Some(m.id.clone());
            trace.decision = Some(self.policy.decide_call(m).label().to_string());
            plan.traces.push(trace);
            plan.planned.push(intent.clone());
            plan.steps.push(ResolvedStep {
                intent,
                manifest: m.clone(),
            });
            id
        };
        let mut total = first.clone();
        for (k, next) in rest.iter().enumerate() {
            let id = format!("{base}-sum{}", k + 1);
            let intent = SubIntent::new(
                &id,
                format!("add up the results ({word})"),
                IntentType::Compute,
            )
            .with_step_param("a", &total)
            .with_step_param("b", next);
            total = push(
                id,
                format!("\"{word}\": adds the result of {next} to {total}"),
                intent,
                &c.add,
            );
        }
        if let Some(div) = &c.div {
            let id = format!("{base}-mean");
            let n = results.len() as i64;
            let intent = SubIntent::new(
                &id,
                format!("divide the sum by {n} ({word})"),
                IntentType::Compute,
            )
            .with_step_param("a", &total)
            .with_param("b", rtfs::Value::Int(n));
            push(
                id,
                format!("\"{word}\": divides the sum of the {n} results by {n}"),
                intent,
                div,
            );
        }
    }

    /// The one capability a mention of `s` names as a program's
    /// identifier would ("the 'calculate_velocity' function", "with
    /// finance.predict_future_value"), if any.
    fn named_capability(&self, s: &SubIntent) -> Option<CapabilityManifest> {
        let named: Vec<&str> = s
            .mentions
            .iter()
            .filter_map(|men| men.value.as_str())
            .filter(|v| v.contains(['_', '.']) && !v.contains(char::is_whitespace))
            .collect();
        if named.is_empty() {
            return None;
        }
        let mut found = self
            .marketplace
            .list()
            .into_iter()
            .filter(|m| named.iter().any(|v| names_capability(v, m)));
        let one = found.next()?;
        found.next().is_none().then_some(one)
    }
}

/// Whether `text` says `id` whole (case aside): not inside a longer
/// identifier ("use finance.predict_future_value", not
/// "finance.predict_future_value_v2").
fn says_identifier(text: &str, id: &str) -> bool {
    lexicon::says_whole(text, id, &['_', '.'])
}

/// Whether `men`, a mention of an ask or a setting (`text`), says nothing
/// the instances need: the count of instances ("two companies", "a
/// two-day trip"), a name an instance carries ("both Car A and Car B") or
/// the name the part opens with, its subject ("John is a teacher"). Any
/// other value (a place, an amount, a unit) would be dropped: the story
/// is then not read.
fn says_nothing_of_its_own(men: &Mention, text: &str, story: &Story) -> bool {
    match men.kind {
        MentionKind::Number => {
            men.unit.is_none() && men.value.as_f64() == Some(story.instances as f64)
        }
        MentionKind::Name => {
            // Capitalised as a sentence's first word ("John is …",
            // "Assuming a gravity of …").
            let opens = text.get(..men.span.start).is_some_and(|b| {
                let b = b.trim_end();
                b.is_empty() || b.ends_with(['.', '?', '!'])
            });
            opens
                || story
                    .parts
                    .iter()
                    .any(|p| p.role == Role::Instance && p.text.contains(&men.text))
        }
        _ => false,
    }
}

/// Whether the binding of instance `inst` to `m` passes every value the
/// instance states, weak ones (names, number words) included: by the
/// value's text in a bound argument's source, its value among the bound
/// ones, or its path read first. Fields ("located in") are keys, not
/// values; nor are the mentions `no_value` says so of.
fn every_value_passed(
    inst: &SubIntent,
    m: &CapabilityManifest,
    no_value: impl Fn(&Mention) -> bool,
) -> bool {
    let b = bind(
        &inst.description,
        &inst.mentions,
        m,
        &BTreeSet::new(),
        false,
    );
    let fanned = |v: &serde_json::Value| {
        b.fan_out
            .iter()
            .chain(b.fan_with.iter())
            .any(|(_, vs)| vs.contains(v))
    };
    // A field named ("located in") is a key, no value.
    inst.mentions
        .iter()
        .filter(|men| men.kind != MentionKind::Field && !no_value(men))
        .all(|men| {
            b.args
                .iter()
                .any(|a| a.source.contains(&men.text) || a.value == men.value)
                || b.found_first()
                    .any(|(_, path)| Some(path.as_str()) == men.value.as_str())
                || fanned(&men.value)
        })
}

/// `text` without the words combining the instances' results ("the
/// *total* area") when the plan makes that combination by arithmetic.
fn without_combining(text: &str, story: &Story) -> String {
    if story.combination.is_none() {
        return text.to_string();
    }
    let combining: BTreeSet<String> = word_spans(text)
        .into_iter()
        .filter(|(_, w)| crate::decompose::story::combines(w))
        .flat_map(|(_, w)| ccos_marketplace::search::analyze(&w))
        .collect();
    without_stems(text, &combining)
}

/// `text` without the words whose stem is one of `stems` (and the
/// space after each).
fn without_stems(text: &str, stems: &BTreeSet<String>) -> String {
    if stems.is_empty() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut last = 0;
    for (span, w) in word_spans(text) {
        if ccos_marketplace::search::analyze(&w)
            .first()
            .is_some_and(|st| stems.contains(st))
        {
            out.push_str(&text[last..span.start]);
            last = text[span.end..]
                .find(|c: char| !c.is_whitespace())
                .map_or(text.len(), |k| span.end + k);
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccos_marketplace::builtins::{BuiltinConfig, install};
    use serde_json::json;

    /// The built-ins, a triangle's area and the weather of a city.
    fn planner() -> Planner {
        let mp = Marketplace::new().unwrap();
        install(&mp, BuiltinConfig::default()).unwrap();
        mp.register(CapabilityManifest::new(
            "calculate_triangle_area",
            "Calculate the area of a triangle using its base and height.",
            json!({"type": "object", "properties": {
                "base": {"type": "integer", "description": "The length of the base of the triangle."},
                "height": {"type": "integer", "description": "The height of the triangle from the base."}},
                "required": ["base", "height"]}),
        ))
        .unwrap();
        mp.register(CapabilityManifest::new(
            "weather.current",
            "Get the current weather of a city.",
            json!({"type": "object", "properties": {
                "city": {"type": "string", "description": "The city."}},
                "required": ["city"]}),
        ))
        .unwrap();
        Planner::new(
            Arc::new(mp),
            Policy::default(),
            PatternDecomposition::builtin().unwrap(),
        )
    }

    fn calls(r: &PlanResult) -> Vec<String> {
        let rtfs = r.rtfs.as_deref().unwrap_or_default();
        rtfs.match_indices("(call ")
            .map(|(i, _)| {
                let rest = &rtfs[i..];
                rest[..rest.find(')').map_or(rest.len(), |e| e + 1)].to_string()
            })
            .collect()
    }

    #[test]
    fn each_instance_of_a_story_is_one_call_with_its_own_values() {
        let p = planner();
        let goal = "He has drawn two triangles on the board. The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units. Can you calculate the area of both triangles?";
        let r = p.plan(goal).unwrap();
        assert_eq!(
            calls(&r),
            vec![
                "(call :calculate_triangle_area {:base 10 :height 5})",
                "(call :calculate_triangle_area {:base 8 :height 6})",
            ],
            "{r:?}"
        );
        let explained = r.trace.explain();
        assert!(
            explained.contains("instance 2 of 2 of a story"),
            "{explained}"
        );
        assert!(explained.contains("sets the scene"), "{explained}");
        // Identical inputs, byte-identical plans.
        assert_eq!(p.plan(goal).unwrap().rtfs, r.rtfs);
        // The capability named as a program's identifier is no value.
        let r = p
            .plan("Calculate the area of a triangle with a base of 3 units and a height of 4 units using the 'calculate_triangle_area' function.")
            .unwrap();
        assert_eq!(
            calls(&r),
            vec!["(call :calculate_triangle_area {:base 3 :height 4})"],
            "{r:?}"
        );
        // The capability named by its identifier, unquoted: "using" says
        // to call it, and asks nothing more.
        let r = p
            .plan("The first city is Paris. The second city is Tokyo. What is the current weather in both cities, using the weather.current function?")
            .unwrap();
        assert_eq!(calls(&r).len(), 2, "{r:?}");
        assert!(says_identifier(
            "using the calculate_triangle_area function",
            "calculate_triangle_area"
        ));
        assert!(says_identifier(
            "with calculate_triangle_area.",
            "calculate_triangle_area"
        ));
        assert!(!says_identifier(
            "with calculate_triangle_area_v2",
            "calculate_triangle_area"
        ));
        assert!(!says_identifier(
            "with my.calculate_triangle_area",
            "calculate_triangle_area"
        ));
        // Names of instances, one call each.
        let r = p
            .plan("The first city is Paris. The second city is Tokyo. What is the current weather in both cities?")
            .unwrap();
        assert_eq!(
            calls(&r),
            vec![
                "(call :weather.current {:city \"Paris\"})",
                "(call :weather.current {:city \"Tokyo\"})",
            ],
            "{r:?}"
        );
    }

    #[test]
    fn a_total_or_an_average_of_the_instances_is_added_up_by_the_plan() {
        let p = planner();
        let r = p
            .plan("The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units. The third triangle has a base of 4 units and a height of 2 units. What is the total area of the three triangles?")
            .unwrap();
        let rtfs = r.rtfs.as_deref().unwrap_or_default();
        assert_eq!(
            calls(&r)[..3],
            [
                "(call :calculate_triangle_area {:base 10 :height 5})",
                "(call :calculate_triangle_area {:base 8 :height 6})",
                "(call :calculate_triangle_area {:base 4 :height 2})",
            ],
            "{rtfs}"
        );
        // Results of undeclared type are read as JSON (a number stays one).
        assert!(
            rtfs.contains("(call :ccos.math.add (parse-json s1) (parse-json s2))")
                && rtfs.contains("(call :ccos.math.add s4-sum1 (parse-json s3))"),
            "{rtfs}"
        );
        // The sum is the plan's answer.
        assert!(rtfs.trim_end().ends_with("s4-sum2)"), "{rtfs}");
        let explained = r.trace.explain();
        assert!(
            explained.contains("\"total\": their results are added up by ccos.math.add"),
            "{explained}"
        );
        // The instances stated after the ask, in its sentence.
        let r = p
            .plan("What is the total area of three triangles, where the first triangle has a base of 10 units and a height of 5 units, the second triangle has a base of 8 units and a height of 6 units, and the third triangle has a base of 4 units and a height of 2 units?")
            .unwrap();
        assert_eq!(calls(&r).len(), 5, "{r:?}");
        let r = p
            .plan("Calculate the area of both triangles: the first triangle has a base of 10 units and a height of 5 units, the second triangle has a base of 8 units and a height of 6 units.")
            .unwrap();
        assert_eq!(
            calls(&r),
            vec![
                "(call :calculate_triangle_area {:base 10 :height 5})",
                "(call :calculate_triangle_area {:base 8 :height 6})",
            ],
            "{r:?}"
        );
        let r = p
            .plan("The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units. What is the average area of the two triangles?")
            .unwrap();
        let c = calls(&r);
        assert_eq!(c.len(), 4, "{r:?}");
        assert_eq!(c[3], "(call :ccos.math.div s3-sum1 2)", "{c:?}");
    }

    #[test]
    fn a_combination_the_arithmetic_would_get_wrong_is_refused() {
        // Attack trial (helper, 663 goals): each of these was summed or
        // averaged into a wrong number with exit 0.
        let p = planner();
        let mp = p.marketplace.clone();
        mp.register(CapabilityManifest::new(
            "calculate_sales_tax",
            "Calculate the sales tax of a purchase.",
            json!({"type": "object", "properties": {
                "price": {"type": "number", "description": "The price of the item."},
                "tax_rate": {"type": "number", "description": "The tax rate in percent."}},
                "required": ["price", "tax_rate"]}),
        ))
        .unwrap();
        let two = "The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units.";
        for refused in [
            // An input of the capability, not what it computes.
            format!("{two} What is the total height of the two triangles?"),
            format!("{two} What is the sum of the bases of the two triangles?"),
            // Nothing said of what is combined.
            format!("{two} What is the total of the two triangles?"),
            // A unit to convert to.
            format!("{two} What is the total area of the two triangles in m?"),
            // "both" of three.
            format!("{two} The third triangle has a base of 4 units and a height of 2 units. What is the total area of both triangles?"),
            // A value relative to another.
            "The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 5 units and a height 2 more than its base. What is the total area of the two triangles?".to_string(),
            // Not what the capability computes.
            "The first item has a price of $10 and a tax rate of 5. The second item has a price of $20 and a tax rate of 5. What is the total price of the two items including tax?".to_string(),
            // Two currencies.
            "The first item has a price of $10 and a tax rate of 5. The second item has a price of €20 and a tax rate of 5. What is the total sales tax of the two items?".to_string(),
            // What does not add up: the largest of all is no sum.
            "The first list is [3, 9, 4]. The second list is [7, 1]. What is the largest item of the two lists combined?".to_string(),
        ] {
            let r = p.plan(&refused).unwrap();
            assert!(
                !calls(&r).iter().any(|c| c.contains("ccos.math.")),
                "{refused}: {:?}",
                r.rtfs
            );
        }
        // Said after what is combined.
        for goal in [
            "The first text is 'x y'. The second text is 'z'. How many words are there in total in the two texts?",
            "The first text is 'a b'. The second text is 'c d e'. Count the words of the two texts altogether.",
        ] {
            let r = p.plan(goal).unwrap();
            assert!(
                calls(&r).iter().any(|c| c.contains("ccos.math.add")),
                "{goal}: {}",
                r.trace.explain()
            );
        }
        // The same currency adds up.
        let r = p
            .plan("The first item has a price of $10 and a tax rate of 5. The second item has a price of $20 and a tax rate of 5. What is the total sales tax of the two items?")
            .unwrap();
        assert!(
            calls(&r).iter().any(|c| c.contains("ccos.math.add")),
            "{}",
            r.trace.explain()
        );
    }

    #[test]
    fn a_story_whose_results_are_combined_or_whose_values_lie_elsewhere_is_refused() {
        let p = planner();
        // "between": no arithmetic says how to relate the results.
        let r = p
            .plan("The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units. What is the difference between the areas of the two triangles?")
            .unwrap();
        let named = r.requires_agent.as_ref().is_some_and(|ra| {
            ra.missing
                .iter()
                .any(|m| m.reason.contains("combines the results of the 2 instances"))
        });
        assert!(r.rtfs.is_none() && named, "{r:?}");
        // A total of values stated in different units is no total.
        let r = p
            .plan("The first triangle has a base of 10 meters and a height of 5 meters. The second triangle has a base of 8 feet and a height of 6 feet. What is the total area of the two triangles?")
            .unwrap();
        assert!(r.rtfs.is_none(), "{r:?}");
        // A value in the setting no instance carries (which instance's?).
        let r = p
            .plan("The triangles are drawn at a scale of 3. The first triangle has a base of 10 units and a height of 5 units. The second triangle has a base of 8 units and a height of 6 units. Calculate the area of both triangles.")
            .unwrap();
        assert!(r.rtfs.is_none(), "{r:?}");
        // Why the story was not planned so is told.
        assert!(
            r.trace.notices.iter().any(|n| n.starts_with(
                "read as a story of instances, not planned so: the scene \"The triangles are drawn at a scale of 3\" states \"3\""
            )),
            "{:?}",
            r.trace.notices
        );
        // An instance the capability cannot serve alone sinks the story.
        let r = p
            .plan("The first triangle has a base of 10 units. The second triangle has a base of 8 units and a height of 6 units. Calculate the area of both triangles.")
            .unwrap();
        assert!(r.rtfs.is_none(), "{r:?}");
        // An ask that does not refer to the instances: no story.
        let r = p
            .plan("The first city is Paris. The second city is Tokyo. What is the weather in Rome?")
            .unwrap();
        assert!(!calls(&r).iter().any(|c| c.contains("Paris")), "{r:?}");
    }

    #[test]
    fn the_ask_is_read_as_a_single_request_of_each_instance() {
        // Attack trial: the instances alone carried no verb, and any
        // capability taking their values served them.
        let p = planner();
        let r = p
            .plan("The first list is [3, 1, 2]. The second list is [9, 7, 8]. Sort both lists in descending order.")
            .unwrap();
        let c = calls(&r);
        assert_eq!(c.len(), 2, "{r:?}");
        assert!(c.iter().all(|c| c.contains(":descending true")), "{c:?}");
        for refused in [
            // A verb the capability does not do.
            "The first text is 'hello'. The second text is 'world'. Encrypt each text.",
            // Two things asked.
            "The first text is 'abc'. The second text is 'xyz'. Count the characters in each text and reverse each text.",
            // Something related to each instance.
            "The first city is Paris. The second city is Rome. Get the current weather in each city's capital.",
            "The first city is Paris. The second city is Rome. Get the current weather between each city.",
            // A word the capability does not know.
            "The first city is Paris. The second city is Rome. Get the current weather in each city every hour.",
            // One change repeated on one target: the second replaces the first.
            "The first line is 'alpha'. The second line is 'beta'. Write each line to out.txt.",
        ] {
            let r = p.plan(refused).unwrap();
            assert!(r.rtfs.is_none(), "{refused}: {r:?}");
        }
    }
}

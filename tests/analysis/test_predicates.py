"""Mention-type predicates: hand-built fixtures with known types (CoNLL-U trees, CoNLL-2012
POS and parse bits, CoNLL-2012 without either), real GUM sentences, JSON rules, user
callables."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

import corefkit
from corefkit.analysis.predicates import (
    BUILTIN_TYPES,
    PREDICATES,
    DocumentView,
    load_rules,
    mention_types,
    ptb_tree,
    register_predicate,
    resolve_predicates,
    unregister_predicate,
)
from corefkit.errors import UsageError
from tests.conftest import CORPORA, FIXTURES

TYPES = FIXTURES / "types"
GUM = CORPORA / "gum" / "dep"

# What each built-in predicate must find in tests/fixtures/types (the same text in each file).
EXPECTED = {
    "nested": {"the man who loves himself", "himself"},
    "generic": {"a teacher", "Dogs", "Sales", "analysts"},
    "compound": {"mail"},
    "copular": {"John Smith", "a teacher"},
    "vp": {"grew"},
    "appositive": {"John Smith", "the CEO"},
}
ALL_MENTIONS = {"John Smith", "the CEO", "a teacher", "Dogs", "They", "the mail carrier", "mail",
                "the mail", "Sales", "grew", "The growth", "analysts", "I",
                "the man who loves himself", "himself"}


def verdicts(path, predicates=None):
    doc = next(corefkit.read(path))
    found: dict[str, dict[object, set[str]]] = {}
    for mention, result in mention_types(doc, predicates).items():
        for name, verdict in result.items():
            found.setdefault(name, {True: set(), False: set(), None: set()})[verdict].add(
                doc.text(mention))
    return found


@pytest.mark.parametrize("name", ["types.conllu", "types.conll"])
def test_builtin_types_on_hand_built_fixtures(name):
    """UD trees (CoNLL-U) and PTB parse bits (CoNLL-2012) give the same, known types."""
    found = verdicts(TYPES / name)
    assert list(found) == list(BUILTIN_TYPES)
    for type_name, expected in EXPECTED.items():
        assert found[type_name][True] == expected, type_name
        assert found[type_name][None] == set(), type_name
        assert found[type_name][False] == ALL_MENTIONS - expected, type_name


def test_missing_layers_are_undecided_not_false():
    """Without POS or parse bits only the types that need no syntax are decided; copular is
    decided (False) for mentions with no coreferent mention in their sentence."""
    found = verdicts(TYPES / "types-nopos.conll")
    assert found["nested"][True] == EXPECTED["nested"]
    assert found["appositive"][True] == EXPECTED["appositive"]  # ',' by its form
    for type_name in ("generic", "compound", "vp"):
        assert found[type_name][None] == ALL_MENTIONS
    assert found["copular"][None] == {"John Smith", "the CEO", "a teacher",
                                      "the man who loves himself", "himself"}
    assert found["copular"][True] == set()


def test_ptb_parse_bits_become_ud_like_dependencies():
    words = ["John", "Smith", ",", "the", "CEO", ",", "will", "be", "a", "teacher", "."]
    tags = ["NNP", "NNP", ",", "DT", "NN", ",", "MD", "VB", "DT", "NN", "."]
    bits = ["(TOP(S(NP(NP*", "*)", "*", "(NP*", "*)", "*)", "(VP*", "(VP*", "(NP*", "*)))",
            "*))"]
    tree = ptb_tree(dict(enumerate(tags)), dict(enumerate(words)), list(enumerate(bits)))
    assert tree is not None
    relation = {words[i]: (tree.deprel[i], words[p] if p is not None else None)
                for i, p in tree.parent.items() if words[i] != ","}
    assert relation == {
        "John": ("compound", "Smith"), "Smith": ("nsubj", "teacher"), "the": ("det", "CEO"),
        "CEO": ("appos", "Smith"), "will": ("aux", "teacher"), "be": ("cop", "teacher"),
        "a": ("det", "teacher"), "teacher": ("root", None), ".": ("punct", "teacher"),
    }
    # malformed bits (unbalanced, two words at one star) give no tree
    assert ptb_tree({0: "NN"}, {0: "x"}, [(0, "(TOP(NP*")]) is None
    assert ptb_tree({0: "NN", 1: "NN"}, {0: "x", 1: "y"}, [(0, "(TOP(NP**"), (1, "*))")]) is None


# ---------------------------------------------------------------------------- real GUM text
def gum_mentions(name):
    doc = next(corefkit.read(GUM / f"{name}.conllu"))
    return doc, mention_types(doc)


def types_at(doc, found, sent_id, text):
    """The types of the mention with ``text`` in the sentence ``sent_id``."""
    for mention, result in found.items():
        sentence = doc.sentences[doc.tokens[mention.start].sentence]
        if sentence.sent_id == sent_id and doc.text(mention) == text:
            return {name for name, verdict in result.items() if verdict}
    raise AssertionError(f"no mention {text!r} in {sent_id}")


def test_predicates_on_real_gum_sentences():
    doc, found = gum_mentions("GUM_letter_arendt")
    # "... because Truman was a Protestant ." - copular; "a Protestant" is also generic
    assert types_at(doc, found, "GUM_letter_arendt-13", "Truman") == {"copular"}
    assert types_at(doc, found, "GUM_letter_arendt-13", "a Protestant") == {"copular", "generic"}
    # "... denied Spain Marshall Plan aid ..." - compounds
    assert "compound" in types_at(doc, found, "GUM_letter_arendt-13", "Marshall Plan")
    # "We miss you , Hannah , but ..." - an apposition one comma apart
    assert types_at(doc, found, "GUM_letter_arendt-21", "Hannah") == {"appositive"}
    # "the Prince of Spain , Alphonso , who is the son of ..." - coreferent and overlapping
    assert "nested" in types_at(doc, found, "GUM_letter_arendt-10", "Alphonso")
    # "Luncheons and dinners were crowded with guests" - bare plurals
    assert types_at(doc, found, "GUM_letter_arendt-6", "guests") == {"generic"}
    doc, found = gum_mentions("GUM_voyage_athens")
    assert types_at(doc, found, "GUM_voyage_athens-36", "Spring and late autumn") == {"copular"}
    assert types_at(doc, found, "GUM_voyage_athens-36", "the best times") == {"copular"}
    assert types_at(doc, found, "GUM_voyage_athens-6", "Theseus") == {"appositive"}


def test_gum_counts_and_agreement_with_gum_link_types():
    """Over the 46 GUM documents: the counts of each type (a regression guard), none
    undecided (full UD trees), and agreement with GUM's own link annotation: most mentions
    GUM links as 'appos' are appositive, most it links as 'pred' are copular (the rest are
    predicatives without cop/nsubj: "as ...", relative clauses, clausal subjects)."""
    counts: Counter[str] = Counter()
    undecided = 0
    links: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    total = 0
    for path in sorted(GUM.glob("*.conllu")):
        for doc in corefkit.read(path):
            for mention, result in mention_types(doc).items():
                total += 1
                counts.update(name for name, verdict in result.items() if verdict)
                undecided += sum(verdict is None for verdict in result.values())
                link = mention.attrs.get("link")
                links[link] += 1
                agree["appos"] += link == "appos" and bool(result["appositive"])
                agree["pred"] += link == "pred" and bool(result["copular"])
    assert total == 12507 and undecided == 0
    assert dict(counts) == {"nested": 108, "generic": 2031, "compound": 607, "copular": 394,
                            "vp": 30, "appositive": 495}
    assert agree["appos"] / links["appos"] > 0.8  # 123 of 144
    assert agree["pred"] / links["pred"] > 0.6    # 78 of 114


# ---------------------------------------------------------------------------- rules
def test_json_rules_on_the_ud_fixture():
    rules = load_rules(TYPES / "rules.json")
    found = verdicts(TYPES / "types.conllu", rules)
    assert found["pronominal"][True] == {"They", "I", "himself"}
    assert found["definite"][True] == {"the CEO", "the mail carrier", "the mail", "The growth",
                                       "the man who loves himself"}
    assert found["plural-subject"][True] == {"Dogs", "They", "Sales"}
    assert found["bare-nominal"][True] == {"John Smith", "Dogs", "mail", "Sales", "analysts"}
    assert found["long"][True] == {"the man who loves himself"}
    assert found["generic-or-verbal"][True] == EXPECTED["generic"] | EXPECTED["vp"]
    assert all(not v[None] for v in found.values())


def test_json_rules_are_three_valued_where_layers_are_missing():
    rules = load_rules(TYPES / "rules.json")
    # CoNLL-2012 with POS and parse: no lemma and no FEATS column
    found = verdicts(TYPES / "types.conll", rules)
    assert found["pronominal"][True] == {"They", "I", "himself"}
    assert found["definite"][None] == {"the CEO", "the mail carrier", "the mail", "The growth",
                                       "the man who loves himself", "a teacher"}
    assert found["definite"][True] == set()
    assert found["plural-subject"][None] == {"John Smith", "Dogs", "They", "Sales", "The growth",
                                             "I"}
    # without POS: only what needs no annotation is decided
    found = verdicts(TYPES / "types-nopos.conll", rules)
    assert found["long"][True] == {"the man who loves himself"} and not found["long"][None]
    assert found["pronominal"][None] == ALL_MENTIONS


def test_rule_files_match_their_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(resources.files("corefkit").joinpath(
        "schemas/predicates.schema.json").read_text())
    jsonschema.validate(json.loads((TYPES / "rules.json").read_text()), schema)
    for bad in ({"predicates": {"x": {"head": {"upsos": "NOUN"}}}},
                {"predicates": {"generic": {"head": {"upos": "NOUN"}}}},
                {"rules": {}}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
        with pytest.raises(UsageError):
            load_rules(bad)


@pytest.mark.parametrize("rules, message", [
    ({"predicates": {"x": {"head": {"upsos": "NOUN"}}}}, "unknown key 'upsos'"),
    ({"predicates": {"x": {"head": {"upos": "("}}}}, "invalid regular expression"),
    ({"predicates": {"generic": {"head": {"upos": "NOUN"}}}}, "built-in"),
    ({"predicates": {"x": {"predicate": "nosuch"}}}, "unknown mention type 'nosuch'"),
    ({"predicates": {"x": {"predicate": "y"}, "y": {"not": {"predicate": "x"}}}}, "circle"),
    ({"predicates": {"x": {}}}, "at least one condition"),
    ({"predicates": {"x": {"length": {"min": "2"}}}}, "length"),
    ({"predicates": {"x": {"head": {"feats": []}}}}, "feats"),
    ({"predicates": {"x y": {"length": {"min": 2}}}}, "invalid mention-type name"),
    ({"predicates": []}, "expected"),
])
def test_bad_rules_are_usage_errors(rules, message):
    with pytest.raises(UsageError, match=message):
        load_rules(rules)


def test_rule_file_errors_name_the_file(tmp_path):
    with pytest.raises(UsageError, match="cannot read"):
        load_rules(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(UsageError, match=r"bad.json:1:2: not valid JSON"):  # located
        load_rules(bad)


# ---------------------------------------------------------------------------- the registry
def test_user_callables_join_the_registry():
    def first_person(view: DocumentView, mention) -> bool | None:
        return view.doc.text(mention) in ("I", "me", "we")

    register_predicate("first-person", first_person, "I, me, we")
    try:
        with pytest.raises(UsageError, match="already defined"):
            register_predicate("first-person", first_person)
        with pytest.raises(UsageError, match="built in"):
            register_predicate("generic", first_person, replace=True)
        assert [p.name for p in resolve_predicates("all")][-1] == "first-person"
        found = verdicts(TYPES / "types.conllu", resolve_predicates("first-person,vp"))
        assert found["first-person"][True] == {"I"} and found["vp"][True] == {"grew"}
    finally:
        unregister_predicate("first-person")
    assert "first-person" not in PREDICATES


def test_resolving_types():
    assert [p.name for p in resolve_predicates(None)] == list(BUILTIN_TYPES)
    assert [p.name for p in resolve_predicates("vp, generic,vp")] == ["vp", "generic"]
    names = [p.name for p in resolve_predicates("all", TYPES / "rules.json")]
    assert names[:6] == list(BUILTIN_TYPES) and "pronominal" in names
    with pytest.raises(UsageError, match="unknown mention type 'generics'"):
        resolve_predicates("generics")
    with pytest.raises(UsageError, match="no mention type"):
        resolve_predicates(" , ")


def test_one_sentence_documents_without_inner_full_stops_keep_their_relations():
    """Only a one-"sentence" document with sentence-final punctuation inside is taken to lack
    sentence breaks; a real one-sentence document is typed."""
    from corefkit.model import Document

    doc = Document("one")
    doc.add_sentence(["John", ",", "the", "CEO", ",", "left", "."])
    john = doc.new_entity()
    doc.add_span(0, 0, john)
    doc.add_span(2, 3, john)
    found = {doc.text(m): v["appositive"] for m, v in mention_types(doc, "appositive").items()}
    assert found == {"John": True, "the CEO": True}
    doc = Document("run-on")
    doc.add_sentence(["John", "left", ".", "He", "came", "back", "."])
    john = doc.new_entity()
    doc.add_span(0, 0, john)
    doc.add_span(3, 3, john)
    found = {doc.text(m): v["appositive"] for m, v in mention_types(doc, "appositive").items()}
    assert found == {"John": None, "He": None}  # "[John] . [He]" is no apposition


# ---------------------------------------------------------------------------- issue 22
def _pairs_in_sentences(view):
    """The coreferent pairs of one sentence, enumerated (the definition); none without
    sentence breaks (the relations are undecided then)."""
    if not view.sentence_breaks():
        return
    for chain in view._chains():
        by_sentence: dict[int, list] = {}
        for m in chain:
            if m.tokens and view.tokens[m.start].sentence == view.tokens[m.end].sentence:
                by_sentence.setdefault(view.tokens[m.start].sentence, []).append(m)
        for group in by_sentence.values():
            for a, m in enumerate(group):
                for other in group[a + 1:]:
                    yield m, other


def _relations_by_pairs(view):
    nested, appositive, copular = set(), set(), set()
    for chain in view._chains():
        for a, m in enumerate(chain):
            for other in chain[a + 1:]:
                if set(m.tokens) & set(other.tokens):
                    nested.update((m, other))
    for a, b in _pairs_in_sentences(view):
        first, second = (a, b) if a.end < b.start else (b, a)
        if first.end < second.start:
            gap = second.start - first.end - 1
            if gap == 0 or (gap == 1 and view.is_punct(first.end + 1)):
                appositive.update((a, b))
        tree = view.tree(a.start)
        ha, hb = view.head(a), view.head(b)
        if tree is None or ha is None or hb is None:
            continue
        for subject, predicate in ((ha, hb), (hb, ha)):
            if tree.parent.get(subject) == predicate and \
                    str(tree.deprel.get(subject)).split(":")[0] == "nsubj" and \
                    any(str(tree.deprel.get(c)).split(":")[0] == "cop"
                        for c in tree.children.get(predicate, ())):
                copular.update((a, b))
    return {"nested": nested, "appositive": appositive, "copular": copular}


@pytest.mark.parametrize("folder", ["dep", "coref-ontogum-conll"])
def test_relations_found_without_pairs_equal_the_pairwise_definition(folder):
    """The nested, appositive and copular relations were found by walking every pair of
    coreferent mentions of a sentence (one entity of n mentions in a sentence: n²/2); the
    grouped search finds the same mentions on every GUM document."""
    for path in sorted((CORPORA / "gum" / folder).iterdir())[:46]:
        doc = next(corefkit.read(path, lenient=True))
        view, naive = DocumentView(doc), _relations_by_pairs(DocumentView(doc))
        for name in ("nested", "appositive", "copular"):
            assert view.relation(name) == naive[name], (path.name, name)

"""The normalization passes on real shared data: drop-non-referring, merge-same-span,
split-plural-repeats, distribute-plurals, and the earlier flatten-splits / drop-split-antecedents;
the pass listing of the command line."""

from __future__ import annotations

from collections import Counter

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.errors import UsageError, counted
from corefkit.passes import all_passes, apply_passes
from corefkit.validation import validate
from tests.conftest import CORPORA

CODI = CORPORA / "codi-crac22"
ACL = CORPORA / "mmax2" / "acl-anthology"
GUM = CORPORA / "gum" / "dep"
REQUIRED = {"flatten-splits", "dominant-mentions", "remove-singletons", "drop-split-antecedents",
            "drop-non-referring", "merge-same-span", "split-plural-repeats", "distribute-plurals"}


def one(path, **options):
    [doc] = corefkit.read(path, **options)
    return doc


def acl(name: str):
    return one(ACL / name[0] / name / f"{name}.mmax")


def chains(doc) -> list[list[tuple[int, ...]]]:
    return sorted(sorted(m.tokens for m in doc.mentions_of(e)) for e in doc.entities_in())


# ---------------------------------------------------------------------------- listing
def test_every_required_pass_is_registered_and_listed(capsys):
    names = {p.name for p in all_passes()}
    assert REQUIRED <= names
    assert main(["passes"]) == 0
    listed = {line.split(":", 1)[0] for line in capsys.readouterr().out.splitlines()}
    assert REQUIRED <= listed


# ---------------------------------------------------------------------------- drop-non-referring
def test_drop_non_referring_on_codi_crac():
    docs = list(corefkit.read(CODI))
    kinds = Counter(m.nonref for d in docs for m in d.non_referring())
    assert sum(kinds.values()) == 530  # the -Pseudo markables of the README
    assert kinds == {"quantifier": 165, "predicate": 157, "expletive": 80, "coordination": 66,
                     "idiom": 45, "unknown": 17}
    out = list(apply_passes(docs, ["drop-non-referring"]))
    assert sum(len(d.non_referring()) for d in out) == 0
    assert not any(e.pseudo for d in out for e in d.entities)
    assert sum(len(d.mentions) for d in docs) - sum(len(d.mentions) for d in out) == 530
    # identity chains and the DD layer are untouched
    assert [chains(d) for d in docs] == [chains(d) for d in out]
    # the input is untouched (passes are pure)
    assert sum(len(d.non_referring()) for d in docs) == 530
    [ami] = [d for d in out if d.id.endswith("ES2004a")]
    repair = ami.repairs[-1]
    assert repair.check == "pass.drop-non-referring"
    # set 98 of AMI has only Pseudo members: they go, with their memberships
    assert "4 pseudo entities left empty" in repair.message
    assert "4 split-antecedent memberships" in repair.message


def test_drop_non_referring_by_kind():
    docs = list(corefkit.read(CODI))
    out = list(apply_passes(docs, ["drop-non-referring:kinds=expletive+idiom"]))
    left = Counter(m.nonref for d in out for m in d.non_referring())
    assert sum(left.values()) == 530 - 80 - 45 and not left["expletive"] and not left["idiom"]
    with pytest.raises(UsageError, match="unknown kind pleonastic"):
        list(apply_passes(docs[:1], ["drop-non-referring:kinds=pleonastic"]))


def test_drop_non_referring_leaves_documents_without_them_alone():
    doc = one(CORPORA / "litbank" / "105_persuasion_brat.conll")
    [out] = apply_passes([doc], ["drop-non-referring"])
    assert out is doc


def test_drop_non_referring_from_the_command_line(tmp_path, capsys):
    target = tmp_path / "light.CONLLUA"
    source = CODI / "light_train.2022.first10docs.CONLLUA"
    assert main(["normalize", str(source), str(target), "--pass", "drop-non-referring"]) == 0
    assert "wrote 10 documents" in capsys.readouterr().err
    text = target.read_text()
    assert "Pseudo" not in text and "EntityID=" in text
    assert sum(len(d.non_referring()) for d in corefkit.read(target)) == 0


# ---------------------------------------------------------------------------- merge-same-span
@pytest.mark.parametrize("name,across,within", [
    ("C02-1016", 1, 0),   # markable_193 / markable_548: one span in two sets
    ("P08-1027", 1, 0),   # markable_822 / markable_156
    ("P08-1082", 0, 1),   # markable_973 / markable_974: the same set twice
])
def test_merge_same_span_on_the_acl_anthology(name, across, within):
    doc = acl(name)
    before = {f.check for f in validate([doc], level=3)}
    assert before & {"mention.same-span", "mention.same-span-same-entity"}
    [out] = apply_passes([doc], ["merge-same-span"])
    after = {f.check for f in validate([out], level=3)}
    assert not after & {"mention.same-span", "mention.same-span-same-entity"}
    assert len(out.mentions) == len(doc.mentions) - across - within
    repair = out.repairs[-1]
    assert repair.check == "pass.merge-same-span"
    # (in number since issue 22: "1 mention repeated a span of its own entity")
    assert (f"{counted(across, 'mention')} repeated a span of another entity"
            in repair.message) == bool(across)
    assert (f"{counted(within, 'mention')} repeated a span of "
            f"{'its' if within == 1 else 'their'} own entity" in repair.message) == bool(within)
    # scoring the result against itself removes no repeat any more
    assert corefkit.score([out], [out]).repeated_response_mentions == 0


def test_merge_same_span_keeps_the_first_or_the_larger_entity():
    """P08-1027: 'they' (word_5414) is in set_181 (read first) and set_127, two mentions each;
    give set_127 a third mention (another entity merged into it) and the rules disagree."""
    doc = acl("P08-1027")
    they = {m.attrs.get("markable_id"): m for m in doc.mentions
            if m.attrs.get("markable_id") in ("markable_822", "markable_156")}
    first, later = doc.entity_of(they["markable_822"]), doc.entity_of(they["markable_156"])
    assert doc.entities.index(first) < doc.entities.index(later)
    assert doc.size(first) == doc.size(later) == 2
    [ties] = apply_passes([doc], ["merge-same-span:keep=larger"])
    assert [m.attrs["markable_id"] for m in ties.mentions if m.tokens == they["markable_822"].tokens] \
        == ["markable_822"]  # a tie goes to the first entity
    grown = doc.copy(text=False)
    [first_copy] = [e for e in grown.entities if e.attrs.get("original_id") == "set_181"]
    [later_copy] = [e for e in grown.entities if e.attrs.get("original_id") == "set_127"]
    other = next(e for e in grown.entities_in() if e not in (first_copy, later_copy))
    grown.merge_entities(later_copy, other)
    for keep, expected in (("first", "markable_822"), ("larger", "markable_156")):
        [out] = apply_passes([grown], [f"merge-same-span:keep={keep}"])
        kept = [m.attrs["markable_id"] for m in out.mentions if m.tokens == they["markable_822"].tokens]
        assert kept == [expected], keep
    with pytest.raises(UsageError, match="first or larger"):
        list(apply_passes([doc], ["merge-same-span:keep=last"]))


# ---------------------------------------------------------------------------- plural mentions
def test_split_plural_repeats_on_gum():
    """GUM_court_carpet: 'both sides' and 'we … our' are two set entities of the same members
    (Roberts, Collins); they become one group entity, the later mentions coreferent."""
    doc = one(GUM / "GUM_court_carpet.conllu")
    sets = doc.accommodated_sets()
    assert len(sets) == 2 and len({frozenset(m) for m in sets.values()}) == 1
    [out] = apply_passes([doc], ["split-plural-repeats"])
    [(group, members)] = out.accommodated_sets().items()
    assert [out.text(m) for m in out.mentions_of(group)] == ["both sides", "we", "we", "our", "our"]
    assert len(members) == 2
    assert len(out.entities) == len(doc.entities) - 1 and len(out.mentions) == len(doc.mentions)
    assert out.repairs[-1].check == "pass.split-plural-repeats"
    assert "'we' → 'both sides'" in out.repairs[-1].message
    assert len(doc.accommodated_sets()) == 2  # pure


def test_split_plural_repeats_on_codi_crac():
    [doc] = [d for d in corefkit.read(CODI / "light_train.2022.first10docs.CONLLUA")
             if d.id == "light_train/episode_6614"]
    [out] = apply_passes([doc], ["split-plural-repeats"])
    assert len(doc.accommodated_sets()) == 4 and len(out.accommodated_sets()) == 3
    texts = sorted([out.text(m) for m in out.mentions_of(s)] for s in out.accommodated_sets())
    assert ["this", "these orbs", "them", "them"] in texts


def test_split_plural_repeats_undoes_friends_style_marking():
    """Real data made FRIENDS-style (every plural mention its own set entity with the group's
    members) comes back to one group entity."""
    [merged] = apply_passes([one(GUM / "GUM_court_carpet.conllu")], ["split-plural-repeats"])
    friends = merged.copy()
    [(group, members)] = friends.accommodated_sets().items()
    for mention in friends.mentions_of(group)[1:]:
        alone = friends.new_entity()
        friends.set_entity(mention, alone, replace=True)
        for member in members:
            friends.add_to_set(member, alone, evidence=[mention])
    assert len(friends.accommodated_sets()) == 5
    [back] = apply_passes([friends], ["split-plural-repeats"])
    assert chains(back) == chains(merged)
    assert len(back.accommodated_sets()) == 1


def test_split_plural_repeats_leaves_distinct_groups_alone():
    doc = one(GUM / "GUM_letter_arendt.conllu")
    groups = Counter(frozenset(m) for m in doc.accommodated_sets().values())
    assert all(n == 1 for n in groups.values())
    [out] = apply_passes([doc], ["split-plural-repeats"])
    assert out is doc


def test_distribute_plurals_on_gum_warns_and_copies():
    doc = one(GUM / "GUM_court_carpet.conllu")
    [out] = apply_passes([doc], ["distribute-plurals"])
    assert out.accommodated_sets() == {}
    # 5 plural mentions, 2 members each: 10 copies replace 5 mentions
    assert len(out.mentions) == len(doc.mentions) + 5
    assert len(out.entities) == len(doc.entities) - 2
    repair = out.repairs[-1]
    assert repair.check == "pass.distribute-plurals" and "violates one entity per mention" in repair.message
    same = [f for f in validate([out], level=3) if f.check == "mention.same-span"]
    assert len(same) == 5
    roberts = next(e for e in out.entities_in()
                   if "Mitchell Roberts" in [out.text(m) for m in out.mentions_of(e)])
    assert {"both sides", "we", "our"} <= {out.text(m) for m in out.mentions_of(roberts)}


def test_distribute_plurals_uses_atomic_members_of_nested_sets():
    [doc] = [d for d in corefkit.read(CODI / "light_train.2022.first10docs.CONLLUA")
             if d.id == "light_train/episode_6614"]
    [out] = apply_passes([doc], ["distribute-plurals"])
    holders = [e for e in out.entities_in()
               if "these items" in [out.text(m) for m in out.mentions_of(e)]]
    # 'these items' = {these orbs = {orb, the others}, another item}: three atomic members
    assert len(holders) == 3


# ---------------------------------------------------------------------------- earlier passes
def test_flatten_splits_on_a_nested_codi_crac_set():
    [doc] = [d for d in corefkit.read(CODI / "light_train.2022.first10docs.CONLLUA")
             if d.id == "light_train/episode_6614"]
    nested = [s for s, members in doc.accommodated_sets().items()
              if any(doc.members(m) for m in members)]
    assert len(nested) == 1
    [flat] = apply_passes([doc], ["flatten-splits"])
    members = flat.accommodated_sets()
    assert not any(flat.members(m) for ms in members.values() for m in ms)
    [items] = [s for s in members if "these items" in [flat.text(m) for m in flat.mentions_of(s)]]
    assert len(members[items]) == 3
    assert flat.repairs[-1].check == "pass.flatten-splits"


def test_drop_split_antecedents_on_gum():
    docs = list(corefkit.read(GUM))
    assert sum(len(d.memberships()) for d in docs) == 75
    out = list(apply_passes(docs, ["drop-split-antecedents"]))
    assert sum(len(d.memberships()) for d in out) == 0
    assert [chains(d) for d in docs] == [chains(d) for d in out]

"""Errors the UD validator checks, made on a copy of a real CorefUD file (``ud_validate_diff.py``).

A file is handled as its list of lines (without line ends). Each mutation is a function
``(lines, rng) -> list[str] | str | None``: the changed lines, the changed file as text (for
changes of the bytes themselves: CRLF line ends, a byte-order mark, no last line end), or None
when the file has nothing it could change. The mutations cover the UD validator's tests of
levels 1 and 2 (``udvalidate --level 2``) and its coreference tests (``--coref``): ids, word
intervals, empty nodes, columns, whitespace, HEAD and the tree, DEPREL, DEPS, FEATS, MISC,
sentence metadata, and Entity / SplitAnte / Bridge.

:func:`to_corefud` rewrites GUM's ``GRP-etype-...`` coreference (and OntoGUM's bare ``GRP``
numbers) in the CorefUD 1.x notation the UD validator checks (``eid-etype-head-other``), so
that the coreference mutations meet the validator's coreference tests instead of its
"cannot parse global.Entity" error alone.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Callable

Lines = list[str]
Result = "Lines | str | None"
Mutation = Callable[[Lines, random.Random], "Lines | str | None"]

CHUNK_RE = re.compile(r"\(([^()]+)\)|\(([^()]+)|([^()]+)\)")
COREFUD_DECLARATION = "eid-etype-head-other-identity"


# ============================================================================ reading lines
def split_lines(text: str) -> Lines:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def join_lines(lines: Lines) -> str:
    return "\n".join(lines) + "\n"


def is_token(line: str) -> bool:
    return bool(line) and line[0].isdigit()


def is_word(line: str) -> bool:
    return line.split("\t", 1)[0].isdigit()


def is_mwt(line: str) -> bool:
    return bool(re.match(r"^[0-9]+-[0-9]+\t", line))


def is_empty_node(line: str) -> bool:
    return bool(re.match(r"^[0-9]+\.[0-9]+\t", line))


def blocks(lines: Lines) -> list[tuple[int, int]]:
    """(first, last + 1) of every run of non-blank lines: the sentences with their comments."""
    found = []
    start = None
    for i, line in enumerate(lines):
        if line.strip() == "":
            if start is not None:
                found.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        found.append((start, len(lines)))
    return found


def sentences(lines: Lines) -> list[tuple[int, int, int]]:
    """(first comment line, first token line, end) of every sentence."""
    found = []
    for start, end in blocks(lines):
        first = next((i for i in range(start, end) if is_token(lines[i])), None)
        if first is not None:
            found.append((start, first, end))
    return found


def cols(lines: Lines, i: int) -> list[str]:
    return lines[i].split("\t")


def set_col(lines: Lines, i: int, column: int, value: str) -> None:
    fields = cols(lines, i)
    fields[column] = value
    lines[i] = "\t".join(fields)


def misc_items(line: str) -> list[str]:
    misc = line.split("\t")[9]
    return [] if misc == "_" else misc.split("|")


def set_misc(lines: Lines, i: int, items: list[str]) -> None:
    set_col(lines, i, 9, "|".join(items) if items else "_")


def get_item(line: str, key: str) -> str | None:
    for item in misc_items(line):
        if item.startswith(key + "="):
            return item[len(key) + 1:]
    return None


def set_item(lines: Lines, i: int, key: str, value: str | None) -> None:
    """Set (or with None remove) the MISC item ``key`` of line i, kept in alphabetical place."""
    items = [x for x in misc_items(lines[i]) if not x.startswith(key + "=")]
    if value is not None:
        items.append(f"{key}={value}")
        items.sort(key=lambda x: x.split("=", 1)[0].lower())
    set_misc(lines, i, items)


def lines_where(lines: Lines, test: Callable[[str], bool]) -> list[int]:
    return [i for i, line in enumerate(lines) if test(line)]


def pick(rng: random.Random, items: list) -> object | None:  # type: ignore[type-arg]
    return rng.choice(items) if items else None


def sentence_of(lines: Lines, i: int) -> tuple[int, int, int]:
    for start, first, end in sentences(lines):
        if start <= i < end:
            return start, first, end
    raise ValueError(i)


def sentence_words(lines: Lines, first: int, end: int) -> list[int]:
    return [i for i in range(first, end) if is_word(lines[i])]


def excerpt(lines: Lines, count: int) -> Lines:
    """The first ``count`` sentences of a file (with their comments), ending in a blank line."""
    kept = sentences(lines)[:count]
    if not kept:
        return lines
    return lines[: kept[-1][2]] + [""]


# ============================================================================ to CorefUD
def to_corefud(lines: Lines) -> Lines:
    """GUM / OntoGUM coreference in CorefUD 1.x notation: ``eid-etype-head-other-identity``
    declared, ids ``e<GRP>``, head 1, the identity field where GUM has one; SplitAnte and
    Bridge ids likewise."""
    declaration: list[str] = []
    out = []
    for line in lines:
        if line.startswith("# global.Entity"):
            declaration = line.split("=", 1)[1].strip().split("-")
            out.append(f"# global.Entity = {COREFUD_DECLARATION}")
            continue
        if not is_token(line) or "=" not in line.split("\t")[-1]:
            out.append(line)
            continue
        fields = line.split("\t")
        items = []
        for item in fields[9].split("|"):
            key, _, value = item.partition("=")
            if key == "Entity":
                item = "Entity=" + _entity_value(value, declaration)
            elif key in ("SplitAnte", "Bridge"):
                item = key + "=" + re.sub(r"(^|[<,])([0-9]+)", r"\1e\2", value)
            items.append(item)
        fields[9] = "|".join(items)
        out.append("\t".join(fields))
    return out


def _entity_value(value: str, declaration: list[str]) -> str:
    parts = []
    etype_at = declaration.index("etype") if "etype" in declaration else None
    identity_at = declaration.index("identity") if "identity" in declaration else None
    for single, opener, closer in CHUNK_RE.findall(value):
        if closer:
            parts.append(f"e{closer})")
            continue
        fields = (single or opener).split("-")
        new = [f"e{fields[0]}"]
        etype = fields[etype_at] if etype_at is not None and etype_at < len(fields) else ""
        identity = fields[identity_at] if identity_at is not None and \
            len(fields) == len(declaration) else ""
        if etype or identity:
            new += [etype, "1"]
        if identity and identity != "_":
            new += ["", identity]
        text = "-".join(new)
        parts.append(f"({text})" if single else f"({text}")
    return "".join(parts)


# ============================================================================ helpers for Entity
def entity_lines(lines: Lines) -> list[int]:
    return [i for i, line in enumerate(lines) if is_token(line) and get_item(line, "Entity")]


def chunks(value: str) -> list[tuple[str, str]]:
    """("open" | "close" | "one", text) of an Entity value."""
    found = []
    for single, opener, closer in CHUNK_RE.findall(value):
        if single:
            found.append(("one", single))
        elif opener:
            found.append(("open", opener))
        else:
            found.append(("close", closer))
    return found


def unchunk(parts: list[tuple[str, str]]) -> str:
    return "".join(f"({t})" if k == "one" else f"({t}" if k == "open" else f"{t})"
                   for k, t in parts)


def mentions(lines: Lines) -> list[tuple[int, int, str, str]]:
    """(opening line, closing line, eid, opener text) of the file's mentions (paired by id)."""
    found = []
    open_: dict[str, list[tuple[int, str]]] = {}
    for i in entity_lines(lines):
        for kind, text in chunks(get_item(lines[i], "Entity") or ""):
            eid = text.split("-")[0]
            if kind == "one":
                found.append((i, i, eid, text))
            elif kind == "open":
                open_.setdefault(eid, []).append((i, text))
            elif open_.get(eid):
                start, opener = open_[eid].pop()
                found.append((start, i, eid, opener))
    return found


def replace_chunk(lines: Lines, i: int, index: int, new: list[tuple[str, str]]) -> None:
    parts = chunks(get_item(lines[i], "Entity") or "")
    parts[index:index + 1] = new
    set_item(lines, i, "Entity", unchunk(parts) if parts else None)


def find_chunk(lines: Lines, i: int, kind: str, eid: str) -> int | None:
    for n, (k, text) in enumerate(chunks(get_item(lines[i], "Entity") or "")):
        if k == kind and text.split("-")[0] == eid:
            return n
    return None


def is_corefud(lines: Lines) -> bool:
    return any(line.startswith("# global.Entity = eid") for line in lines[:40])


# ============================================================================ level 1
def word_id_garbage(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 0, rng.choice(["x", "1a", "01", "0", "1.0", "-1", "2,3", "Ⅳ"]))
    return lines


def word_id_skip(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 0, str(int(cols(lines, i)[0]) + rng.choice([1, 2, 10, -1])))
    return lines


def swap_words(lines: Lines, rng: random.Random) -> Lines | None:
    pairs = [i for i in range(len(lines) - 1) if is_word(lines[i]) and is_word(lines[i + 1])]
    i = pick(rng, pairs)
    if i is None:
        return None
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines


def duplicate_word(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, [i for i in lines_where(lines, is_word) if "Entity=" not in lines[i]])
    if i is None:
        return None
    lines.insert(i, lines[i])
    return lines


def delete_word(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, [i for i in lines_where(lines, is_word) if "Entity=" not in lines[i]])
    if i is None:
        return None
    del lines[i]
    return lines


def empty_node_renumber(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_empty_node))
    if i is None:
        return None
    word, node = cols(lines, i)[0].split(".")
    set_col(lines, i, 0, rng.choice([f"{int(word) + 1}.{node}", f"{word}.{int(node) + 1}",
                                     f"{max(int(word) - 1, 0)}.{node}"]))
    return lines


def empty_node_move(lines: Lines, rng: random.Random) -> Lines | None:
    candidates = [i for i in lines_where(lines, is_empty_node)
                  if i + 1 < len(lines) and is_word(lines[i + 1])]
    i = pick(rng, candidates)
    if i is None:
        return None
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines


def empty_node_after_mwt(lines: Lines, rng: random.Random) -> Lines | None:
    """``4 5-6 4.1 5 6``: an empty node between a range and its words."""
    candidates = [i for i in lines_where(lines, is_mwt) if i > 0 and is_word(lines[i - 1])]
    i = pick(rng, candidates)
    if i is None:
        return None
    word = cols(lines, i - 1)[0]
    lines.insert(i + 1, f"{word}.1\t_\t_\t_\t_\t_\t_\t_\t{word}:dep\t_")
    return lines


def empty_node_insert(lines: Lines, rng: random.Random) -> Lines | None:
    """An empty node numbered out of sequence (N.2 without N.1, or 0.1 after word 3)."""
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    word = int(cols(lines, i)[0])
    node = rng.choice([f"{word}.2", f"{word + 1}.1", f"{word}.0"])
    lines.insert(i + 1, f"{node}\t_\t_\t_\t_\t_\t_\t_\t{word}:dep\t_")
    return lines


def mwt_reversed(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    a, b = cols(lines, i)[0].split("-")
    set_col(lines, i, 0, f"{b}-{a}")
    return lines


def mwt_out_of_range(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    a, b = cols(lines, i)[0].split("-")
    set_col(lines, i, 0, f"{a}-{int(b) + 200}")
    return lines


def mwt_at_sentence_end(lines: Lines, rng: random.Random) -> Lines | None:
    """A range after the last word of a sentence (no words follow it)."""
    s = pick(rng, sentences(lines))
    if s is None:
        return None
    words = sentence_words(lines, s[1], s[2])
    n = int(cols(lines, words[-1])[0])
    lines.insert(s[2], f"{n + 1}-{n + 2}\tdont\t_\t_\t_\t_\t_\t_\t_\t_")
    return lines


def mwt_overlap(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, [i for i in lines_where(lines, is_mwt)
                   if i + 2 < len(lines) and is_word(lines[i + 2])])
    if i is None:
        return None
    a, b = (int(x) for x in cols(lines, i)[0].split("-"))
    lines.insert(i + 2, f"{b}-{b + 1}\tab\t_\t_\t_\t_\t_\t_\t_\t_")
    return lines


def mwt_misplaced(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return lines


def mwt_add_valid_missing_word(lines: Lines, rng: random.Random) -> Lines | None:
    """A range whose last word is beyond the sentence: ``n-(n+1)`` before the last word n."""
    s = pick(rng, sentences(lines))
    if s is None:
        return None
    words = sentence_words(lines, s[1], s[2])
    last = words[-1]
    if is_mwt(lines[last - 1]):
        return None
    n = int(cols(lines, last)[0])
    lines.insert(last, f"{n}-{n + 1}\tab\t_\t_\t_\t_\t_\t_\t_\t_")
    return lines


def mwt_bad_id(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    a, b = cols(lines, i)[0].split("-")
    set_col(lines, i, 0, rng.choice([f"{a}-x", f"0-{b}", f"{a}--{b}", f"{a}-{b}-{b}", f"{a}–{b}"]))
    return lines


def fewer_columns(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_token))
    if i is None:
        return None
    fields = cols(lines, i)
    del fields[rng.randrange(1, 10)]
    lines[i] = "\t".join(fields)
    return lines


def more_columns(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_token))
    if i is None:
        return None
    fields = cols(lines, i)
    fields.insert(rng.randrange(1, 11), rng.choice(["_", "x"]))
    lines[i] = "\t".join(fields)
    return lines


def spaces_for_tabs(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_token))
    if i is None:
        return None
    lines[i] = lines[i].replace("\t", rng.choice([" ", "  ", "    "]))
    return lines


def empty_field(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_token))
    if i is None:
        return None
    set_col(lines, i, rng.randrange(0, 10), "")
    return lines


def space_in_column(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    column = rng.choice([0, 3, 4, 5, 6, 7, 8])
    value = cols(lines, i)[column]
    at = rng.randrange(0, len(value) + 1)
    set_col(lines, i, column, value[:at] + rng.choice([" ", "\u00a0", "\u3000"]) + value[at:])
    return lines


def space_in_mwt_form(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    form = cols(lines, i)[1]
    set_col(lines, i, 1, form[:1] + " " + form[1:])
    return lines


def whitespace_edges(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    column = rng.choice([1, 2, 9])
    value = cols(lines, i)[column]
    kind = rng.choice(["lead", "trail", "double"])
    if kind == "lead":
        value = " " + value
    elif kind == "trail":
        value = value + " "
    else:
        value = value[:1] + "  " + value[1:] if len(value) > 1 else value + "  x"
    set_col(lines, i, column, value)
    return lines


def misplaced_comment(lines: Lines, rng: random.Random) -> Lines | None:
    candidates = [i for i in range(1, len(lines)) if is_token(lines[i]) and is_token(lines[i - 1])]
    i = pick(rng, candidates)
    if i is None:
        return None
    lines.insert(i, rng.choice(["# comment", "# newpar", "# sent_id = inside",
                                "# global.Entity = eid-etype-head-other", "# newdoc"]))
    return lines


def pseudo_empty_line(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, [i for i, line in enumerate(lines) if line == "" and i > 0])
    if i is None:
        return None
    lines[i] = rng.choice([" ", "\t", "  "])
    return lines


def extra_blank_line(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, [i for i, line in enumerate(lines) if line == ""])
    if i is None:
        return None
    lines.insert(i, "")
    return lines


def comment_only_block(lines: Lines, rng: random.Random) -> Lines | None:
    s = pick(rng, sentences(lines))
    if s is None:
        return None
    lines.insert(s[0], "")
    lines.insert(s[0], rng.choice(["# a comment", "# newpar", "# text = lost"]))
    return lines


def blank_at_start(lines: Lines, rng: random.Random) -> Lines | None:
    return [""] + lines


def no_final_blank(lines: Lines, rng: random.Random) -> str | None:
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + rng.choice(["\n", ""])


def invalid_line(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_token))
    if i is None:
        return None
    kind = rng.choice(["junk", "prefix", "insert"])
    if kind == "junk":
        lines[i] = "this is no token line"
    elif kind == "prefix":
        lines[i] = rng.choice(["x", " ", "*"]) + lines[i]
    else:
        lines.insert(i, rng.choice(["--", "a\tb", "Entity=(e1)"]))
    return lines


def crlf(lines: Lines, rng: random.Random) -> str | None:
    if rng.random() < 0.5:
        return "\r\n".join(lines) + "\r\n"
    i = rng.randrange(len(lines))
    return "\n".join(lines[:i]) + "\n" + lines[i] + "\r\n" + "\n".join(lines[i + 1:]) + "\n"


def byte_order_mark(lines: Lines, rng: random.Random) -> str | None:
    return "\ufeff" + join_lines(lines)


def not_nfc(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    column = rng.choice([1, 2])
    set_col(lines, i, column, cols(lines, i)[column] + "e\u0301")
    return lines


def not_nfc_comment(lines: Lines, rng: random.Random) -> Lines | None:
    s = pick(rng, sentences(lines))
    if s is None:
        return None
    lines.insert(s[1], "# note = cafe\u0301")
    return lines


def replacement_character(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    column = rng.choice([1, 2, 9])
    value = cols(lines, i)[column]
    set_col(lines, i, column, ("\ufffd" if value == "_" else value + "\ufffd"))
    return lines


# ============================================================================ level 2: the tree
def _words_with(lines: Lines, test: Callable[[list[str]], bool]) -> list[int]:
    return [i for i in lines_where(lines, is_word) if test(cols(lines, i))]


def head_out_of_range(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 6, str(rng.choice([200, 999, 61])))
    return lines


def head_garbage(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 6, rng.choice(["x", "-1", "01", "_", "1.1", "3-4"]))
    return lines


def head_self_loop(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 6, cols(lines, i)[0])
    return lines


def second_root(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, _words_with(lines, lambda c: c[6] != "0"))
    if i is None:
        return None
    set_col(lines, i, 6, "0")
    if rng.random() < 0.5:
        set_col(lines, i, 7, "root")
    return lines


def no_root(lines: Lines, rng: random.Random) -> Lines | None:
    """The root attached to one of its dependents: a cycle, no word reachable."""
    i = pick(rng, _words_with(lines, lambda c: c[6] == "0"))
    if i is None:
        return None
    start, first, end = sentence_of(lines, i)
    words = sentence_words(lines, first, end)
    if len(words) < 2:
        return None
    root = cols(lines, i)[0]
    children = [j for j in words if cols(lines, j)[6] == root]
    target = pick(rng, children) or pick(rng, [j for j in words if j != i])
    set_col(lines, i, 6, cols(lines, target)[0])  # type: ignore[arg-type]
    return lines


def cycle(lines: Lines, rng: random.Random) -> Lines | None:
    """A dependent and its parent made each other's head."""
    candidates = []
    for start, first, end in sentences(lines):
        words = {cols(lines, j)[0]: j for j in sentence_words(lines, first, end)}
        for wid, j in words.items():
            head = cols(lines, j)[6]
            if head in words and cols(lines, words[head])[6] != "0":
                candidates.append((j, words[head]))
    chosen = pick(rng, candidates)
    if chosen is None:
        return None
    child, parent = chosen  # type: ignore[misc]
    set_col(lines, parent, 6, cols(lines, child)[0])
    return lines


def deprel_invalid(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    deprel = cols(lines, i)[7]
    set_col(lines, i, 7, rng.choice([deprel.upper(), deprel + ":", deprel + "_x", deprel + ":a:b",
                                     deprel + "2", "_"]))
    return lines


def deprel_unknown(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 7, rng.choice(["subj", "nsbj", "object", "ref", "prep:of", "dobj"]))
    return lines


def upos_unknown(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, lambda x: is_word(x) or is_empty_node(x)))
    if i is None:
        return None
    upos = cols(lines, i)[3]
    set_col(lines, i, 3, rng.choice([upos.lower(), upos + "X", "NN", "_", "CONJ"]))
    return lines


def xpos_empty(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    set_col(lines, i, 4, "")
    return lines


def feats_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, _words_with(lines, lambda c: c[5] != "_"))
    if i is None:
        return None
    feats = cols(lines, i)[5].split("|")
    kind = rng.choice(["unsorted", "invalid", "repeated-value", "unsorted-values",
                       "invalid-value", "repeated", "empty-item"])
    name, _, value = feats[0].partition("=")
    if kind == "unsorted":
        feats.append("Abbr=Yes")
    elif kind == "invalid":
        feats[0] = rng.choice([name.lower() + "=" + value, name, name + "=", "1" + feats[0]])
    elif kind == "repeated-value":
        feats[0] = f"{name}={value},{value}"
    elif kind == "unsorted-values":
        feats[0] = f"{name}=Zz,{value}"
    elif kind == "invalid-value":
        feats[0] = f"{name}={value.lower()}" if value[:1].isupper() else f"{name}=x{value}"
    elif kind == "repeated":
        feats.insert(1, f"{name}=Zz")
    else:
        feats.append("")
    set_col(lines, i, 5, "|".join(feats))
    return lines


def deps_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, _words_with(lines, lambda c: c[8] != "_"))
    if i is None:
        return None
    fields = cols(lines, i)
    deps = fields[8].split("|")
    head, _, rel = deps[0].partition(":")
    kind = rng.choice(["unsorted", "unsorted-2", "repeated", "self-loop", "invalid",
                       "invalid-ehead", "unknown-ehead", "invalid-edeprel", "unknown-eudeprel"])
    if kind == "unsorted":
        deps = deps + ["0:root"] if head != "0" else deps + ["0:xcomp"]
    elif kind == "unsorted-2":
        deps = [f"{head}:zz", deps[0]] + deps[1:]
    elif kind == "repeated":
        deps = [deps[0], deps[0]] + deps[1:]
    elif kind == "self-loop":
        deps = sorted(deps + [f"{fields[0]}:dep"],
                      key=lambda d: [int(x) for x in d.split(":")[0].split(".")])
    elif kind == "invalid":
        deps[0] = rng.choice([head, rel, "_x"])
    elif kind == "invalid-ehead":
        deps[0] = rng.choice(["x", "-1", "01", "1.0"]) + ":" + rel
    elif kind == "unknown-ehead":
        deps[0] = "999:" + rel
    elif kind == "invalid-edeprel":
        deps[0] = f"{head}:{rel.upper()}"
    else:
        deps[0] = f"{head}:subj"
    set_col(lines, i, 8, "|".join(deps))
    return lines


def deps_only_sometimes(lines: Lines, rng: random.Random) -> Lines | None:
    s = pick(rng, sentences(lines)[1:])
    if s is None:
        return None
    _, first, end = s  # type: ignore[misc]
    for j in range(end - 1, first - 1, -1):
        if is_empty_node(lines[j]):
            del lines[j]
        elif is_word(lines[j]):
            set_col(lines, j, 8, "_")
    return lines


def deps_unconnected(lines: Lines, rng: random.Random) -> Lines | None:
    """Two dependents made each other's only enhanced head."""
    candidates = []
    for start, first, end in sentences(lines):
        words = [j for j in sentence_words(lines, first, end) if cols(lines, j)[8] != "_"
                 and cols(lines, j)[6] != "0"]
        if len(words) >= 2:
            candidates.append(words)
    words = pick(rng, candidates)
    if words is None:
        return None
    a, b = rng.sample(words, 2)  # type: ignore[arg-type]
    set_col(lines, a, 8, cols(lines, b)[0] + ":dep")
    set_col(lines, b, 8, cols(lines, a)[0] + ":dep")
    return lines


def mwt_nonempty(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    set_col(lines, i, rng.choice([2, 3, 4, 5, 6, 7, 8]), rng.choice(["x", "NOUN", "1"]))
    return lines


def empty_node_nonempty(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_empty_node))
    if i is None:
        return None
    if rng.random() < 0.5:
        set_col(lines, i, 6, "1")
    else:
        set_col(lines, i, 7, "dep")
    return lines


def misc_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_word))
    if i is None:
        return None
    items = misc_items(lines[i])
    kind = rng.choice(["repeated", "empty", "empty-key", "space", "typo", "gloss-twice"])
    if kind == "repeated":
        items = sorted(items + ["SpaceAfter=No", "SpaceAfter=No"] if "SpaceAfter=No" not in items
                       else items + ["SpaceAfter=No"])
    elif kind == "empty":
        items = items + [""] if items else ["", "Foo=1"]
    elif kind == "empty-key":
        items = items + ["=x"]
    elif kind == "space":
        items = items + [rng.choice([" Foo=1", "Foo =1", "Foo= 1", "Foo=1 "])]
    elif kind == "typo":
        items = items + [rng.choice(["spaceafter=No", "Translit =x", "gloss=x"])]
    else:
        items = items + ["Gloss=a", "Gloss=b"]
    set_misc(lines, i, items)
    return lines


# ============================================================================ level 2: metadata
def _comment_lines(lines: Lines, s: tuple[int, int, int], prefix: str) -> list[int]:
    return [j for j in range(s[0], s[1]) if lines[j].startswith(prefix)]


def sent_id_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    all_sentences = sentences(lines)
    s = pick(rng, all_sentences[1:])
    if s is None:
        return None
    here = _comment_lines(lines, s, "# sent_id")  # type: ignore[arg-type]
    if not here:
        return None
    j = here[0]
    kind = rng.choice(["missing", "duplicate", "multiple", "invalid", "slash", "empty"])
    if kind == "missing":
        del lines[j]
    elif kind == "duplicate":
        previous = all_sentences[all_sentences.index(s) - 1]  # type: ignore[arg-type]
        other = _comment_lines(lines, previous, "# sent_id")
        if not other:
            return None
        lines[j] = lines[other[0]]
    elif kind == "multiple":
        lines.insert(j + 1, lines[j] + rng.choice(["", "b"]))
    elif kind == "invalid":
        lines[j] = rng.choice([lines[j] + " x", lines[j] + " ", "# sent_id x", "#sent_id= "])
    elif kind == "slash":
        lines[j] = lines[j] + rng.choice(["/a", "/a/b"])
    else:
        lines[j] = "# sent_id ="
    return lines


def parallel_id_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    found = sentences(lines)
    if len(found) < 3:
        return None
    a, b = sorted(rng.sample(range(len(found)), 2))
    kind = rng.choice(["invalid", "multiple", "duplicate", "alt", "part", "alt-mixed"])
    values = {
        "invalid": ("# parallel_id = GUM/1", None),
        "multiple": ("# parallel_id = gum/1\n# parallel_id = gum/2", None),
        "duplicate": ("# parallel_id = gum/1", "# parallel_id = gum/1"),
        "alt": ("# parallel_id = gum/1/alt1", "# parallel_id = gum/1/alt3"),
        "part": ("# parallel_id = gum/1/part2", None),
        "alt-mixed": ("# parallel_id = gum/1/alt1", "# parallel_id = gum/1"),
    }[kind]
    # insert in the later sentence first so the earlier one's positions stay valid
    if values[1] is not None:
        lines[found[b][1]:found[b][1]] = values[1].split("\n")
    lines[found[a][1]:found[a][1]] = values[0].split("\n")
    return lines


def text_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    s = pick(rng, sentences(lines))
    if s is None:
        return None
    here = _comment_lines(lines, s, "# text")  # type: ignore[arg-type]
    if not here:
        return None
    j = here[0]
    kind = rng.choice(["missing", "multiple", "empty", "trailing", "extra", "change-form",
                       "drop-word"])
    if kind == "missing":
        del lines[j]
    elif kind == "multiple":
        lines.insert(j + 1, lines[j])
    elif kind == "empty":
        lines[j] = "# text ="
    elif kind == "trailing":
        lines[j] = lines[j] + " "
    elif kind == "extra":
        lines[j] = lines[j] + rng.choice([" extra", "!", " ."])
    elif kind == "change-form":
        word = pick(rng, sentence_words(lines, s[1], s[2]))  # type: ignore[index]
        set_col(lines, word, 1, cols(lines, word)[1] + "x")  # type: ignore[arg-type]
    else:
        lines[j] = lines[j][:-1] if len(lines[j]) > 10 else lines[j] + "zz"
    return lines


def spaceafter_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    kind = rng.choice(["remove", "value", "nospaceafter", "empty-node", "mwt-word", "add"])
    if kind == "remove":
        i = pick(rng, [i for i in lines_where(lines, is_word) if "SpaceAfter=No" in lines[i]])
        if i is None:
            return None
        set_item(lines, i, "SpaceAfter", None)
    elif kind == "value":
        i = pick(rng, lines_where(lines, is_word))
        if i is None:
            return None
        set_item(lines, i, "SpaceAfter", rng.choice(["Yes", "no", "\\n"]))
    elif kind == "nospaceafter":
        i = pick(rng, lines_where(lines, is_word))
        if i is None:
            return None
        set_item(lines, i, "NoSpaceAfter", "Yes")
    elif kind == "empty-node":
        i = pick(rng, lines_where(lines, is_empty_node))
        if i is None:
            return None
        set_item(lines, i, "SpaceAfter", "No")
    elif kind == "mwt-word":
        i = pick(rng, lines_where(lines, is_mwt))
        if i is None:
            return None
        set_item(lines, i + 1, "SpaceAfter", "No")
    else:
        i = pick(rng, [i for i in lines_where(lines, is_word) if "SpaceAfter=No" not in lines[i]])
        if i is None:
            return None
        set_item(lines, i, "SpaceAfter", "No")
    return lines


def newdoc_newpar_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    found = sentences(lines)
    kind = rng.choice(["multiple-newdoc", "multiple-newpar", "spaceafter-newpar"])
    if kind == "multiple-newdoc":
        here = [j for j in range(found[0][0], found[0][1]) if lines[j].startswith("# newdoc")]
        if not here:
            return None
        lines.insert(here[0] + 1, rng.choice(["# newdoc", "# newdoc x"]))
        return lines
    s = pick(rng, found[1:])
    if s is None:
        return None
    if kind == "multiple-newpar":
        lines[s[0]:s[0]] = ["# newpar", "# newpar"]  # type: ignore[index]
        return lines
    previous = found[found.index(s) - 1]  # type: ignore[arg-type]
    last = sentence_words(lines, previous[1], previous[2])[-1]
    set_item(lines, last, "SpaceAfter", "No")
    if not any(lines[j].startswith("# newpar") for j in range(s[0], s[1])):  # type: ignore[index]
        lines.insert(s[0], "# newpar")  # type: ignore[index]
    return lines


# ============================================================================ coreference
def _mention_pick(lines: Lines, rng: random.Random, test: Callable[[tuple[int, int, str, str]],
                                                                    bool] = lambda m: True):
    return pick(rng, [m for m in mentions(lines) if test(m)])


def remove_closer(lines: Lines, rng: random.Random) -> Lines | None:
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, _ = m  # type: ignore[misc]
    n = find_chunk(lines, end, "close", eid)
    if n is None:
        return None
    replace_chunk(lines, end, n, [])
    return lines


def remove_opener(lines: Lines, rng: random.Random) -> Lines | None:
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, _ = m  # type: ignore[misc]
    n = find_chunk(lines, start, "open", eid)
    if n is None:
        return None
    replace_chunk(lines, start, n, [])
    return lines


def move_closer(lines: Lines, rng: random.Random) -> Lines | None:
    """Close a mention one or more words later: across the sentence end, or crossing others."""
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, _ = m  # type: ignore[misc]
    n = find_chunk(lines, end, "close", eid)
    later = [j for j in range(end + 1, min(end + 40, len(lines))) if is_word(lines[j])]
    if n is None or not later:
        return None
    replace_chunk(lines, end, n, [])
    target = rng.choice(later[:8])
    parts = chunks(get_item(lines[target], "Entity") or "")
    parts.insert(0, ("close", eid))
    set_item(lines, target, "Entity", unchunk(parts))
    return lines


def move_opener_earlier(lines: Lines, rng: random.Random) -> Lines | None:
    m = _mention_pick(lines, rng)
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    earlier = [j for j in range(max(start - 6, 0), start) if is_word(lines[j])]
    if not earlier:
        return None
    n = find_chunk(lines, start, "one" if start == end else "open", eid)
    if n is None:
        return None
    replace_chunk(lines, start, n, [("close", eid)] if start == end else [])
    target = rng.choice(earlier)
    parts = chunks(get_item(lines[target], "Entity") or "")
    parts.append(("open", opener))
    set_item(lines, target, "Entity", unchunk(parts))
    return lines


def unknown_closer(lines: Lines, rng: random.Random) -> Lines | None:
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, _ = m  # type: ignore[misc]
    n = find_chunk(lines, end, "close", eid)
    if n is None:
        return None
    replace_chunk(lines, end, n, [("close", eid + "x")])
    return lines


def reorder_chunks(lines: Lines, rng: random.Random) -> Lines | None:
    candidates = [i for i in entity_lines(lines)
                  if len(chunks(get_item(lines[i], "Entity") or "")) > 1]
    i = pick(rng, candidates)
    if i is None:
        return None
    parts = chunks(get_item(lines[i], "Entity") or "")  # type: ignore[arg-type]
    rng.shuffle(parts)
    parts.reverse() if parts == chunks(get_item(lines[i], "Entity") or "") else None  # type: ignore[func-returns-value,arg-type]
    set_item(lines, i, "Entity", unchunk(parts))  # type: ignore[arg-type]
    return lines


def garbage_entity(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, entity_lines(lines))
    if i is None:
        return None
    value = get_item(lines[i], "Entity") or ""  # type: ignore[arg-type]
    set_item(lines, i, "Entity", rng.choice(  # type: ignore[arg-type]
        [value + "x", "x" + value, value.replace("(", "( ", 1), "", "e1", value + "()",
         value.replace(")", "))", 1) if ")" in value else value + "))"]))
    return lines


def entity_on_word(lines: Lines, rng: random.Random, value: str) -> Lines | None:
    i = pick(rng, [i for i in lines_where(lines, is_word) if "Entity=" not in lines[i]])
    if i is None:
        return None
    set_item(lines, i, "Entity", value)  # type: ignore[arg-type]
    return lines


def crossing_mentions(lines: Lines, rng: random.Random) -> Lines | None:
    """A new mention opening inside an existing one and closing after it (another or the same
    entity)."""
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    inside = [j for j in range(start + 1, end + 1) if is_word(lines[j])]
    after = [j for j in range(end + 1, min(end + 5, len(lines))) if is_word(lines[j])]
    if not inside or not after:
        return None
    same = rng.random() < 0.4
    new = eid if same else "e9999"
    fields = opener.split("-")
    new_opener = "-".join([new] + fields[1:3]) if len(fields) > 1 else new
    a, b = rng.choice(inside), rng.choice(after)
    parts = chunks(get_item(lines[a], "Entity") or "")
    parts.append(("open", new_opener))
    set_item(lines, a, "Entity", unchunk(parts))
    parts = chunks(get_item(lines[b], "Entity") or "")
    parts.insert(0, ("close", new))
    set_item(lines, b, "Entity", unchunk(parts))
    return lines


def same_span(lines: Lines, rng: random.Random) -> Lines | None:
    m = _mention_pick(lines, rng)
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    fields = opener.split("-")
    other = rng.choice(["e9998", eid])
    new_opener = "-".join([other] + fields[1:3]) if len(fields) > 1 else other
    parts = chunks(get_item(lines[start], "Entity") or "")
    if start == end:
        parts.append(("one", new_opener))
        set_item(lines, start, "Entity", unchunk(parts))
        return lines
    n = find_chunk(lines, start, "open", eid)
    parts.insert(n if n is not None else len(parts), ("open", new_opener))
    set_item(lines, start, "Entity", unchunk(parts))
    parts = chunks(get_item(lines[end], "Entity") or "")
    n = find_chunk(lines, end, "close", eid)
    parts.insert((n + 1) if n is not None else 0, ("close", other))
    set_item(lines, end, "Entity", unchunk(parts))
    return lines


def _change_opener(lines: Lines, rng: random.Random,
                   change: Callable[[list[str]], list[str] | None],
                   test: Callable[[tuple[int, int, str, str]], bool] = lambda m: True
                   ) -> Lines | None:
    m = _mention_pick(lines, rng, test)
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    kind = "one" if start == end else "open"
    n = find_chunk(lines, start, kind, eid)
    if n is None:
        return None
    fields = change(opener.split("-"))
    if fields is None:
        return None
    replace_chunk(lines, start, n, [(kind, "-".join(fields))])
    return lines


def _pad(fields: list[str], length: int) -> list[str]:
    return fields + [""] * (length - len(fields))


def _later_mention(lines: Lines):  # type: ignore[no-untyped-def]
    """A test for mentions that are not their entity's first."""
    first: dict[str, int] = {}
    for start, _, eid, _ in sorted(mentions(lines)):
        first.setdefault(eid, start)
    return lambda m: first.get(m[2]) != m[0]


def etype_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    kind = rng.choice(["spurious", "mismatch", "missing", "identity"])
    if kind == "spurious":
        return _change_opener(lines, rng, lambda f: [f[0], rng.choice(["thing", "Person", "x",
                                                                        "quantity"])] + f[2:])
    later = _later_mention(lines)
    if kind == "mismatch":
        return _change_opener(lines, rng, lambda f: [f[0], "event" if f[1:2] != ["event"]
                                                     else "time"] + f[2:], later)
    if kind == "missing":
        return _change_opener(lines, rng, lambda f: [f[0]] if rng.random() < 0.5
                              else [f[0], ""] + f[2:], later)
    return _change_opener(lines, rng, lambda f: _pad(f, 4)[:4] + ["Someone_Else"], later)


def head_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    value = rng.choice(["99", "x", "0", "01", "", "1.5", "-1"])
    if value == "-1":
        return _change_opener(lines, rng, lambda f: _pad(f, 3)[:2] + ["", "1"] + f[3:])
    return _change_opener(lines, rng, lambda f: _pad(f, 3)[:2] + [value] + f[3:])


def too_many_attributes(lines: Lines, rng: random.Random) -> Lines | None:
    if rng.random() < 0.5:
        return _change_opener(lines, rng, lambda f: _pad(f, 5) + ["x", "y"])
    m = _mention_pick(lines, rng, lambda m: m[0] != m[1])
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    n = find_chunk(lines, end, "close", eid)
    if n is None:
        return None
    replace_chunk(lines, end, n, [("close", "-".join(opener.split("-")[:2]))])
    return lines


def entity_id_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    """Ids the validator refuses: one-part or misnumbered discontinuous ids, square brackets."""
    m = _mention_pick(lines, rng)
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    new = rng.choice([f"{eid}[1/1]", f"{eid}[3/2]", f"[{eid}", f"{eid}[2/2]", f"{eid}[0/2]"])
    kind = "one" if start == end else "open"
    n = find_chunk(lines, start, kind, eid)
    if n is None:
        return None
    fields = opener.split("-")
    replace_chunk(lines, start, n, [(kind, "-".join([new] + fields[1:]))])
    if start != end:
        n = find_chunk(lines, end, "close", eid)
        if n is None:
            return None
        replace_chunk(lines, end, n, [("close", new)])
    return lines


def discontinuous(lines: Lines, rng: random.Random) -> Lines | None:
    """A mention of three or more words made discontinuous (its second word left out); the
    second part with other attributes, numbered wrongly, or fine."""
    m = _mention_pick(lines, rng, lambda m: m[1] - m[0] >= 2)
    if m is None:
        return None
    start, end, eid, opener = m  # type: ignore[misc]
    words = [j for j in range(start, end + 1) if is_word(lines[j])]
    if len(words) < 3 or sentence_of(lines, start) != sentence_of(lines, end):
        return None
    kind = rng.choice(["fine", "attributes", "order"])
    fields = opener.split("-")
    rest = fields[1:]
    second = rest if kind != "attributes" else [
        ("event" if rest[:1] != ["event"] else "time")] + rest[1:] if rest else ["event"]
    first_part, second_part = ("1/2", "2/2") if kind != "order" else ("2/2", "1/2")
    n = find_chunk(lines, start, "open", eid)
    if n is None:
        return None
    replace_chunk(lines, start, n, [("one", "-".join([f"{eid}[{first_part}]"] + rest))])
    parts = chunks(get_item(lines[words[2]], "Entity") or "")
    opening = ("open", "-".join([f"{eid}[{second_part}]"] + second))
    if words[2] == end:
        n = find_chunk(lines, end, "close", eid)
        if n is None:
            return None
        parts[n] = ("one", opening[1])
    else:
        parts.append(opening)
    set_item(lines, words[2], "Entity", unchunk(parts))
    if words[2] != end:
        n = find_chunk(lines, end, "close", eid)
        if n is None:
            return None
        replace_chunk(lines, end, n, [("close", f"{eid}[{second_part}]")])
    return lines


def entity_on_mwt(lines: Lines, rng: random.Random) -> Lines | None:
    i = pick(rng, lines_where(lines, is_mwt))
    if i is None:
        return None
    key = rng.choice(["Entity", "Entity", "Bridge", "SplitAnte"])
    value = {"Entity": "(e9997-person-1)", "Bridge": "e1<e2", "SplitAnte": "e1<e2,e3<e2"}[key]
    set_item(lines, i, key, value)
    return lines


def repeated_statement(lines: Lines, rng: random.Random) -> Lines | None:
    key = rng.choice(["Entity", "Bridge", "SplitAnte"])
    i = pick(rng, [i for i in lines_where(lines, is_word) if get_item(lines[i], key)])
    if i is None:
        return None
    value = get_item(lines[i], key)  # type: ignore[arg-type]
    items = misc_items(lines[i]) + [f"{key}={value}"]  # type: ignore[index]
    set_misc(lines, i, items)  # type: ignore[arg-type]
    return lines


def statement_without_entity(lines: Lines, rng: random.Random) -> Lines | None:
    key = rng.choice(["Bridge", "SplitAnte"])
    i = pick(rng, [i for i in lines_where(lines, is_word) if get_item(lines[i], key)])
    if i is not None and rng.random() < 0.6:
        value = get_item(lines[i], key)  # type: ignore[arg-type]
        set_item(lines, i, key, None)  # type: ignore[arg-type]
        j = pick(rng, [j for j in lines_where(lines, is_word) if "Entity=" not in lines[j]])
        if j is None:
            return None
        set_item(lines, j, key, value)  # type: ignore[arg-type]
        return lines
    ids = sorted({m[2] for m in mentions(lines)})
    if len(ids) < 3:
        return None
    j = pick(rng, [j for j in lines_where(lines, is_word) if "Entity=" not in lines[j]])
    if j is None:
        return None
    value = f"{ids[0]}<{ids[1]}" if key == "Bridge" else f"{ids[0]}<{ids[2]},{ids[1]}<{ids[2]}"
    set_item(lines, j, key, value)  # type: ignore[arg-type]
    return lines


def bridge_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    starts = [(m[0], m[2]) for m in mentions(lines)]
    if len(starts) < 3:
        return None
    (i, anaphor) = rng.choice(starts[2:])
    anchor = rng.choice([e for _, e in starts[:2]])
    kind = rng.choice(["garbage", "relation", "self", "misplaced", "repeated", "mismatch",
                       "fine", "unknown"])
    value = {
        "garbage": rng.choice([f"{anchor}-{anaphor}", f"{anchor}<", f"<{anaphor}",
                               f"{anchor}<{anaphor}:", f"{anchor}<{anaphor}:a:b",
                               f"{anchor}<{anaphor},", f"{anchor}>{anaphor}", ""]),
        "relation": f"{anchor}<{anaphor}:" + rng.choice(["Part", "part-of", "part1"]),
        "self": f"{anaphor}<{anaphor}",
        "misplaced": f"{anchor}<{anchor}x",
        "repeated": f"{anchor}<{anaphor},{anchor}<{anaphor}",
        "mismatch": f"{anchor}<{anaphor}:part,{anchor}<{anaphor}:kind",
        "fine": f"{anchor}<{anaphor}:part",
        "unknown": f"e7777<{anaphor}",
    }[kind]
    set_item(lines, i, "Bridge", value)
    return lines


def splitante_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    existing = [i for i in lines_where(lines, is_word) if get_item(lines[i], "SplitAnte")]
    starts = [(m[0], m[2]) for m in mentions(lines)]
    if len(starts) < 4:
        return None
    kind = rng.choice(["garbage", "self", "repeat", "one", "misplaced", "mismatch", "fine",
                       "unknown"])
    if existing and kind in ("one", "mismatch", "repeat") and rng.random() < 0.7:
        i = rng.choice(existing)
        items = (get_item(lines[i], "SplitAnte") or "").split(",")
        if kind == "one":
            items = items[:1]
        elif kind == "mismatch":
            items = items[:-1] + [items[0].replace("<", "x<", 1)]
        else:
            items = items + items[:1]
        set_item(lines, i, "SplitAnte", ",".join(items))
        return lines
    (i, target) = rng.choice(starts[3:])
    a, b = rng.sample([e for _, e in starts[:3] if e != target] or ["e1", "e2"], 2) \
        if len({e for _, e in starts[:3] if e != target}) >= 2 else ("e1", "e2")
    value = {
        "garbage": rng.choice([f"{a}-{target}", f"{a}<{target}:part", f"{a}<", "",
                               f"{a}<{target},"]),
        "self": f"{target}<{target},{a}<{target}",
        "repeat": f"{a}<{target},{a}<{target},{b}<{target}",
        "one": f"{a}<{target}",
        "misplaced": f"{a}<{b}x,{target}<{b}x",
        "mismatch": f"{a}<{target},{b}<{target}",
        "fine": f"{a}<{target},{b}<{target}",
        "unknown": f"e7777<{target},{a}<{target}",
    }[kind]
    set_item(lines, i, "SplitAnte", value)
    if kind == "mismatch":
        later = [s for s, e in starts if e == target and s > i]
        if later:
            set_item(lines, later[0], "SplitAnte", f"{a}<{target}")
    return lines


def global_entity_mutation(lines: Lines, rng: random.Random) -> Lines | None:
    here = [j for j in range(min(len(lines), 60)) if lines[j].startswith("# global.Entity")]
    if not here:
        return None
    j = here[0]
    kind = rng.choice(["bad", "missing", "mismatch", "no-id"])
    if kind == "bad":
        lines[j] = "# global.Entity = " + rng.choice(
            ["eid-head-etype-other", "Eid-etype-head", "eid-etype-head-other-eid",
             "etype-eid-head", "eid-etype", "eid-etype-head-identity-other", "eid_etype_head",
             "eid-etype-head-other-Identity"])
    elif kind == "missing":
        del lines[j]
    elif kind == "mismatch":
        s = pick(rng, sentences(lines)[1:])
        if s is None:
            return None
        lines.insert(s[1], "# global.Entity = eid-etype-head-other")  # type: ignore[index]
    else:
        lines[j] = "# global.Entity = " + rng.choice(["etype-head", "head"])
    return lines


def newdoc_inside(lines: Lines, rng: random.Random) -> Lines | None:
    """A ``# newdoc`` before a later sentence: the entities that go on are used across it."""
    s = pick(rng, sentences(lines)[2:])
    if s is None:
        return None
    lines.insert(s[0], rng.choice(["# newdoc", "# newdoc", "# newdoc id = second"]))  # type: ignore[index]
    return lines


MUTATIONS: dict[str, Mutation] = {
    # level 1
    "word-id-garbage": word_id_garbage,
    "word-id-skip": word_id_skip,
    "swap-words": swap_words,
    "duplicate-word": duplicate_word,
    "delete-word": delete_word,
    "empty-node-renumber": empty_node_renumber,
    "empty-node-move": empty_node_move,
    "empty-node-after-mwt": empty_node_after_mwt,
    "empty-node-insert": empty_node_insert,
    "mwt-reversed": mwt_reversed,
    "mwt-out-of-range": mwt_out_of_range,
    "mwt-at-sentence-end": mwt_at_sentence_end,
    "mwt-missing-word": mwt_add_valid_missing_word,
    "mwt-overlap": mwt_overlap,
    "mwt-misplaced": mwt_misplaced,
    "mwt-bad-id": mwt_bad_id,
    "fewer-columns": fewer_columns,
    "more-columns": more_columns,
    "spaces-for-tabs": spaces_for_tabs,
    "empty-field": empty_field,
    "space-in-column": space_in_column,
    "space-in-mwt-form": space_in_mwt_form,
    "whitespace-edges": whitespace_edges,
    "misplaced-comment": misplaced_comment,
    "pseudo-empty-line": pseudo_empty_line,
    "extra-blank-line": extra_blank_line,
    "comment-only-block": comment_only_block,
    "blank-at-start": blank_at_start,
    "no-final-blank": no_final_blank,
    "invalid-line": invalid_line,
    "crlf": crlf,
    "byte-order-mark": byte_order_mark,
    "not-nfc": not_nfc,
    "not-nfc-comment": not_nfc_comment,
    "replacement-character": replacement_character,
    # level 2
    "head-out-of-range": head_out_of_range,
    "head-garbage": head_garbage,
    "head-self-loop": head_self_loop,
    "second-root": second_root,
    "no-root": no_root,
    "cycle": cycle,
    "deprel-invalid": deprel_invalid,
    "deprel-unknown": deprel_unknown,
    "upos-unknown": upos_unknown,
    "xpos-empty": xpos_empty,
    "feats": feats_mutation,
    "deps": deps_mutation,
    "deps-only-sometimes": deps_only_sometimes,
    "deps-unconnected": deps_unconnected,
    "mwt-nonempty": mwt_nonempty,
    "empty-node-nonempty": empty_node_nonempty,
    "misc": misc_mutation,
    "sent-id": sent_id_mutation,
    "parallel-id": parallel_id_mutation,
    "text": text_mutation,
    "spaceafter": spaceafter_mutation,
    "newdoc-newpar": newdoc_newpar_mutation,
    # coreference
    "remove-closer": remove_closer,
    "remove-opener": remove_opener,
    "move-closer": move_closer,
    "move-opener-earlier": move_opener_earlier,
    "unknown-closer": unknown_closer,
    "reorder-chunks": reorder_chunks,
    "garbage-entity": garbage_entity,
    "crossing-mentions": crossing_mentions,
    "same-span": same_span,
    "etype": etype_mutation,
    "mention-head": head_mutation,
    "too-many-attributes": too_many_attributes,
    "entity-id": entity_id_mutation,
    "discontinuous": discontinuous,
    "entity-on-mwt": entity_on_mwt,
    "repeated-statement": repeated_statement,
    "statement-without-entity": statement_without_entity,
    "bridge": bridge_mutation,
    "splitante": splitante_mutation,
    "global-entity": global_entity_mutation,
    "newdoc-inside": newdoc_inside,
}

# the coreference mutations, made on the CorefUD rewrite of the file most of the time
COREFERENCE = set(list(MUTATIONS)[list(MUTATIONS).index("remove-closer"):])


def mutate(text: str, rng: random.Random, kinds: list[str] | None = None, *,
           corefud: bool | None = None, sentences_kept: int | None = None
           ) -> tuple[str, list[str]] | None:
    """A mutated copy of a file's text and the mutations made (one, sometimes two or three).

    ``corefud`` rewrites the coreference in CorefUD notation first (default: for most
    coreference mutations and a third of the others); ``sentences_kept`` cuts the file to its
    first sentences.
    """
    lines = split_lines(text)
    if sentences_kept is not None:
        lines = excerpt(lines, sentences_kept)
    names = kinds or [rng.choice(list(MUTATIONS))]
    if rng.random() < 0.15 and kinds is None:
        names.append(rng.choice(list(MUTATIONS)))
    if corefud is None:
        corefud = rng.random() < (0.85 if names[0] in COREFERENCE else 0.35)
    if corefud:
        lines = to_corefud(lines)
    done = []
    result: Lines | str = lines
    for name in names:
        if isinstance(result, str):
            break
        changed = MUTATIONS[name](list(result), rng)
        if changed is None:
            continue
        result = changed
        done.append(name)
    if not done:
        return None
    text = result if isinstance(result, str) else join_lines(result)
    return text, done + (["corefud-notation"] if corefud else [])


def nfc_ok(text: str) -> bool:  # used by the tests of the harness itself
    return unicodedata.is_normalized("NFC", text)

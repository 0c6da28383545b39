"""Which layers and columns a WebAnno TSV writer writes, and where each column's cells come from.

The scheme's coreference layers are declared as the file read had them (same layer names:
their declarations and column order are kept) or anew; the file's other layers are declared
again, their cells taken from the rows as read. Layers are ordered as INCEpTION orders them:
span layers, chain layers, relation layers (a file read keeps its own order).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from corefkit.converters.tool_layers.schemes import (
    CHAIN_SHAPE,
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    Scheme,
)
from corefkit.converters.webanno_tsv.header import (
    CHAIN_LINK,
    CHAIN_TYPE,
    FEATURE,
    PLACEHOLDER,
    REL_FEATURE,
    REL_SOURCE,
    Header,
)
from corefkit.converters.webanno_tsv.reader import CELLS, STATE
from corefkit.model import Document

KIND_ORDER = {"T_SP": 0, "T_CH": 1, "T_RL": 2}


@dataclass(frozen=True)
class OutColumn:
    """``kind`` is a coreference column kind of :mod:`.header` or ``opaque`` (``index``: the
    column of the rows as read)."""

    kind: str
    feature: str | None = None
    index: int = -1


@dataclass
class Plan:
    version: str
    declarations: list[str]
    columns: list[OutColumn]
    meta: list[tuple[str, str | None]] = field(default_factory=list)
    span_features: tuple[str, ...] = ()
    ids_everywhere: bool = False
    old_columns: int = 0
    sparse: frozenset[str] = frozenset()   # mention-layer features written without nulls
    unescaped: bool = False                # values written with the minimal escaping


def plan_columns(doc: Document, scheme: Scheme, header: Header | None) -> Plan:
    if header is not None and not all(len(t.attrs.get(CELLS, ())) == len(header.columns)
                                      for t in doc.tokens if CELLS in t.attrs):
        header = None
    own = _own_layers(scheme, header)
    layers: list[tuple[int, str, list[OutColumn]]] = []  # (kind rank, declaration, columns)
    coref_names = {scheme.chain_layer, scheme.span_layer, scheme.relation_layer} - {None}
    recorded = header.layers if header is not None else []
    for position, layer in enumerate(recorded):
        assert header is not None
        line = header.declarations[position]
        if layer.name in coref_names:
            continue  # declared again below
        columns = [OutColumn("opaque", index=i) for i in header.columns_of(layer.name)]
        layers.append((KIND_ORDER[line[1:5]], line, columns))
    for line, columns in own:
        rank = KIND_ORDER[line[1:5]]
        at = len(layers)
        while at > 0 and layers[at - 1][0] > rank:
            at -= 1
        layers.insert(at, (rank, line, columns))
    if header is not None:
        layers = _keep_order(layers, header)
    declarations = [line for _, line, _ in layers]
    columns = [c for _, _, cs in layers for c in cs]
    plan = Plan(header.version if header is not None else "3.3", declarations, columns,
                list(header.meta) if header is not None else [],
                _span_features(scheme, header), old_columns=len(header.columns) if header else 0)
    state = doc.attrs.get(STATE) or {}
    if header is not None and scheme.span_layer:
        plan.ids_everywhere = bool(state.get("ids_everywhere"))
        plan.sparse = frozenset(f for layer, f in state.get("sparse", ())
                                if layer == scheme.span_layer)
    plan.unescaped = header is not None and bool(state.get("unescaped"))
    return plan


def _keep_order(layers: list[tuple[int, str, list[OutColumn]]],
                header: Header) -> list[tuple[int, str, list[OutColumn]]]:
    """Layers that the file read declared stay in its order."""
    order = {line.split("|")[0]: n for n, line in enumerate(header.declarations)}
    known = [x for x in layers if x[1].split("|")[0] in order]
    if [order[x[1].split("|")[0]] for x in known] == sorted(order[x[1].split("|")[0]]
                                                          for x in known):
        return layers
    known.sort(key=lambda x: order[x[1].split("|")[0]])
    it = iter(known)
    return [next(it) if x[1].split("|")[0] in order else x for x in layers]


def _span_features(scheme: Scheme, header: Header | None) -> tuple[str, ...]:
    if scheme.shape == CHAIN_SHAPE:
        return (REFERENCE_TYPE, REFERENCE_RELATION)
    if header is not None:
        for layer in header.layers:
            if layer.name == scheme.span_layer:
                return layer.features
    return tuple(f for f, _ in scheme.features)


def _own_layers(scheme: Scheme, header: Header | None) -> list[tuple[str, list[OutColumn]]]:
    """The declarations and columns of the scheme's coreference layers."""
    declared = {}
    if header is not None:
        declared = {layer.name: (header.declarations[n], layer)
                    for n, layer in enumerate(header.layers)}
    found: list[tuple[str, list[OutColumn]]] = []
    if scheme.shape == CHAIN_SHAPE:
        name = scheme.chain_layer or ""
        line, layer = declared.get(name, (None, None))
        if line is None or layer is None or layer.kind != "chain":
            line = f"#T_CH={name}|{REFERENCE_TYPE}|{REFERENCE_RELATION}"
            features: tuple[str, ...] = (REFERENCE_TYPE, REFERENCE_RELATION)
        else:
            features = layer.features
        kinds = {REFERENCE_TYPE: CHAIN_TYPE, REFERENCE_RELATION: CHAIN_LINK}
        found.append((line, [OutColumn(kinds[f], f) for f in features]))
        return found
    span, relation = scheme.span_layer or "", scheme.relation_layer or ""
    line, layer = declared.get(span, (None, None))
    if line is None or layer is None or layer.kind != "span":
        features = tuple(f for f, _ in scheme.features)
        line = "#T_SP=" + "|".join((span, *features))
    else:
        features = layer.features
    columns = [OutColumn(FEATURE, f) for f in features] or [OutColumn(PLACEHOLDER)]
    found.append((line, columns))
    line, layer = declared.get(relation, (None, None))
    if line is None or layer is None or layer.kind != "relation" or layer.base != span:
        features = scheme.relation_features or ((scheme.relation_feature,)
                                                if scheme.relation_feature else ())
        line = "#T_RL=" + "|".join((relation, *features, "BT_" + span))
    else:
        features = layer.features
    found.append((line, [*(OutColumn(REL_FEATURE, f) for f in features), OutColumn(REL_SOURCE)]))
    return found

"""The document model every reader produces and every writer, pass and metric consumes."""

from corefkit.model.anaphora import (
    DISCOURSE_DEIXIS,
    IDENTITY,
    LAYERS,
    NONREF_KINDS,
    Bridging,
    Entity,
    Mention,
    SetMembership,
)
from corefkit.model.document import Document
from corefkit.model.text import Sentence, Token

__all__ = [
    "DISCOURSE_DEIXIS", "IDENTITY", "LAYERS", "NONREF_KINDS", "Bridging", "Document",
    "Entity", "Mention", "Sentence", "SetMembership", "Token",
]

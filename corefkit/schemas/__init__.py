"""The data tables and JSON Schemas shipped with corefkit (profiles, rankings, type schemes,
level maps, report schemas); :data:`DIRECTORY` is where they are."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent

"""fastcoref output: jsonlines of a raw text and character-offset clusters."""

"""The CRAC 2025/2026 LLM-track formats of text2text-coref: linear text and its JSON variant."""

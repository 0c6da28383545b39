"""The JSON variant of the CRAC LLM-track format (text2text-coref's conllu2json)."""

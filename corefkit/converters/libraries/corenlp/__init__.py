"""Stanford CoreNLP coreference output: XML <coreference> and JSON corefs."""

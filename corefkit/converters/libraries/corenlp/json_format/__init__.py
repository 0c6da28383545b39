"""CoreNLP JSON output (-outputFormat json) with corefs."""

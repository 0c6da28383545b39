# Convenience wrappers; the README's quick start uses dev.py directly (no make needed).
.PHONY: demo test docs bench
demo:
	python3 dev.py demo
test:
	python3 dev.py test
docs:
	python3 dev.py docs
bench:
	python3 dev.py test --co -q >/dev/null && .venv/bin/python benchmarks/score_bench.py

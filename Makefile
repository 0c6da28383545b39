# Convenience wrappers; the README's quick start uses dev.py directly (no make needed).
.PHONY: demo test bench
demo:
	python3 dev.py demo
test:
	python3 dev.py test
bench:
	python3 dev.py test --co -q >/dev/null && .venv/bin/python benchmarks/score_bench.py

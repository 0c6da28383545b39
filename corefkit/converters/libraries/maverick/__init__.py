"""Maverick output: predict() dictionaries as jsonlines, token and character offsets."""

"""Linguistic analysis of mentions: types, predicates and the rule tables behind them."""

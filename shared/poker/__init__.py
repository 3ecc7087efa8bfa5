"""Poker: the hand evaluator (Madero Art. 5 §17–19) and exact odds of the side bets."""

from shared.poker.evaluator import Category, HandValue, category_of, describe, evaluate, strength

__all__ = ["Category", "HandValue", "category_of", "describe", "evaluate", "strength"]

"""Poker: the hand evaluator (Madero Art. 5 §17–19), game-neutral: it imports no game."""

from shared.poker.evaluator import Category, HandValue, category_of, describe, evaluate, strength

__all__ = ["Category", "HandValue", "category_of", "describe", "evaluate", "strength"]

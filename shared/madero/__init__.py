"""Madero Poker Bonus (Resolución 132/2015, Anexo I): paytables, table settings,
settlement, the progressive meter and the round engine."""

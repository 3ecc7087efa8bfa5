"""Madero Poker Bonus (Resolución 132/2015, Anexo I): paytables, table settings,
settlement, the progressive meter, the exact odds of the side bets and the round engine."""

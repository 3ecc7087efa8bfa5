"""Midi Punto y Banca (Lotería Nacional S.E., Resolución 100/2016): configuration,
the table engine, payouts, the roads, exact odds and the shoe audit."""

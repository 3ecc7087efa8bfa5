"""Widgets of the Madero main screen, one per region of the table (screens.md)."""

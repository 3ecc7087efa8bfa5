"""Screens of the Madero console (the shared modal screens live in ``tui_common.screens``)."""

"""Screens both table apps push: sign-in, enrolment, supervisor panel, recall, notices.

Import each from its module (``tui_common.screens.sign_in`` …): this package imports
nothing itself, so an app loads a screen's widgets only when it first pushes it.
"""

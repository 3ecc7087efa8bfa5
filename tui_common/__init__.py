"""Textual pieces both table apps share: sign-in, supervisor panel, recall, i18n, the CLI frame.

Modules here that the command line imports (``cli``, ``options``) stay free of Textual so a
supervisor tool starts fast; screens and widgets import Textual.
"""

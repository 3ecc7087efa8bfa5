"""The game engine shared by both table consoles.

Pure Python: no module here may import Textual, Rich or either app
(``tests/test_engine_imports.py`` proves it).
"""

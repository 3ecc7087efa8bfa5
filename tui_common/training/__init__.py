"""Training mode screens (issue 9): trainee sign-in, drill picker, drill, score card, history.

The screens take a ``TrainingContext`` and navigate with the running app's screen stack,
so they run in ``TrainingApp`` (``madero-tui train`` / ``midi-tui train``) and can be
pushed from a table console too (``TrainingSignIn(context)``).
"""

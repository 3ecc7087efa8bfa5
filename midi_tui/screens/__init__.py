"""The Midi console's screens (the shared ones live in ``tui_common.screens``)."""

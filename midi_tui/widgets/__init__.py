"""The Midi table screen's regions, one widget per file; each shows what the app hands it."""
